/**
 * `endpoint-studio mcp` offered to the editor's own MCP support, so agent mode and any MCP-aware chat
 * in it see the same tools. The process is this extension's CLI bundle; the active profile's URL and
 * key reach it only through its environment, filled in from SecretStorage just before it starts
 * (never in a setting or a file). Writes are allowed in a trusted workspace only.
 */
import * as vscode from 'vscode';
import type { Session } from '../auth/session';
import type { McpApi, McpStdioServerDefinition } from './lmApi';

const MCP_PROVIDER_ID = 'endpointStudio.mcp';

export function registerMcpServer(mcp: McpApi, context: vscode.ExtensionContext, session: Session): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const manifestVersion = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof manifestVersion === 'string' ? manifestVersion : '0';
  const provider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: (): McpStdioServerDefinition[] => {
      const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const args = [context.asAbsolutePath('dist/cli.js'), 'mcp', ...(root ? ['--workspace', root] : [])];
      if (vscode.workspace.isTrusted) args.push('--allow-writes');
      // In the editor, process.execPath is its Electron binary, which runs as plain Node with this variable.
      return [mcp.stdioServer('Endpoint Studio', process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, version)];
    },
    resolveMcpServerDefinition: (server: McpStdioServerDefinition): Promise<McpStdioServerDefinition> => {
      const profile = session.profile;
      // Signed out or untrusted: blank, so a key in the editor's own environment is not picked up either.
      server.env = {
        ...server.env,
        ENDPOINT_STUDIO_API_URL: profile?.apiUrl ?? '',
        ENDPOINT_STUDIO_JOBS_URL: profile?.jobsUrl ?? '',
        ENDPOINT_STUDIO_API_KEY: profile?.apiKey ?? '',
        RUNPOD_API_KEY: '',
      };
      return Promise.resolve(server);
    },
  };
  let registration: vscode.Disposable;
  try {
    registration = mcp.registerProvider(MCP_PROVIDER_ID, provider);
  } catch (error) {
    changed.dispose();
    throw error;
  }
  return vscode.Disposable.from(
    registration,
    changed,
    // A new profile, key or trust state means a new server definition (and so a restarted process).
    session.onDidChange(() => {
      changed.fire();
    }),
  );
}

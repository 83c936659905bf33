/**
 * The agent tools in the editor: the same catalogue `endpoint-studio mcp` serves, registered as
 * language-model tools (`endpointStudio_<tool>`) on the active profile's API client, and the MCP
 * server offered to the editor where it supports MCP providers. Write tools ask first, showing the
 * plan or the job; an untrusted workspace gets the read-only tools only.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { AGENT_TOOLS, PlanTokenStore, runTool, type AgentContext, type AgentTool } from '../../agents';
import type { ApiClient } from '../../core/api';
import type { DeployEnvironment } from '../../core/operations';
import type { Session } from '../auth/session';
import { watchRolloutInEditor } from '../deploy/rollout';
import { prepareAgentTool, TOOL_PREFIX } from './confirm';
import { mcpApi, toolApi, type ToolApi } from './lmApi';
import { registerMcpServer } from './mcpServer';

export function registerAgents(context: vscode.ExtensionContext, session: Session, log: vscode.LogOutputChannel): vscode.Disposable {
  const plans = new PlanTokenStore();
  const disposables: vscode.Disposable[] = [];
  const tools = toolApi();
  if (tools) {
    for (const tool of AGENT_TOOLS.filter((t) => !t.writes)) disposables.push(registerAgentTool(tools, tool, session, plans));
    const registerWrites = (): void => {
      for (const tool of AGENT_TOOLS.filter((t) => t.writes)) disposables.push(registerAgentTool(tools, tool, session, plans));
    };
    if (vscode.workspace.isTrusted) registerWrites();
    else disposables.push(vscode.workspace.onDidGrantWorkspaceTrust(registerWrites));
  } else {
    log.info('this editor has no language-model tools API; the agent tools are available through endpoint-studio mcp only');
  }
  const mcp = mcpApi();
  if (mcp) {
    // An editor where MCP server providers are still a proposed API has the function but refuses the call.
    try {
      disposables.push(registerMcpServer(mcp, context, session));
    } catch (error) {
      log.info(`MCP server definitions are not available in this editor (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  return new vscode.Disposable(() => {
    for (const disposable of disposables) disposable.dispose();
  });
}

function agentContext(session: Session, plans: PlanTokenStore, signal?: AbortSignal): AgentContext {
  const trusted = vscode.workspace.isTrusted;
  return {
    client: session.api,
    noClientReason: trusted
      ? 'not signed in: run "Endpoint Studio: Sign In" (or "Use Local Emulator") first'
      : 'this workspace is not trusted, so nothing is sent to the service; trust the workspace to use this tool',
    writesAllowed: trusted,
    enableWrites: 'trust the workspace (Workspaces: Manage Workspace Trust)',
    workspaceRoot: workspaceRoot(),
    plans,
    clientForEnvironment: (environment) => environmentClient(session, environment),
    ...(signal ? { signal } : {}),
  };
}

/**
 * The tools deploy an environment only with its own profile, as the editor's commands do; unlike them they cannot
 * ask which account to use, so another active profile is a refusal that says what to switch to.
 */
function environmentClient(session: Session, environment: DeployEnvironment): ApiClient | { readonly reason: string } {
  if (!session.api || !session.profile) return { reason: 'not signed in: run "Endpoint Studio: Sign In" first' };
  if (environment.profile === undefined || environment.profile === session.profile.name) return session.api;
  return {
    reason: `${environment.name} deploys with profile ${environment.profile}, and the active profile is ${session.profile.name}: switch profile (Endpoint Studio: Switch Profile) to plan or deploy it from here`,
  };
}

function workspaceRoot(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir();
}

function registerAgentTool(api: ToolApi, tool: AgentTool, session: Session, plans: PlanTokenStore): vscode.Disposable {
  return api.registerTool<Record<string, unknown>>(`${TOOL_PREFIX}${tool.name}`, {
    prepareInvocation: (options) => prepareAgentTool(tool.name, options.input, plans, workspaceRoot()),
    invoke: async (options, token) => {
      const abort = new AbortController();
      const cancelled = token.onCancellationRequested(() => {
        abort.abort();
      });
      try {
        const result = await runTool(tool, options.input, agentContext(session, plans, abort.signal));
        // The editor hands a thrown message to the model as the tool's failure.
        if (result.isError) throw new Error(`${result.text}\n${JSON.stringify(result.structured)}`);
        if (tool.name === 'deploy_spec') watchDeployedRollout(session, result.structured);
        return api.result([result.text, JSON.stringify(result.structured)]);
      } finally {
        cancelled.dispose();
      }
    },
  });
}

/** A deploy the model ran makes a release like one run from the editor, and is watched the same way. */
function watchDeployedRollout(session: Session, deployed: Record<string, unknown>): void {
  const { action, endpointId, endpointName } = deployed;
  if (action === 'unchanged' || typeof endpointId !== 'string') return;
  void watchRolloutInEditor(session, { id: endpointId, name: typeof endpointName === 'string' ? endpointName : endpointId });
}

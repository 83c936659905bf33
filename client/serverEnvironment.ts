/**
 * What the language server process is given to read the live catalog. The key travels only in the
 * process environment: never in settings, initialization options or any other LSP message.
 * API URLs are machine-scoped settings, so a cloned workspace cannot send the key elsewhere.
 */
import * as vscode from 'vscode';

export const API_KEY_SECRET = 'endpointStudio.apiKey';

export async function serverEnvironment(context: vscode.ExtensionContext): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = { ...process.env, ENDPOINT_STUDIO_CACHE_DIR: context.globalStorageUri.fsPath };
  // In an untrusted workspace the extension checks specs but calls nothing.
  if (!vscode.workspace.isTrusted) {
    for (const name of ['ENDPOINT_STUDIO_API_KEY', 'RUNPOD_API_KEY']) delete env[name];
    return env;
  }
  const api = vscode.workspace.getConfiguration('endpointStudio.api');
  const apiUrl = api.inspect<string>('url')?.globalValue;
  const jobsUrl = api.inspect<string>('jobsUrl')?.globalValue;
  if (apiUrl) env.ENDPOINT_STUDIO_API_URL = apiUrl;
  if (jobsUrl) env.ENDPOINT_STUDIO_JOBS_URL = jobsUrl;
  const stored = await context.secrets.get(API_KEY_SECRET);
  if (stored) env.ENDPOINT_STUDIO_API_KEY = stored;
  return env;
}

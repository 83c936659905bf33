/**
 * What the language server process is given to read the live catalog. The key travels only in the
 * process environment: never in settings, initialization options or any other LSP message.
 */
import * as vscode from 'vscode';
import type { ResolvedProfile } from './auth/profiles';

export function serverEnvironment(context: vscode.ExtensionContext, profile: ResolvedProfile | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ENDPOINT_STUDIO_CACHE_DIR: context.globalStorageUri.fsPath };
  // Signed out or untrusted (the session then has no profile): the server may use its cache, nothing else.
  for (const name of ['ENDPOINT_STUDIO_API_KEY', 'RUNPOD_API_KEY', 'ENDPOINT_STUDIO_API_URL', 'ENDPOINT_STUDIO_JOBS_URL']) delete env[name];
  if (profile) {
    env.ENDPOINT_STUDIO_API_URL = profile.apiUrl;
    env.ENDPOINT_STUDIO_JOBS_URL = profile.jobsUrl;
    env.ENDPOINT_STUDIO_API_KEY = profile.apiKey;
  }
  return env;
}

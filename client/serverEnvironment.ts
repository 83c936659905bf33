/**
 * What the language server process is given to read the live catalog. The key travels only in the
 * process environment: never in settings, initialization options or any other LSP message.
 */
import * as vscode from 'vscode';
import type { ResolvedProfile } from './auth/profiles';

/** What the editor's own environment may hold that reaches the service; the profile alone decides these. */
const SERVICE_VARIABLES = new Set(['ENDPOINT_STUDIO_API_KEY', 'RUNPOD_API_KEY', 'ENDPOINT_STUDIO_API_URL', 'ENDPOINT_STUDIO_JOBS_URL']);

export function serverEnvironment(context: vscode.ExtensionContext, profile: ResolvedProfile | undefined): NodeJS.ProcessEnv {
  // Signed out or untrusted (the session then has no profile): the server may use its cache, nothing else.
  // The language client merges this over the editor's own environment, so leaving a variable out would let
  // the editor's value through: each is set, blank when there is no profile (blank reads as unset).
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_VARIABLES.has(name)));
  for (const name of SERVICE_VARIABLES) env[name] = '';
  env.ENDPOINT_STUDIO_CACHE_DIR = context.globalStorageUri.fsPath;
  if (profile) {
    env.ENDPOINT_STUDIO_API_URL = profile.apiUrl;
    env.ENDPOINT_STUDIO_JOBS_URL = profile.jobsUrl;
    env.ENDPOINT_STUDIO_API_KEY = profile.apiKey;
  }
  return env;
}

/**
 * The language server's process. It is forked before the profile is known (core/protocol/serverStart.ts) and
 * told the profile afterwards, on the fork's IPC channel: the key travels only between the two processes,
 * never in settings, initialization options or any other LSP message, nor on the server's command line or in
 * the environment it starts with.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { ENVIRONMENT_FROM_PARENT, environmentMessage, type ProfileVariables } from '../core/protocol';
import type { ResolvedProfile } from './auth/profiles';

/** What the editor's own environment may hold that reaches the service: the profile alone decides these. */
const SERVICE_VARIABLES = new Set(['ENDPOINT_STUDIO_API_KEY', 'RUNPOD_API_KEY', 'ENDPOINT_STUDIO_API_URL', 'ENDPOINT_STUDIO_JOBS_URL']);

/** The extension host runs under a debugger: the server is then started with an inspector of its own. */
const DEBUGGING = process.execArgv.some((arg) => /^--(inspect|debug)(-brk)?(=|$)/.test(arg));

/**
 * Forks dist/server.js (beside this bundle) on stdio, as vscode-languageclient forks a server module: the
 * editor's runtime run as Node, told the extension host's process id so that it ends with it. It loads its
 * bundle, then waits for `sendProfile`.
 */
export function forkServer(): ChildProcess {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !SERVICE_VARIABLES.has(name)));
  return fork(join(__dirname, 'server.js'), ['--stdio', `--clientProcessId=${String(process.pid)}`, ENVIRONMENT_FROM_PARENT], {
    env: { ...env, ELECTRON_RUN_AS_NODE: '1', ELECTRON_NO_ASAR: '1' },
    execArgv: DEBUGGING ? ['--nolazy', '--inspect=6019'] : [],
    silent: true,
  });
}

/**
 * Lets `server` start with `profile`'s URLs and key, or with none (signed out, untrusted: it may use its
 * catalog cache, nothing else). A server that has already gone fails its start, which the client reports.
 */
export function sendProfile(server: ChildProcess, context: vscode.ExtensionContext, profile: ResolvedProfile | undefined): void {
  const variables: ProfileVariables = {
    ENDPOINT_STUDIO_CACHE_DIR: context.globalStorageUri.fsPath,
    ...(profile
      ? { ENDPOINT_STUDIO_API_URL: profile.apiUrl, ENDPOINT_STUDIO_JOBS_URL: profile.jobsUrl, ENDPOINT_STUDIO_API_KEY: profile.apiKey }
      : {}),
  };
  server.send(environmentMessage(variables), () => undefined);
}

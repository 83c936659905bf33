/**
 * How the editor starts the language server before it knows the profile to give it. The profile needs the
 * extension's context and its secret storage, which come only once activation begins; the server's process
 * takes longer to start than that wait. So the editor forks the server the moment its bundle runs, with
 * `--environment-from-parent`, and the server loads its own bundle meanwhile, then waits for one message on
 * the fork's IPC channel: the variables the profile decides. The key travels between the two processes
 * only, never in an LSP message (clients log those whole when tracing).
 */

export const ENVIRONMENT_FROM_PARENT = '--environment-from-parent';

/** What the message may set: the service's URLs and key, and the folder for the catalog's cache. */
const PROFILE_VARIABLES = [
  'ENDPOINT_STUDIO_API_URL',
  'ENDPOINT_STUDIO_JOBS_URL',
  'ENDPOINT_STUDIO_API_KEY',
  'ENDPOINT_STUDIO_CACHE_DIR',
] as const;

export type ProfileVariables = Partial<Record<(typeof PROFILE_VARIABLES)[number], string>>;

const MESSAGE_KIND = 'endpointStudio/environment';

export function environmentMessage(variables: ProfileVariables) {
  return { kind: MESSAGE_KIND, variables };
}

/** The variables of an environment message, only those listed and only strings; undefined for anything else. */
export function readEnvironmentMessage(message: unknown): ProfileVariables | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { kind, variables } = message as Record<string, unknown>;
  if (kind !== MESSAGE_KIND || typeof variables !== 'object' || variables === null) return undefined;
  const read: ProfileVariables = {};
  for (const name of PROFILE_VARIABLES) {
    const value = (variables as Record<string, unknown>)[name];
    if (typeof value === 'string') read[name] = value;
  }
  return read;
}

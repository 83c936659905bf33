/**
 * Applying a change, the same for `deploy` and `rollback`: asking first (a yes/no question where a person can
 * answer it, `--yes` otherwise, and exit status 3 where nobody can, as in CI; a protected environment's name typed
 * on a terminal, `--yes` or not), and afterwards saying whether the endpoint read back shows what was asked.
 */
import { createInterface } from 'node:readline/promises';
import type { ApiClient } from '../core/api';
import type { ApplyResult } from '../core/deploy/apply';
import { renderChange } from '../core/deploy/render';
import type { ServiceIo } from './service';
import type { CliIo } from './inputs';

export interface DeployIo extends ServiceIo {
  /** Asks a yes/no question; absent in a non-interactive run, where deploy needs --yes. */
  confirm?(question: string): Promise<boolean>;
  /** Asks for a typed answer (a protected environment's name); absent where stdin is no terminal. */
  ask?(question: string): Promise<string>;
  /**
   * The signal that stops watching a rollout (Ctrl-C), made when the watching starts: before that, Ctrl-C ends
   * the command as it always has. Absent where nothing can interrupt (tests, scripts).
   */
  interruption?(): AbortSignal;
}

/** A yes/no question on the terminal, for `DeployIo.confirm` when stdin and stdout are TTYs. */
export async function terminalConfirm(question: string): Promise<boolean> {
  return /^y(es)?$/i.test(await answer(`${question} [y/N] `, process.stdout));
}

/** A typed answer on the terminal, for `DeployIo.ask` when stdin is a TTY; the prompt on stderr, so stdout stays the plan. */
export function terminalAsk(question: string): Promise<string> {
  return answer(`${question} `, process.stderr);
}

async function answer(prompt: string, output: NodeJS.WritableStream): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output });
  try {
    return (await terminal.question(prompt)).trim();
  } finally {
    terminal.close();
  }
}

export interface ConfirmRequest {
  /** `deploy`, `rollback`: how messages name the command. */
  readonly command: string;
  readonly yes: boolean;
  /** The question asked on a terminal: `Apply this plan?` */
  readonly question: string;
  /** Set when the change goes to a protected environment: its name is typed instead. */
  readonly protectedEnvironment?: string;
}

/** Undefined to go on; otherwise exit status 3, after saying why nothing was applied. */
export async function confirmApply(request: ConfirmRequest, io: DeployIo): Promise<3 | undefined> {
  if (request.protectedEnvironment !== undefined) return askProtected(request, request.protectedEnvironment, io);
  if (request.yes) return undefined;
  if (!io.confirm) {
    io.err(`endpoint-studio ${request.command}: not applied: confirm with --yes (there is no terminal to ask)`);
    return 3;
  }
  if (await io.confirm(request.question)) return undefined;
  io.err(`endpoint-studio ${request.command}: not applied`);
  return 3;
}

/** On a terminal the name must be typed, --yes or not; with no terminal, --yes is the confirmation. */
async function askProtected(request: ConfirmRequest, environment: string, io: DeployIo): Promise<3 | undefined> {
  if (!io.ask) {
    if (request.yes) return undefined;
    io.err(
      `endpoint-studio ${request.command}: not applied: ${environment} is a protected environment; confirm with --yes (there is no terminal to type its name)`,
    );
    return 3;
  }
  const typed = await io.ask(`${environment} is a protected environment. Type its name to apply the plan to it:`);
  if (typed === environment) return undefined;
  io.err(`endpoint-studio ${request.command}: not applied: typed ${JSON.stringify(typed)}, not ${JSON.stringify(environment)}`);
  return 3;
}

/**
 * Whether the endpoint read back after the change shows what was asked (`wanted`: `the spec`, `release 6`), said
 * either way: verified on stdout, otherwise on stderr with what still differs.
 */
export function reportReadBack(
  request: { readonly command: string; readonly client: ApiClient; readonly prefix: string; readonly wanted: string },
  result: ApplyResult & { ok: true },
  io: CliIo,
): boolean {
  const said = `endpoint-studio ${request.command}: ${request.prefix}`;
  if (result.readBackError) {
    io.err(
      `${said}the change was made but reading the endpoint back failed, so it is not verified: ${request.client.redact(result.readBackError)}`,
    );
    return false;
  }
  if (!result.verified) {
    io.err(
      `${said}endpoint ${result.endpoint.id} does not match ${request.wanted} after the ${request.command} (before = live, after = ${request.wanted}):`,
    );
    for (const change of result.differences) io.err(`  ${renderChange(change)}`);
    return false;
  }
  io.out(`${request.prefix}verified: the endpoint read back matches ${request.wanted}\n`);
  return true;
}

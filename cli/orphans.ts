/**
 * `endpoint-studio orphans`: the endpoints whose spec was deleted from the repository, still running and billed,
 * and the two things CI or a person can do about one, each only when asked by name or id: forget its binding
 * (the endpoint keeps running), or delete the endpoint and then forget it. A delete is confirmed as the editor
 * confirms it, by the endpoint's name typed; where no one can type, `--confirm <name>` is that typed name.
 * `plan` and `deploy` list the same endpoints after their plans (orphansReport.ts) and never remove any.
 * Exit codes: 0 listed or done, 1 the service or the bindings file failed, 2 usage error, a name or id of no endpoint
 * left behind, an unreadable bindings file or no key, 3 a delete not confirmed (nothing was changed).
 */
import type { ApiClient } from '../core/api';
import { deleteOrphanedEndpoint, forgetOrphan, orphanedBindings, type OrphanedBinding } from '../core/operations';
import type { DeployIo } from './applying';
import { readCommandLine, usageError } from './args';
import type { CliIo } from './inputs';
import { endpointOf, isFolder, leftBehindText, orphanJson, rootOfFolder, specOf, type LeftBehind } from './orphansReport';
import { textOnStderr } from './rolloutReport';
import { serviceClient } from './service';

export const ORPHANS_HELP = `Usage:
  endpoint-studio orphans [--format text|json] [--forget <name|id> ...]
                          [--delete <name|id> ... [--confirm <name> ...]] [<folder>]

Lists the endpoints a spec in <folder> (default: the current folder, subfolders included)
was deployed to, whose spec file has since been deleted or no longer holds that document:
.endpoint-studio/deployments.json still binds them, and they are still running and billed.
Nothing is removed unless asked, one endpoint at a time, by its name or id:

--forget NAME|ID   forget the binding only: the endpoint keeps running. Sends nothing.
--delete NAME|ID   delete the endpoint on the service, then forget its binding (an endpoint
                   already deleted elsewhere is only forgotten). Asks for its name typed on a
                   terminal; without one, give the name with --confirm.
--confirm NAME     the name of an endpoint --delete names, typed in advance (for CI).
--format F         text (default), or json: {orphans, forgotten, deleted, failed}, where
                   orphans are those still left behind afterwards.

Only an endpoint left behind is deleted or forgotten: one that a spec still present is bound
to is refused. The service and key are $ENDPOINT_STUDIO_API_URL and $ENDPOINT_STUDIO_API_KEY.

Exit status: 0 listed or done, 1 a delete or the bindings file failed, 2 usage error, a name
or id of no endpoint left behind, unreadable bindings file or no key, 3 a delete not confirmed
(then nothing is changed).`;

const COMMAND_LINE = {
  command: 'orphans',
  usage: ORPHANS_HELP,
  options: {
    format: { type: 'string' },
    forget: { type: 'string', multiple: true },
    delete: { type: 'string', multiple: true },
    confirm: { type: 'string', multiple: true },
  },
  allowPositionals: true,
} as const;

/** The endpoints a run acts on, each with every binding left behind that names it. */
interface Picked {
  readonly forget: readonly OrphanedBinding[];
  readonly remove: readonly (readonly OrphanedBinding[])[];
}

interface Outcome {
  readonly forgotten: OrphanedBinding[];
  readonly deleted: Record<string, unknown>[];
  readonly failed: Record<string, unknown>[];
}

export async function runOrphans(args: string[], io: DeployIo): Promise<number> {
  const line = readCommandLine(COMMAND_LINE, args, io);
  if (typeof line === 'number') return line;
  const { values, positionals } = line;
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') return usageError(COMMAND_LINE, io, `--format takes text or json; got: ${format}`);
  if (positionals.length > 1) return usageError(COMMAND_LINE, io, `one folder at a time, please; got: ${positionals.join(' ')}`);
  const folder = positionals.at(0) ?? '.';
  if (!isFolder(folder)) return usageError(COMMAND_LINE, io, `not a folder: ${folder}`);
  const root = rootOfFolder(folder);
  const found = orphanedBindings(root, [folder]);
  if (!found.ok) {
    io.err(`endpoint-studio orphans: ${found.error}`);
    return 2;
  }
  const picked = pick(found.orphans, values.forget ?? [], values.delete ?? [], folder);
  if (typeof picked === 'string') {
    io.err(`endpoint-studio orphans: nothing changed: ${picked}`);
    return 2;
  }
  const client = picked.remove.length > 0 ? serviceClient('orphans', io) : undefined;
  if (client === 2) return 2;
  const declined = await confirmDeletes(picked.remove, values.confirm ?? [], io);
  if (declined !== undefined) return declined;
  // In JSON, stdout is the one object; what happened along the way is said on stderr.
  const outcome = await act(root, picked, client, format === 'json' ? textOnStderr(io) : io);
  const left = orphanedBindings(root, [folder]);
  io.out(report(format, { orphans: left.ok ? left.orphans : [], folder }, outcome));
  return outcome.failed.length > 0 ? 1 : 0;
}

/** What is still left behind after the run; in JSON with what the run forgot, deleted and failed to. */
function report(format: 'text' | 'json', left: LeftBehind, outcome: Outcome): string {
  if (format === 'text') return left.orphans.length === 0 ? `nothing is left behind in ${left.folder}\n` : leftBehindText(left).slice(1);
  const { forgotten, deleted, failed } = outcome;
  return `${JSON.stringify({ orphans: left.orphans.map(orphanJson), forgotten: forgotten.map(orphanJson), deleted, failed }, null, 2)}\n`;
}

/** The bindings each --forget and --delete names; or why one names none, or more than one endpoint. */
function pick(orphans: readonly OrphanedBinding[], forget: readonly string[], remove: readonly string[], folder: string): Picked | string {
  const both = forget.find((selector) => remove.includes(selector));
  if (both !== undefined) return `--forget and --delete name the same endpoint: ${both}`;
  const named = (selector: string): OrphanedBinding[] | string => {
    const byId = orphans.filter((o) => o.endpointId === selector);
    if (byId.length > 0) return byId;
    const byName = orphans.filter((o) => o.endpointName === selector);
    const ids = [...new Set(byName.map((o) => o.endpointId))];
    if (ids.length > 1) return `several endpoints left behind are named ${selector}; name one by its id: ${ids.join(', ')}`;
    return byName.length > 0 ? byName : `no endpoint left behind in ${folder} has the name or id ${selector}`;
  };
  const forgotten: OrphanedBinding[] = [];
  const removed = new Map<string, OrphanedBinding[]>();
  for (const selector of forget) {
    const bindings = named(selector);
    if (typeof bindings === 'string') return bindings;
    forgotten.push(...bindings.filter((b) => !forgotten.includes(b)));
  }
  for (const selector of remove) {
    const bindings = named(selector);
    if (typeof bindings === 'string') return bindings;
    if (bindings.some((b) => forgotten.includes(b))) return `--forget and --delete name the same endpoint: ${selector}`;
    removed.set(bindings[0].endpointId, bindings);
  }
  return { forget: forgotten, remove: [...removed.values()] };
}

/**
 * Every delete confirmed before anything is changed: by --confirm with its name, else by the name typed on a
 * terminal. Undefined to go on; otherwise exit status 3, after saying why nothing was changed.
 */
async function confirmDeletes(
  remove: readonly (readonly OrphanedBinding[])[],
  confirmed: readonly string[],
  io: DeployIo,
): Promise<3 | undefined> {
  for (const [orphan] of remove) {
    const name = orphan.endpointName || orphan.endpointId;
    if (confirmed.includes(name)) continue;
    if (!io.ask) {
      io.err(
        `endpoint-studio orphans: nothing changed: deleting endpoint ${endpointOf(orphan)} needs its name typed; there is no terminal, so confirm with --confirm ${name}`,
      );
      return 3;
    }
    const typed = await io.ask(
      `Endpoint ${endpointOf(orphan)} will be deleted permanently: its workers stop and its queued jobs are cancelled. Type ${name} to delete it:`,
    );
    if (typed === name) continue;
    io.err(`endpoint-studio orphans: nothing changed: typed ${JSON.stringify(typed)}, not ${JSON.stringify(name)}`);
    return 3;
  }
  return undefined;
}

/** Forgets, then deletes, saying each on stdout as it happens (on stderr when it failed). */
async function act(root: string, picked: Picked, client: ApiClient | undefined, io: CliIo): Promise<Outcome> {
  const outcome: Outcome = { forgotten: [], deleted: [], failed: [] };
  for (const orphan of picked.forget) {
    const forgotten = forgetOrphan(root, orphan.key, orphan.documentIndex);
    if (forgotten.forgotten) {
      outcome.forgotten.push(orphan);
      io.out(`forgot the binding of ${specOf(orphan)} to endpoint ${endpointOf(orphan)}; the endpoint keeps running\n`);
    } else fail(outcome, orphan, forgotten.error, io);
  }
  for (const bindings of picked.remove) {
    const [orphan] = bindings;
    if (!client) break;
    const result = await deleteOrphanedEndpoint({ client, root, endpointId: orphan.endpointId });
    if (!result.ok) {
      fail(outcome, orphan, `not deleted: ${result.error}`, io);
      continue;
    }
    const what =
      result.outcome === 'deleted' ? `deleted endpoint ${endpointOf(orphan)}` : `endpoint ${endpointOf(orphan)} was already deleted`;
    io.out(`${what}; ${result.forgetError ? 'its binding is kept' : `forgot its binding (${bindings.map(specOf).join(', ')})`}\n`);
    outcome.deleted.push({
      endpointId: orphan.endpointId,
      endpointName: orphan.endpointName,
      outcome: result.outcome,
      bindings: result.forgotten.map(orphanJson),
    });
    if (result.forgetError) fail(outcome, orphan, `deleted, but its binding was not forgotten: ${result.forgetError}`, io);
  }
  return outcome;
}

function fail(outcome: Outcome, orphan: OrphanedBinding, error: string, io: CliIo): void {
  io.err(`endpoint-studio orphans: endpoint ${endpointOf(orphan)}: ${error}`);
  outcome.failed.push({ endpointId: orphan.endpointId, endpointName: orphan.endpointName, file: orphan.key, error });
}

/**
 * The endpoints left behind by deleted specs, as `plan`, `deploy` and `orphans` print them: text for a terminal,
 * JSON entries for a pipeline, a Markdown section for a pull request. Each says the endpoint still runs and bills,
 * since that is the reason to list it, and names the command that removes it; nothing here removes anything.
 */
import { statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { findWorkspaceRoot } from '../core/deploy/bindings';
import { orphanedBindings, type OrphanedBinding } from '../core/operations';
import type { CliIo } from './inputs';
import { plural } from '../core/util/plural';

/** The bindings left behind under some folders, across the workspace roots those folders belong to. */
export interface LeftBehind {
  readonly orphans: readonly OrphanedBinding[];
  /** The folder `endpoint-studio orphans` is run on to act on them, relative to the working folder. */
  readonly folder: string;
}

/**
 * The folder's root, as a spec inside it would find it: the nearest folder with `.endpoint-studio/` or `.git`.
 * findWorkspaceRoot starts from a spec's folder, so it is handed a name inside this one.
 */
export function rootOfFolder(folder: string): string {
  return findWorkspaceRoot(join(folder, 'any.endpoint.yaml'));
}

/**
 * What is left behind in the folders given and in the folders of the files given (a file stands for its folder,
 * subfolders included). A bindings file that cannot be read is said on stderr and lists nothing: it never changes
 * the command's exit status.
 */
export function leftBehindIn(command: string, paths: readonly string[], io: CliIo): LeftBehind {
  const foldersByRoot = new Map<string, string[]>();
  for (const folder of new Set(paths.map(folderOf))) {
    const root = rootOfFolder(folder);
    foldersByRoot.set(root, [...(foldersByRoot.get(root) ?? []), folder]);
  }
  const orphans: OrphanedBinding[] = [];
  for (const [root, folders] of foldersByRoot) {
    const found = orphanedBindings(root, folders);
    if (found.ok) orphans.push(...found.orphans);
    else io.err(`endpoint-studio ${command}: cannot list the endpoints left behind: ${found.error}`);
  }
  const roots = [...foldersByRoot.keys()];
  return { orphans, folder: roots.length === 1 ? relative(process.cwd(), roots[0]) || '.' : '<folder>' };
}

/** A folder as it is; a file, one deleted since or a glob stands for the folder it names, which holds the bindings. */
function folderOf(path: string): string {
  return isFolder(path) ? path : dirname(path);
}

export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `specs/a.endpoint.yaml`, with ` document N` for any but a file's first document. */
export function specOf(orphan: OrphanedBinding): string {
  return orphan.documentIndex > 0 ? `${orphan.key} document ${orphan.documentIndex}` : orphan.key;
}

/** `old-api (ep_abc)`, or the id alone when the binding kept no name. */
export function endpointOf(orphan: Pick<OrphanedBinding, 'endpointId' | 'endpointName'>): string {
  return orphan.endpointName ? `${orphan.endpointName} (${orphan.endpointId})` : orphan.endpointId;
}

function whyOf(orphan: OrphanedBinding): string {
  return orphan.reason === 'file-gone' ? 'the file is gone' : `the file no longer holds document ${orphan.documentIndex}`;
}

/** `orphans --delete` and `--forget` as they would be typed from here. */
function commandsFor(folder: string): { remove: string; forget: string } {
  const base = `endpoint-studio orphans${folder === '.' ? '' : ` ${folder}`}`;
  return { remove: `${base} --delete <name>`, forget: `${base} --forget <name>` };
}

/** The text block after the plans; empty when nothing is left behind. */
export function leftBehindText(left: LeftBehind | undefined): string {
  if (!left || left.orphans.length === 0) return '';
  const { remove, forget } = commandsFor(left.folder);
  const lines = [
    '',
    `left behind: ${plural(left.orphans.length, 'endpoint')} whose spec is gone, still running and billed:`,
    ...left.orphans.map((o) => `  endpoint ${endpointOf(o)}, deployed from ${specOf(o)}: ${whyOf(o)}`),
    `to delete one: ${remove} (its name typed to confirm, or --confirm <name>)`,
    `to keep it running and forget its binding: ${forget}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** One orphan as every JSON output shows it. */
export function orphanJson(orphan: OrphanedBinding): Record<string, unknown> {
  return {
    file: orphan.key,
    document: orphan.documentIndex,
    endpointId: orphan.endpointId,
    endpointName: orphan.endpointName,
    deployedAt: orphan.deployedAt || null,
    reason: orphan.reason,
    message: `endpoint ${endpointOf(orphan)} is still running and billed: ${whyOf(orphan)}`,
  };
}

/** `plan --format json`'s extra entries, after the plans: `{"orphan": {...}}`, none when nothing is left behind. */
export function leftBehindEntries(left: LeftBehind | undefined): Record<string, unknown>[] {
  return (left?.orphans ?? []).map((orphan) => ({ orphan: orphanJson(orphan) }));
}

/** A section after the plans of `plan --format markdown`; empty when nothing is left behind. */
export function leftBehindMarkdown(left: LeftBehind | undefined): string {
  if (!left || left.orphans.length === 0) return '';
  const { remove, forget } = commandsFor(left.folder);
  const count = left.orphans.length;
  const rows = left.orphans.map(
    (o) => `| ${plain(o.endpointName || '—')} | \`${o.endpointId}\` | \`${specOf(o)}\` | ${whyOf(o)} | ${o.deployedAt || '—'} |`,
  );
  return [
    '',
    `### Left behind: ${plural(count, 'endpoint')} whose spec is gone`,
    '',
    `${count === 1 ? 'This endpoint is' : 'These endpoints are'} still running and billed, and no spec describes ${count === 1 ? 'it' : 'them'} any more. Nothing here deletes ${count === 1 ? 'it' : 'them'}: \`${remove}\` deletes one (its name typed to confirm, or \`--confirm <name>\`), \`${forget}\` keeps it running and forgets its binding.`,
    '',
    '| endpoint | id | spec | why | deployed |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

function plain(text: string): string {
  return text.replace(/([\\`*_[\]<>|#])/g, '\\$1');
}

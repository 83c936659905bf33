/**
 * The policy over a spec: `.endpoint-studio/policy.yaml` in the spec's folder or the nearest folder above it,
 * up to the workspace root (the nearest folder with `.endpoint-studio/` or `.git`, as the bindings' root) and
 * never past the folders the front-end works in. Looked for through the front-end's view of the files, so an
 * open editor's text counts and every candidate read is known: the one that appears or changes drops the
 * checks that looked for it.
 */
import { dirname, isAbsolute, join, relative } from 'node:path';
import { parsePolicy, POLICY_FILE, type ParsedPolicy, type PolicyFile } from './policyFile';

/** How the files are seen: core/workspace's `FileView`, through which a front-end shows the workspace its files. */
export interface PolicyView {
  /**
   * A spec file's text (or the team policy's) by absolute path: an open editor's first, else the disk's; undefined
   * when there is none.
   */
  read(path: string): string | undefined;
  /** The names in a folder; none when it cannot be listed. */
  list(folder: string): readonly string[];
}

export interface PolicyLookup {
  /** The policy found, broken or not; undefined when there is none. */
  readonly file?: PolicyFile;
  /** Every candidate path read, the found one included. */
  readonly reads: readonly string[];
}

/** The policy over the specs in `folder`, looked for no higher than `roots` allow. */
export function findPolicy(
  folder: string,
  roots: readonly string[],
  view: PolicyView,
  parse: (text: string) => ParsedPolicy = parsePolicy,
): PolicyLookup {
  const reads: string[] = [];
  for (let dir = folder; ; dir = dirname(dir)) {
    const path = join(dir, POLICY_FILE);
    reads.push(path);
    const text = view.read(path);
    if (text !== undefined) return { file: { ...parse(text), path, root: dir }, reads };
    const names = view.list(dir);
    if (names.includes('.endpoint-studio') || names.includes('.git')) break;
    const parent = dirname(dir);
    if (parent === dir || !roots.some((root) => isWithin(parent, root))) break;
  }
  return { reads };
}

function isWithin(path: string, root: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot === '' || (!fromRoot.startsWith('..') && !isAbsolute(fromRoot));
}

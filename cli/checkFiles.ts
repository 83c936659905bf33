/**
 * Checks many spec files for `validate`: each file is read synchronously (from the page cache that is cheaper
 * than any asynchronous read, and the run has nothing else to do meanwhile), and a large run is split across
 * worker threads (each runs this same bundle), so a CI job over a big repository uses every core.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Catalog, type CatalogData } from '../core/endpointSpec/catalog/catalog';
import type { SpecDiagnostic } from '../core/endpointSpec/check';
import type { ValidationContext } from '../core/endpointSpec/validate';
import { DISK_FILE_VIEW } from '../core/environments/overlays';
import { specFileOnDisk } from '../core/operations/environments';
import type { SuppressedDiagnostic } from '../core/policy';
import { SpecWorkspace, type FileView } from '../core/workspace/specWorkspace';
import { readSpecFileResult, unreadableLine, type UnreadableCode } from './inputs';

/**
 * A file's problems, or why it could not be read (said on stderr, in file order, by the caller). An overlay's
 * outcome also carries the problems its base's lines hold for it (`inBase`), which the caller reports in the base.
 * Findings the team silenced (`suppressed`) are listed by the formats that can say so, and never counted; a broken
 * team policy over the file comes with its problems (`policy`), which the caller reports once, in the policy file.
 */
export type FileOutcome =
  | {
      readonly file: string;
      readonly diagnostics: SpecDiagnostic[];
      readonly suppressed?: SuppressedDiagnostic[];
      readonly inBase?: BaseProblems;
      readonly policy?: BaseProblems;
    }
  | { readonly file: string; readonly unreadable: string; readonly code: UnreadableCode };

/** Problems that belong to another file than the one checked: an overlay's on its base's lines, a broken policy's. */
export interface BaseProblems {
  /** Absolute path of the file they lie in. */
  readonly path: string;
  readonly diagnostics: SpecDiagnostic[];
  readonly suppressed?: SuppressedDiagnostic[];
}

/** What the checks run against, in a form a worker thread can be sent. */
export interface CheckCatalog {
  readonly data?: CatalogData;
  /** Create-body properties the served schema knows and the bundled one does not. */
  readonly liveProperties?: readonly string[];
}

/**
 * Below this many files per thread, starting a thread costs more than it saves: a thread loads and compiles
 * the whole bundle (no code cache there, about 0.2 s), while a typical spec checks in about 0.1 ms.
 */
const MIN_FILES_PER_THREAD = 2000;
const MAX_THREADS = 8;

interface WorkerTask {
  readonly kind: 'endpoint-studio/validate';
  readonly files: string[];
  readonly catalog: CheckCatalog;
}

/** The files' outcomes in the order given. */
export async function checkFiles(files: string[], catalog: CheckCatalog): Promise<FileOutcome[]> {
  const threads = Math.min(availableParallelism(), MAX_THREADS, Math.floor(files.length / MIN_FILES_PER_THREAD));
  // Workers start this bundle again; run unbundled (under a TypeScript loader) everything stays on this thread.
  if (threads <= 1 || !__filename.endsWith('.js')) return checkHere(files, catalog);
  const size = Math.ceil(files.length / threads);
  const slices = Array.from({ length: threads }, (_, i) => files.slice(i * size, (i + 1) * size));
  const [own, ...others] = slices;
  // The threads start first: checking here blocks this thread until its own slice is done.
  const theirs = others.map((slice) => checkInWorker(slice, catalog));
  const mine = checkHere(own, catalog);
  return [mine, ...(await Promise.all(theirs))].flat();
}

function validationContext(catalog: CheckCatalog): ValidationContext {
  return {
    ...(catalog.data ? { catalog: new Catalog(catalog.data) } : {}),
    ...(catalog.liveProperties ? { liveProperties: new Set(catalog.liveProperties) } : {}),
  };
}

/**
 * The files checked by the workspace's owner of spec files, over the disk: an overlay merged into its base, as
 * `checkSpec` checks it when told where the file lives (`specFileOnDisk`: the base must lie under the current
 * directory or in the overlay's own repository, as a workspace folder bounds it in the editor). A base read
 * for several overlays is read and parsed once.
 */
function checkHere(files: string[], catalog: CheckCatalog): FileOutcome[] {
  const context = validationContext(catalog);
  const texts = new Map<string, string>();
  const view: FileView = { read: (path) => texts.get(path) ?? DISK_FILE_VIEW.read(path), list: DISK_FILE_VIEW.list };
  const workspace = new SpecWorkspace(view, { roots: (path) => specFileOnDisk(path, process.cwd()).roots, context: () => context });
  return files.map((file) => {
    const read = readSpecFileResult(file);
    if (!('text' in read)) return { file, unreadable: unreadableLine('validate', file, read.reason), code: read.code };
    const path = resolve(file);
    texts.set(path, read.text);
    const checked = workspace.check(path);
    const writtenInBase = <T extends { readonly setInOverlay: boolean }>(list: readonly T[] = []): Omit<T, 'setInOverlay'>[] =>
      list.filter((d) => !d.setInOverlay).map(({ setInOverlay: _, ...d }) => d);
    const inBase = writtenInBase(checked.overlay?.base);
    const suppressedInBase = writtenInBase(checked.overlay?.suppressedBase);
    const basePath = checked.overlay?.basePath;
    const policy = checked.policy && checked.policy.problems.length > 0 ? checked.policy : undefined;
    return {
      file,
      diagnostics: checked.diagnostics,
      ...(checked.suppressed.length > 0 ? { suppressed: [...checked.suppressed] } : {}),
      ...(basePath !== undefined && inBase.length + suppressedInBase.length > 0
        ? { inBase: { path: basePath, diagnostics: inBase, ...(suppressedInBase.length > 0 ? { suppressed: suppressedInBase } : {}) } }
        : {}),
      ...(policy ? { policy: { path: policy.path, diagnostics: [...policy.problems] } } : {}),
    };
  });
}

function checkInWorker(files: string[], catalog: CheckCatalog): Promise<FileOutcome[]> {
  return new Promise((resolve, reject) => {
    const task: WorkerTask = { kind: 'endpoint-studio/validate', files, catalog };
    const worker = new Worker(__filename, { workerData: task });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`a validation thread stopped (exit ${code})`));
    });
  });
}

/** True in a worker started by `checkFiles`: the bundle's entry runs the task instead of the command line. */
export function isValidateWorker(): boolean {
  return !isMainThread && (workerData as Partial<WorkerTask> | undefined)?.kind === 'endpoint-studio/validate';
}

export function runValidateWorker(): void {
  const task = workerData as WorkerTask;
  parentPort?.postMessage(checkHere(task.files, task.catalog));
}

/**
 * Checks many spec files for `validate`: reading runs ahead of parsing, and a large run is split across
 * worker threads (each runs this same bundle), so a CI job over a big repository uses every core.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Catalog, type CatalogData } from '../core/endpointSpec/catalog/catalog';
import { checkSpecText, type SpecDiagnostic } from '../core/endpointSpec/check';
import type { ValidationContext } from '../core/endpointSpec/validate';
import { specFormatOf } from '../core/protocol';
import { readSpecFileResult, unreadableLine, type SpecFileRead, type UnreadableCode } from './inputs';

/** A file's problems, or why it could not be read (said on stderr, in file order, by the caller). */
export type FileOutcome =
  | { readonly file: string; readonly diagnostics: SpecDiagnostic[] }
  | { readonly file: string; readonly unreadable: string; readonly code: UnreadableCode };

/** What the checks run against, in a form a worker thread can be sent. */
export interface CheckCatalog {
  readonly data?: CatalogData;
  /** Create-body properties the served schema knows and the bundled one does not. */
  readonly liveProperties?: readonly string[];
}

/** Files read ahead of the one being checked. */
const READ_AHEAD = 32;
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
  const results = await Promise.all([checkHere(own, catalog), ...others.map((slice) => checkInWorker(slice, catalog))]);
  return results.flat();
}

function validationContext(catalog: CheckCatalog): ValidationContext {
  return {
    ...(catalog.data ? { catalog: new Catalog(catalog.data) } : {}),
    ...(catalog.liveProperties ? { liveProperties: new Set(catalog.liveProperties) } : {}),
  };
}

async function checkHere(files: string[], catalog: CheckCatalog): Promise<FileOutcome[]> {
  const context = validationContext(catalog);
  const outcomes: FileOutcome[] = [];
  const reads: (Promise<SpecFileRead> | undefined)[] = [];
  for (const [index, file] of files.entries()) {
    for (let ahead = index; ahead < Math.min(files.length, index + READ_AHEAD); ahead++) reads[ahead] ??= readSpecFileResult(files[ahead]);
    const read = await (reads[index] ?? readSpecFileResult(file));
    reads[index] = undefined;
    if ('text' in read) outcomes.push({ file, diagnostics: checkSpecText(read.text, specFormatOf(file), 'create', context).diagnostics });
    else outcomes.push({ file, unreadable: unreadableLine('validate', file, read.reason), code: read.code });
  }
  return outcomes;
}

function checkInWorker(files: string[], catalog: CheckCatalog): Promise<FileOutcome[]> {
  return new Promise((resolve, reject) => {
    const task: WorkerTask = { kind: 'endpoint-studio/validate', files, catalog };
    const worker = new Worker(__filename, { workerData: task });
    worker.once('message', (outcomes: FileOutcome[]) => {
      resolve(outcomes);
    });
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

export async function runValidateWorker(): Promise<void> {
  const task = workerData as WorkerTask;
  const port = parentPort;
  if (!port) throw new Error('the validation task runs only in a worker thread');
  port.postMessage(await checkHere(task.files, task.catalog));
}

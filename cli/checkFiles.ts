/**
 * Checks many spec files for `validate`: reading runs ahead of parsing, and a large run is split across
 * worker threads (each runs this same bundle), so a CI job over a big repository uses every core.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Catalog } from '../core/endpointSpec/catalog/catalog';
import { checkSpecText, type SpecDiagnostic } from '../core/endpointSpec/check';
import { specFormatOf } from '../core/protocol';
import { loadCatalogOption, readSpecFile } from './inputs';

/** A file's problems, or why it could not be read (said on stderr, in file order, by the caller). */
export type FileOutcome =
  { readonly file: string; readonly diagnostics: SpecDiagnostic[] } | { readonly file: string; readonly unreadable: string };

/** Files read ahead of the one being checked. */
const READ_AHEAD = 32;
/** Below this many files per thread, starting a thread costs more than it saves. */
const MIN_FILES_PER_THREAD = 150;
const MAX_THREADS = 8;

interface WorkerTask {
  readonly kind: 'endpoint-studio/validate';
  readonly files: string[];
  readonly catalogPath?: string;
}

/** The files' outcomes in the order given. */
export async function checkFiles(files: string[], catalog: Catalog | undefined, catalogPath: string | undefined): Promise<FileOutcome[]> {
  const threads = Math.min(availableParallelism(), MAX_THREADS, Math.floor(files.length / MIN_FILES_PER_THREAD));
  // Workers start this bundle again; run unbundled (under a TypeScript loader) everything stays on this thread.
  if (threads <= 1 || !__filename.endsWith('.js')) return checkHere(files, catalog);
  const size = Math.ceil(files.length / threads);
  const slices = Array.from({ length: threads }, (_, i) => files.slice(i * size, (i + 1) * size));
  const [own, ...others] = slices;
  const results = await Promise.all([checkHere(own, catalog), ...others.map((slice) => checkInWorker(slice, catalogPath))]);
  return results.flat();
}

async function checkHere(files: string[], catalog: Catalog | undefined): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = [];
  const reads: (Promise<{ text?: string; error?: string }> | undefined)[] = [];
  const read = async (file: string): Promise<{ text?: string; error?: string }> => {
    let error: string | undefined;
    const text = await readSpecFile(file, 'validate', { out: () => undefined, err: (line) => (error = line) });
    return { text, error };
  };
  for (const [index, file] of files.entries()) {
    for (let ahead = index; ahead < Math.min(files.length, index + READ_AHEAD); ahead++) reads[ahead] ??= read(files[ahead]);
    const { text, error } = await (reads[index] ?? read(file));
    reads[index] = undefined;
    if (text === undefined) outcomes.push({ file, unreadable: error ?? `endpoint-studio validate: cannot read ${file}` });
    else outcomes.push({ file, diagnostics: checkSpecText(text, specFormatOf(file), 'create', { catalog }).diagnostics });
  }
  return outcomes;
}

function checkInWorker(files: string[], catalogPath: string | undefined): Promise<FileOutcome[]> {
  return new Promise((resolve, reject) => {
    const task: WorkerTask = { kind: 'endpoint-studio/validate', files, ...(catalogPath ? { catalogPath } : {}) };
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
  const catalog = loadCatalogOption(task.catalogPath, 'validate', { out: () => undefined, err: () => undefined });
  const port = parentPort;
  if (!port) throw new Error('the validation task runs only in a worker thread');
  port.postMessage(await checkHere(task.files, catalog || undefined));
}

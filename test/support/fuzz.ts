/**
 * Every property test runs with a fixed seed, so a failure seen once is seen on every run and every
 * machine: the seed is FC_SEED when set, else a constant. It is printed once per test file, and a failing
 * property says how to replay exactly that run.
 */
import { relative, resolve } from 'node:path';
import fc from 'fast-check';

const REPO_ROOT = resolve(__dirname, '..', '..');

const DEFAULT_SEED = 20_260_517;

export type FuzzParameters<Ts> = Omit<fc.Parameters<Ts>, 'seed' | 'path'>;

/** The seed of this process: FC_SEED when set (any 32-bit integer), else the constant above. */
export const FUZZ_SEED = seedFrom(process.env.FC_SEED);

function seedFrom(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_SEED;
  const seed = Number(text);
  if (!Number.isInteger(seed) || seed < -(2 ** 31) || seed >= 2 ** 32) throw new Error(`FC_SEED must be a 32-bit integer, not "${text}"`);
  return seed;
}

/** node:test runs each test file in a process of its own, with the file as the script. */
function testFile(): string {
  const script = process.argv[1] as string | undefined;
  return script ? relative(REPO_ROOT, script) : '<test file>';
}

export function replayCommand(): string {
  return `FC_SEED=${FUZZ_SEED} node scripts/run-tests.mjs ${testFile()}`;
}

let announced = false;
function announceSeed(): void {
  if (announced) return;
  announced = true;
  console.log(`fast-check seed ${FUZZ_SEED} for ${testFile()} (replay: ${replayCommand()})`);
}

function withReplay(error: unknown): Error {
  const failure = error instanceof Error ? error : new Error(String(error));
  failure.message = `${failure.message}\nReplay this run with: ${replayCommand()}`;
  return failure;
}

/** fc.assert with this process's seed; a failure names the command that replays it. */
export function fuzz<Ts>(property: fc.IProperty<Ts>, parameters?: FuzzParameters<Ts>): void;
export function fuzz<Ts>(property: fc.IAsyncProperty<Ts>, parameters?: FuzzParameters<Ts>): Promise<void>;
export function fuzz<Ts>(property: fc.IRawProperty<Ts>, parameters: FuzzParameters<Ts> = {}): Promise<void> | void {
  announceSeed();
  let outcome: Promise<void> | void;
  try {
    outcome = fc.assert(property, { ...parameters, seed: FUZZ_SEED });
  } catch (error) {
    throw withReplay(error);
  }
  return outcome instanceof Promise
    ? outcome.catch((error: unknown) => {
        throw withReplay(error);
      })
    : outcome;
}

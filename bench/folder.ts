/**
 * A spec among hundreds: a folder of 300 bases with a staging and a prod overlay each (900 spec files) and the
 * workspace's environments file, as a team's repository holds them. One base of it is typed into beside the same
 * base alone in a folder of its own, so the figure is what the other 899 files cost while a person types, and
 * `endpoint-studio validate` checks the whole folder, overlays merged, beside the 1,000 plain specs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EditCase } from './fixtures';
import { typicalSpec } from './fixtures';
import { startOurServer, validateOnce } from './measure';
import { startFloorServer, typeTogether, type KeystrokeFigures, type TypingPlan } from './typing';

export const FOLDER_BASES = 300;
/** The base typed into: one in the middle of the listing. */
const TYPED_BASE = 150;

const baseName = (i: number): string => `svc-${String(i).padStart(3, '0')}`;

/** A staging overlay: a release candidate, one worker, debug logs. */
function stagingOverlay(base: string): string {
  return `extends: ./${base}.endpoint.yaml
name: ${base}-staging
image: myorg/${base}:1.5.0-rc.1
workers:
  max: 1
env:
  LOG_LEVEL: "debug"
`;
}

/** A prod overlay: one GPU pool, more headroom, quicker scale-up. */
function prodOverlay(base: string): string {
  return `extends: ./${base}.endpoint.yaml
name: ${base}-prod
gpu:
  pools: [ADA_24]
workers:
  max: 8
scaling:
  queueDelay: 2
`;
}

const ENVIRONMENTS = `environments:
  staging:
    profile: default
  prod:
    profile: default
    protected: true
`;

/**
 * Writes the folder of `bases` bases and their overlays into `dir`, with `typedText` as the base typed into; returns
 * that base's path.
 */
export function writeSpecFolder(dir: string, bases = FOLDER_BASES, typedText = typicalSpec()): string {
  mkdirSync(join(dir, '.endpoint-studio'), { recursive: true });
  writeFileSync(join(dir, '.endpoint-studio', 'environments.yaml'), ENVIRONMENTS);
  for (let i = 0; i < bases; i++) {
    const base = baseName(i);
    writeFileSync(join(dir, `${base}.endpoint.yaml`), i === TYPED_BASE ? typedText : typicalSpec(base));
    writeFileSync(join(dir, `${base}.staging.endpoint.yaml`), stagingOverlay(base));
    writeFileSync(join(dir, `${base}.prod.endpoint.yaml`), prodOverlay(base));
  }
  return join(dir, `${baseName(TYPED_BASE)}.endpoint.yaml`);
}

/**
 * `c` typed by the floor and by ours into the same base twice: alone in a folder, and in the folder of 900 spec
 * files; each server its own process, taking turns window by window.
 */
export async function typeInFolder(
  c: EditCase,
  cacheDir: string,
  plan: TypingPlan,
): Promise<Record<'floor' | 'alone' | 'folder', KeystrokeFigures>> {
  const root = mkdtempSync(join(tmpdir(), 'es-bench-folder-'));
  try {
    mkdirSync(join(root, 'alone'));
    const alone = join(root, 'alone', `${baseName(TYPED_BASE)}.endpoint.yaml`);
    writeFileSync(alone, c.text);
    const inFolder = writeSpecFolder(join(root, 'folder'), FOLDER_BASES, c.text);
    const ours = (): ReturnType<typeof startOurServer> => startOurServer(cacheDir, {}, true);
    const figures = await typeTogether(
      [
        { name: 'floor', start: startFloorServer, uri: pathToFileURL(alone).href, verify: false },
        { name: 'alone', start: ours, uri: pathToFileURL(alone).href, verify: true },
        { name: 'folder', start: ours, uri: pathToFileURL(inFolder).href, verify: true },
      ],
      c,
      plan,
    );
    return { floor: figures.floor, alone: figures.alone, folder: figures.folder };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** `endpoint-studio validate` of the folder of 900 spec files, every overlay checked on its merged body. */
export function validateFolderThroughput(): { files: number; seconds: number; filesPerSecond: number } {
  const root = mkdtempSync(join(tmpdir(), 'es-bench-cli-folder-'));
  try {
    const specs = join(root, 'specs');
    writeSpecFolder(specs);
    const run = validateOnce(specs, join(root, 'cache'));
    if (run.status !== 0) throw new Error(`validate exited ${String(run.status)}: ${(run.stderr || run.stdout).slice(0, 500)}`);
    const files = 3 * FOLDER_BASES;
    return { files, seconds: run.seconds, filesPerSecond: files / run.seconds };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

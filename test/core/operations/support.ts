/** Throwaway workspaces for the operations' tests: a folder with `.git` (so it is a root) and one spec file. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BindingStore } from '../../../core/deploy';

export interface Workspace {
  readonly root: string;
  readonly file: string;
  cleanup(): void;
  bindings(): BindingStore;
}

export function workspace(text: string, name = 'worker.endpoint.yaml'): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'es-operations-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'specs'));
  const file = join(root, 'specs', name);
  writeFileSync(file, text);
  return {
    root,
    file,
    cleanup: () => {
      rmSync(root, { recursive: true, force: true });
    },
    bindings: () =>
      (JSON.parse(readFileSync(join(root, '.endpoint-studio', 'deployments.json'), 'utf8')) as { deployments: BindingStore }).deployments,
  };
}

/**
 * What the policy tests share: an in-memory workspace folder with a team policy, seen by the real owner of spec
 * files through a file view, and ways to find where a diagnostic lies in its text.
 */
import assert from 'node:assert/strict';
import { basename, dirname, join } from 'node:path';
import type { SpecDiagnostic } from '../../../core/endpointSpec/check';
import type { ValidationContext } from '../../../core/endpointSpec/validate';
import { SpecWorkspace, type FileView } from '../../../core/workspace/specWorkspace';

export const ROOT = '/team';
export const at = (name: string): string => join(ROOT, name);
export const POLICY_PATH = at('.endpoint-studio/policy.yaml');

export const BASE = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0.0
gpu:
  pools: [ADA_24]
dataCenterIds: [US-TX-3]
env:
  LOG_LEVEL: info
workers:
  min: 0
  max: 2
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;
export const PROD = 'extends: ./sdxl.endpoint.yaml\nname: sdxl-prod\n';

/** An in-memory workspace folder; `files` may be changed, then the owner told. */
export function memoryWorkspace(files: Record<string, string>, context: ValidationContext = {}) {
  const view: FileView & { files: Record<string, string> } = {
    files,
    read: (path) => view.files[path],
    list: (folder) =>
      Object.keys(view.files)
        .filter((path) => dirname(path) === folder)
        .map((path) => basename(path)),
  };
  return { view, workspace: new SpecWorkspace(view, { roots: () => [ROOT], context: () => context }) };
}

export const lineOf = (text: string, needle: string): number => {
  const index = text.indexOf(needle);
  assert.ok(index >= 0, `${needle} is in the text`);
  return text.slice(0, index).split('\n').length - 1;
};

/** What a diagnostic covers in its text. */
export const spanText = (text: string, d: SpecDiagnostic): string => text.slice(d.offset, d.offset + d.length);

export const ofCode = (diagnostics: readonly SpecDiagnostic[], code: string): SpecDiagnostic[] =>
  diagnostics.filter((d) => d.code === code);

/**
 * What the team policy's editor tests share: a workspace folder with a policy and a catalog whose pools
 * ADA_48_PRO and AMPERE_48 both have 48 GB, a spec that breaks two of its limits, and how to read code actions.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { STOCK_CATALOG_DATA } from '../support/stockCatalog';

/** workers.max above the policy's 4, and a pool it does not allow (48 GB, as the allowed AMPERE_48). */
export const SPEC = `name: sdxl
type: QUEUE
image: myorg/sdxl:1.0.0
gpu:
  pools: [ADA_48_PRO]
workers:
  min: 0
  max: 8
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

export const POLICY = `rules:
  - name: team-limits
    maxWorkers: 4
    allowedPools: [AMPERE_48, ADA_24]
`;

/** SPEC within the policy: 3 workers, an allowed pool. */
export const WITHIN = SPEC.replace('  max: 8', '  max: 3').replace('[ADA_48_PRO]', '[ADA_24]');

export const policyFindings = (diagnostics: readonly Diagnostic[]): Diagnostic[] =>
  diagnostics.filter((d) => String(d.code).startsWith('policy-'));

export function applied(text: string, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'yaml', 1, text), [...edits]);
}

/** The edits of an action as plain text edits, whichever form the workspace edit took, and its snippets. */
export function editsOf(action: CodeAction): { edits: TextEdit[]; snippets: string[] } {
  const plain = Object.values(action.edit?.changes ?? {}).flat();
  const changes = (action.edit?.documentChanges ?? []).flatMap((change) => ('edits' in change ? change.edits : []));
  const snippets = changes.flatMap((e) => ('snippet' in e ? [e.snippet.value] : []));
  const texts = changes.flatMap((e) => ('snippet' in e ? [] : [e]));
  return { edits: [...plain, ...texts], snippets };
}

export interface PolicyWorkspace {
  readonly folder: string;
  readonly catalogFile: string;
  path(name: string): string;
  uri(name: string): string;
}

/** A temp folder with `.endpoint-studio/policy.yaml` holding POLICY and a catalog snapshot beside it. */
export function policyWorkspace(): PolicyWorkspace {
  const folder = mkdtempSync(join(tmpdir(), 'es-policy-editor-'));
  mkdirSync(join(folder, '.endpoint-studio'));
  writeFileSync(join(folder, '.endpoint-studio', 'policy.yaml'), POLICY);
  const catalogFile = join(folder, 'catalog.json');
  writeFileSync(catalogFile, JSON.stringify(STOCK_CATALOG_DATA));
  const path = (name: string): string => join(folder, name);
  return { folder, catalogFile, path, uri: (name) => pathToFileURL(path(name)).href };
}

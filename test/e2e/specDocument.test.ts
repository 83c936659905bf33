/**
 * A spec as a document in a real VS Code (code-server in headless Chromium): the Outline shows the tree of a
 * two-document spec with its details, the breadcrumbs show the path to the cursor, a mapping and a comment
 * block fold, and Format Document writes the canonical style and keeps the comments. All of it comes from
 * the language server; each test writes a file of its own.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useEditorSession } from './support/session';
import { waitUntil, type PageNode, type Workbench } from './support/workbench';

// Inlay hints and CodeLenses (other features of the same server) would show up in the editor's text.
const { editorTest } = useEditorSession('spec-document', {
  userSettings: { 'editor.inlayHints.enabled': 'off', 'editor.codeLens': false },
});

const TWO_DOCUMENTS = `# Two endpoints in one file:
# a GPU queue worker and a CPU one.
name: sdxl-worker
type: QUEUE
image: myorg/sdxl-worker:1.4.2
gpu:
  pools: [ADA_24, AMPERE_24]
workers:
  min: 0
  max: 3
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
---
name: cpu-worker
type: QUEUE
image: myorg/cpu-worker:1.0.0
cpu:
  - id: cpu3c
    vcpuCount: 4
scaling:
  type: QUEUE_DELAY
  queueDelay: 4
`;

/** The Outline view's rows as `label description`, once `until` accepts them. */
async function outlineRows(workbench: Workbench, until: (rows: string[]) => boolean): Promise<string[]> {
  const pane = workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header h3.title', { hasText: /^Outline$/ }) });
  await workbench.runCommand('Explorer: Focus on Outline View');
  await pane.locator('.monaco-list-row').first().waitFor();
  // The Outline lists only the rows in view: the file tree above it is folded away to give it the height.
  const folders = workbench.page.locator('.pane:has(.explorer-folders-view) > .pane-header[aria-expanded="true"]');
  if ((await folders.count()) > 0) await folders.first().click();
  let rows: string[] = [];
  await waitUntil(
    async () => {
      // No named helpers inside: the callback runs in the page, where tsx's __name shim does not exist.
      rows = await pane.locator('.monaco-list-row').evaluateAll((elements) =>
        (elements as unknown as PageNode[]).map((row) =>
          [row.querySelector('.label-name'), row.querySelector('.label-description')]
            .map((part) => part?.textContent?.trim() ?? '')
            .join(' ')
            .trim(),
        ),
      );
      return until(rows);
    },
    'the Outline to show the spec',
    () => rows.join(' | '),
  );
  return rows;
}

editorTest('the Outline shows the tree of a two-document spec', async (workbench, session) => {
  await workbench.openNewFile(session.workspace, 'outline-two.endpoint.yaml', TWO_DOCUMENTS);
  const rows = await outlineRows(workbench, (r) => r.includes('cpu-worker QUEUE · myorg/cpu-worker:1.0.0'));
  for (const expected of [
    'sdxl-worker QUEUE · myorg/sdxl-worker:1.4.2',
    'gpu ADA_24, AMPERE_24',
    'pools ADA_24, AMPERE_24',
    'workers 0–3',
    'max 3',
    'scaling QUEUE_DELAY 4',
    'cpu-worker QUEUE · myorg/cpu-worker:1.0.0',
    'cpu cpu3c ×4',
  ]) {
    assert.ok(rows.includes(expected), `"${expected}" missing from the Outline: ${rows.join(' | ')}`);
  }
  // The two documents are the roots, in file order, each before its own keys.
  assert.ok(rows.indexOf('sdxl-worker QUEUE · myorg/sdxl-worker:1.4.2') < rows.indexOf('workers 0–3'), rows.join(' | '));
  assert.ok(rows.indexOf('workers 0–3') < rows.indexOf('cpu-worker QUEUE · myorg/cpu-worker:1.0.0'), rows.join(' | '));
  await workbench.screenshot('spec-document--outline');
});

/** Waits until the breadcrumbs end with `expected` (the file and its symbols, as shown). */
async function breadcrumbsEndWith(workbench: Workbench, expected: readonly string[]): Promise<void> {
  const crumbs = workbench.page.locator('.editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item');
  let path: string[] = [];
  await waitUntil(
    async () => {
      path = (await crumbs.allInnerTexts()).map((text) => text.trim());
      return path.slice(-expected.length).join(' > ') === expected.join(' > ');
    },
    `the breadcrumbs to end with ${expected.join(' > ')}`,
    () => path.join(' > '),
  );
}

editorTest('the breadcrumbs show the path to the cursor', async (workbench, session) => {
  await workbench.openNewFile(session.workspace, 'breadcrumbs.endpoint.yaml', TWO_DOCUMENTS);
  await workbench.goTo(10, 8); // `max: 3` in the first document's workers
  await breadcrumbsEndWith(workbench, ['breadcrumbs.endpoint.yaml', 'sdxl-worker', 'workers', 'max']);
  await workbench.goTo(19, 8); // `id: cpu3c` in the second document
  await breadcrumbsEndWith(workbench, ['cpu-worker', 'cpu', 'cpu3c', 'id']);
});

editorTest('a mapping and a comment block fold', async (workbench, session) => {
  await workbench.openNewFile(session.workspace, 'folding.endpoint.yaml', TWO_DOCUMENTS);
  await workbench.goTo(8, 1); // `workers:`
  await workbench.page.keyboard.press('Control+Shift+BracketLeft'); // Fold
  let text = '';
  await waitUntil(
    async () => !(text = await workbench.editorText()).includes('max: 3'),
    'the workers mapping to fold',
    () => text,
  );
  assert.match(text, /workers:/);
  assert.match(text, /scaling:/, 'only the mapping folds');
  // A comment block has no indentation to fold by: only the server's range folds it.
  await workbench.runCommand('Fold All Block Comments');
  await waitUntil(
    async () => !(text = await workbench.editorText()).includes('a GPU queue worker'),
    'the header comment block to fold',
    () => text,
  );
  assert.match(await workbench.editorText(), /# Two endpoints in one file:/);
});

editorTest('Format Document writes the canonical style and keeps the comments', async (workbench, session) => {
  const messy = `# The worker behind the image service.
name:   "image-worker"    # shown in the console
type: 'QUEUE'
image: "myorg/image-worker:2.0.0"
gpu:
    # the cheapest pools first
    pools: [ ADA_24,  AMPERE_24 ]


workers:
    min: 0
    max: 2
env:
    PORT: "8080"
    MODE: 'fast'
`;
  await workbench.openNewFile(session.workspace, 'format.endpoint.yaml', messy);
  await workbench.runCommand('Format Document');
  await workbench.waitForEditorText(/MODE: fast/);
  await workbench.page.keyboard.press('Control+S');
  const file = join(session.workspace, 'format.endpoint.yaml');
  const canonical = [
    '# The worker behind the image service.',
    'name: image-worker # shown in the console',
    'type: QUEUE',
    'image: myorg/image-worker:2.0.0',
    'gpu:',
    '  # the cheapest pools first',
    '  pools: [ADA_24, AMPERE_24]',
    '',
    '',
    'workers:',
    '  min: 0',
    '  max: 2',
    'env:',
    '  PORT: "8080"',
    '  MODE: fast',
    '',
  ].join('\n');
  let saved = '';
  await waitUntil(
    () => (saved = readFileSync(file, 'utf8')) === canonical,
    'the formatted spec to be saved',
    () => saved,
  );
});

editorTest('the Outline of a JSON spec lists each key once', async (workbench, session) => {
  const spec = { name: 'json-worker', type: 'QUEUE', image: 'myorg/json-worker:1', workers: { min: 1, max: 4 } };
  await workbench.openNewFile(session.workspace, 'outline-json.endpoint.json', `${JSON.stringify(spec, null, 2)}\n`);
  const rows = await outlineRows(workbench, (r) => r.some((row) => row.startsWith('max')));
  await workbench.screenshot('spec-document--outline-json');
  // The server's tree, or VS Code's own JSON outline once its JSON features run for the spec; never both.
  assert.ok(!rows.some((row) => /^(Endpoint Studio|JSON Language Features)$/.test(row)), `no groups: ${rows.join(' | ')}`);
  assert.deepEqual(
    rows.filter((row) => /^(name|max) /.test(row)),
    ['name json-worker', 'max 4'],
    rows.join(' | '),
  );
});

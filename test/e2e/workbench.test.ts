/**
 * The extension in a real VS Code workbench (code-server in headless Chromium), driven as a user drives it.
 * Each test leaves a screenshot of its screen in .test-output/screenshots/ (FAILED-... when it fails).
 * Tests share one session but no state: a test that edits a spec edits a copy of its own, so the
 * examples read by the others stay as they are whatever ran before.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES_DIR } from '../../scripts/editor/paths';
import { useEditorSession, type EditorSession } from './support/session';
import { formatProblems, waitUntil, type Workbench } from './support/workbench';

const { editorTest } = useEditorSession('workbench');

/** Opens a fresh copy of an example under a name of the test's own. */
async function openCopyOf(workbench: Workbench, session: EditorSession, example: string, copy: string): Promise<void> {
  await workbench.openNewFile(session.workspace, copy, readFileSync(join(EXAMPLES_DIR, example), 'utf8'));
}

editorTest('problems of an invalid YAML spec', async (workbench) => {
  await workbench.openFile('broken-worker.endpoint.yaml');
  const problems = await workbench.problems(
    'broken-worker.endpoint.yaml',
    (rows) => rows.length >= 4,
    'the four problems of broken-worker',
  );
  const summary = formatProblems(problems);
  assert.deepEqual(
    problems.map((p) => `${p.position} ${p.severity} ${p.code}`).sort(),
    [
      '[Ln 10, Col 3] error unknown-property',
      '[Ln 14, Col 12] error invalid-enum',
      '[Ln 16, Col 10] error env-value-not-string',
      '[Ln 8, Col 8] warning workers-min-above-max',
    ],
    summary,
  );
  assert.ok(
    problems.every((p) => p.source === 'endpoint-studio'),
    summary,
  );
  assert.match(summary, /unknown property in workers: idelTimeout; did you mean idleTimeout\?/);
});

editorTest('problems of an invalid JSON spec', async (workbench) => {
  await workbench.openFile('broken-http.endpoint.json');
  const problems = await workbench.problems(
    'broken-http.endpoint.json',
    (rows) => rows.some((p) => p.code === 'port-format'),
    'the JSON spec problems',
  );
  const codes = new Set(problems.map((p) => p.code));
  for (const code of ['compute-choice', 'vcpu-not-power-of-two', 'scaler-not-allowed', 'port-format']) {
    assert.ok(codes.has(code), `${code} missing from\n${formatProblems(problems)}`);
  }
});

editorTest('completion of keys on an empty line and of enum values after "type: "', async (workbench, session) => {
  await openCopyOf(workbench, session, 'sdxl-worker.endpoint.yaml', 'completion-worker.endpoint.yaml');
  // A fresh empty top-level line between `name:` and `type:`.
  await workbench.goTo(3, 1);
  await workbench.page.keyboard.press('Enter');
  await workbench.page.keyboard.press('ArrowUp');
  const keys = await workbench.suggestions(['ports', 'dataCenterIds']);
  assert.ok(!keys.includes('name'), `keys already in the spec are not offered again: ${keys.join(', ')}`);
  await workbench.screenshot('workbench--completion-keys');
  await workbench.page.keyboard.press('Escape');
  await workbench.goTo(4, 7); // after `type: ` (moved down one line)
  await workbench.page.keyboard.press('Shift+End');
  await workbench.page.keyboard.press('Delete');
  const values = await workbench.suggestions(['QUEUE', 'LOAD_BALANCER']);
  assert.ok(values.length <= 4, `only the type's values are offered: ${values.join(', ')}`);
});

editorTest('hover documents a field and its values', async (workbench) => {
  await workbench.openFile('broken-worker.endpoint.yaml');
  await workbench.goTo(14, 3);
  const text = await workbench.hoverText('PRIORITY_FLASHBOOT');
  assert.match(text, /^flashboot/);
  assert.match(text, /FlashBoot cold-start acceleration/);
});

editorTest('commands in the palette', async (workbench) => {
  await workbench.openCommandPalette('Endpoint Studio');
  const rows = await workbench.quickInputRows();
  for (const title of ['Endpoint Studio: New Endpoint Spec', 'Endpoint Studio: Restart Language Server']) {
    assert.ok(
      rows.some((r) => r.startsWith(title)),
      `${title} missing from ${rows.join(' | ')}`,
    );
  }
  await workbench.screenshot('workbench--commands');
  await workbench.page.keyboard.press('Escape');
});

editorTest('the Endpoint Studio output channel', async (workbench) => {
  await workbench.runCommand('Output: Show Output Channels...');
  await workbench.pickQuickInputRow('Endpoint Studio');
  // The Output view names the channel it shows in its channel picker.
  await waitUntil(
    () =>
      workbench.page
        .locator('.part.panel select')
        .evaluateAll((selects) =>
          selects.some(
            (s) => (s as unknown as { selectedOptions: Array<{ text: string }> }).selectedOptions[0]?.text === 'Endpoint Studio',
          ),
        ),
    'the Output view to show the Endpoint Studio channel',
  );
  // The channel's first line is the extension's own, written when it activated (wrapped to the view's width).
  const output = workbench.page.locator('.part.panel .monaco-editor .view-lines').first();
  const activation = /\[info\] Endpoint Studio \d+\.\d+\.\d+ activating; language server: .*server\.js; workspace trusted/;
  let text = '';
  await waitUntil(
    async () => activation.test((text = (await output.innerText()).replace(/\u00a0/g, ' ').replace(/\n/g, ''))),
    'the activation line in the Output view',
    () => text,
  );
  assert.match(text, activation);
});

editorTest('New Endpoint Spec creates a spec with zero problems', async (workbench) => {
  await workbench.runCommand('Endpoint Studio: New Endpoint Spec');
  await workbench.pickQuickInputRow('Queue endpoint on GPU');
  await workbench.answerInput('e2e-worker');
  await workbench.waitForActiveEditor('e2e-worker.endpoint.yaml');
  await workbench.waitForEditorText(/^name: e2e-worker$/m);
  // No problems could also mean "not checked yet": break the spec, see it reported, undo, see it cleared.
  // One character, so that a single undo restores the starter (`xname` is an unknown key).
  await workbench.goTo(1, 1);
  await workbench.page.keyboard.type('x');
  await workbench.page.keyboard.press('Escape');
  await workbench.problems(
    'e2e-worker.endpoint.yaml',
    (rows) => rows.some((p) => p.message.includes('xname')),
    'the deliberate mistake in the new spec',
  );
  await workbench.focusEditor();
  await workbench.page.keyboard.press('Control+Z');
  const after = await workbench.problems('e2e-worker.endpoint.yaml', (rows) => rows.length === 0, 'the new spec to be clean again');
  assert.equal(await workbench.problemCountFor('e2e-worker.endpoint.yaml'), 0, formatProblems(after));
});

editorTest('quick fix renames a misspelt key', async (workbench, session) => {
  await openCopyOf(workbench, session, 'broken-worker.endpoint.yaml', 'quickfix-worker.endpoint.yaml');
  await workbench.problems('quickfix-worker.endpoint.yaml', (rows) => rows.some((p) => p.code === 'unknown-property'), 'the misspelt key');
  await workbench.goTo(10, 4);
  const offered = await workbench.applyQuickFix('Rename to idleTimeout');
  assert.ok(offered.length >= 1);
  await workbench.waitForEditorText(/^ {2}idleTimeout: 10$/m);
  const problems = await workbench.problems(
    'quickfix-worker.endpoint.yaml',
    (rows) => rows.length > 0 && !rows.some((p) => p.code === 'unknown-property'),
    'the unknown property to be gone',
  );
  assert.ok(
    problems.some((p) => p.code === 'invalid-enum'),
    'the other problems remain',
  );
});

/**
 * The extension starts only where it is needed. In a workspace without specs, opening a plain YAML file
 * leaves it asleep (no output channel, no status bar item); opening a spec starts it through the spec
 * language it contributes, and the language server then checks that spec. The editor's own extension
 * host log names the event that activated the extension, so the test reads what happened, not a timing.
 * It is the extension's first activation for this user, with walkthroughs opening on install (VS Code's
 * default): the walkthrough opens, beside the spec, which stays in view with its problems.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { CodeServer } from '../../scripts/editor/codeServer';
import { packagedExtensionPath } from '../../scripts/editor/paths';
import { extensionLog } from './support/editorProcesses';
import { PROFILE_STATUS_ITEM, START_TIMEOUT_MS, WALKTHROUGH_TAB, waitUntil, Workbench } from './support/workbench';

const EXTENSION_ID = 'endpoint-studio.endpoint-studio';

let workspace: string;
let server: CodeServer | undefined;
let workbench: Workbench | undefined;

before(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'endpoint-studio-no-specs-'));
  writeFileSync(join(workspace, 'other.yaml'), 'services:\n  web:\n    image: nginx\n');
  writeFileSync(join(workspace, 'other.json'), '{ "name": "not a spec" }\n');
  server = await CodeServer.start({
    workspace,
    extensions: [packagedExtensionPath()],
    userSettings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true },
  });
  workbench = await Workbench.launch();
  await workbench.page.goto(`${server.url}?folder=${encodeURIComponent(workspace)}`, { timeout: START_TIMEOUT_MS });
  await workbench.page.locator('.explorer-folders-view .monaco-list-row[aria-label="other.yaml"]').waitFor({ timeout: START_TIMEOUT_MS });
});

after(async () => {
  await workbench?.close();
  await server?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

/** Every line of the extension host's own log (code-server's remote extension host). */
function extensionHostLog(editor: CodeServer): string {
  const files = (folder: string): string[] =>
    readdirSync(folder).flatMap((entry) => {
      const path = join(folder, entry);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
  return files(join(editor.tempDir, 'user-data', 'logs'))
    .filter((file) => /exthost\.log$/.test(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('');
}

async function languageMode(page: Workbench['page'], expected: string): Promise<void> {
  await page.locator('.statusbar-item[id="status.editor.mode"]', { hasText: expected }).waitFor();
}

test('a plain YAML or JSON file does not start the extension; a spec does, and is checked', async () => {
  if (!server || !workbench) throw new Error('the editor did not start');
  const editor = server;
  const page = workbench.page;
  try {
    await workbench.openFile('other.yaml');
    await languageMode(page, 'YAML');
    await workbench.openFile('other.json');
    await languageMode(page, 'JSON');
    assert.equal(extensionLog(editor), '', 'the extension wrote to its output channel, so it activated');
    assert.equal(await page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`).count(), 0, 'its status bar item is there');

    await workbench.openNewFile(workspace, 'x.endpoint.yaml', 'name: x\ntype: QUEUE\nimage: myorg/x:1\nbogusKey: 1\n');
    await languageMode(page, 'Endpoint Spec (YAML)');
    await page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`).waitFor();
    // An extension activates once: had either plain file started it, that is the event logged here.
    let activation = '';
    await waitUntil(
      () => (activation = /_doActivateExtension endpoint-studio\.endpoint-studio, .*/.exec(extensionHostLog(editor))?.[0] ?? '') !== '',
      `the extension host to log ${EXTENSION_ID}'s activation`,
    );
    assert.match(activation, /activationEvent: 'onLanguage:endpoint-yaml'/);
    // The language server was started for a spec the workspace did not hold at start.
    await workbench.problems('x.endpoint.yaml', (rows) => rows.some((row) => row.code === 'unknown-property'), 'the misspelt key');
    assert.match(extensionLog(editor), /activated in \d+(\.\d+)? ms/);

    // The first activation opens the walkthrough: in a group of its own, not over the spec just opened.
    await page.locator(WALKTHROUGH_TAB).waitFor();
    await page.locator('.gettingStartedContainer .getting-started-step').first().waitFor();
    const specGroup = page.locator('.editor-group-container', { has: page.locator('.tab.active[data-resource-name="x.endpoint.yaml"]') });
    assert.equal(await specGroup.count(), 1, 'one editor group shows the spec as its active editor');
    assert.equal(await specGroup.locator(WALKTHROUGH_TAB).count(), 0, 'the walkthrough opened in the group of the spec');
    // Still on screen, with its problem underlined.
    await specGroup.locator('.monaco-editor .view-lines', { hasText: 'bogusKey' }).waitFor();
    await specGroup.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').first().waitFor();
    await workbench.waitForActiveEditor('x.endpoint.yaml');
  } catch (error) {
    await workbench.screenshot('FAILED-activation--plain-files-and-a-spec').catch(() => undefined);
    throw error;
  }
  await workbench.screenshot('activation--plain-files-and-a-spec');
});

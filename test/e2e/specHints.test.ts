/**
 * A spec's inlay hints and language status items in the editor. Against the emulator (whose catalog prices the
 * cost): the defaults a spec leaves out and the cost per hour at workers.min and workers.max show in the text,
 * the endpointStudio.inlayHints settings switch them off, and the language status of a spec (and of no other
 * file) names the catalog's source and age and the active profile, each with its command. Signed out, with a
 * pinned catalog file: the items say so from the start (the server's first status arrives before the features
 * that show it have loaded).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { REPO_ROOT } from '../../scripts/editor/paths';
import { DEFAULT_DEV_API_KEY, startEmulator, type RunningEmulator } from '../../emulator/index';
import { extensionLog, logLinesMatching } from './support/editorProcesses';
import { useEditorSession, type EditorSession, type EditorSessionOptions } from './support/session';
import { waitUntil, type Workbench } from './support/workbench';
import { PRICED_SPEC } from '../support/pricedSpec';

/** The active editor's lines as shown, inlay hints included (Monaco renders them into the line). */
async function shownLines(workbench: Workbench): Promise<string[]> {
  return (await workbench.activeEditor.locator('.view-lines .view-line').allInnerTexts()).map((line) => line.replace(/\u00a0/g, ' '));
}

/** Waits until some shown line satisfies `test`, and returns the lines. */
async function untilLines(workbench: Workbench, what: string, test: (lines: string[]) => boolean): Promise<string[]> {
  let lines: string[] = [];
  await waitUntil(
    async () => test((lines = await shownLines(workbench))),
    what,
    () => lines.join('\n'),
  );
  return lines;
}

/**
 * Changes the workspace's settings the way editing .vscode/settings.json does (the editor reads the file again),
 * and waits until the server logs that it applied them: `hints` is how its log states the inlay hint kinds.
 * The editor hears of the file from its file watcher. Once, on a loaded CI machine, the hints stayed as they were
 * for 30 s after a write, where the whole way takes about 0.3 s. So when the server has heard nothing within 10 s,
 * the file is written once more; from the server's hearing of it on, the way is ours and gets no second chance.
 */
async function changeWorkspaceSettings(session: EditorSession, changes: Record<string, unknown>, hints: string): Promise<void> {
  const file = join(session.workspace, '.vscode', 'settings.json');
  const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const applied = new RegExp(`settings applied: inlay hints ${hints};`);
  const before = logLinesMatching(session.server, applied);
  const heard = (): boolean => logLinesMatching(session.server, applied) > before;
  const write = (): void => {
    writeFileSync(file, JSON.stringify({ ...current, ...changes }, null, 2));
  };
  write();
  try {
    await waitUntil(heard, 'the server told of the settings', undefined, 10_000);
  } catch {
    write();
    const lastSeen = (): string => extensionLog(session.server).slice(-2000);
    await waitUntil(heard, `the server told of the settings (${hints}), the file written twice`, lastSeen);
  }
}

const line = (lines: string[], start: string): string => lines.find((l) => l.trimStart().startsWith(start)) ?? '';

/** Hovers the language status of the active editor until its items (one line of text each) satisfy `test`. */
async function languageStatus(workbench: Workbench, what: string, test: (items: string[]) => boolean): Promise<string[]> {
  const status = workbench.page.locator('.statusbar-item[id="status.languageStatus"]');
  const items = workbench.page.locator('.hover-language-status');
  let texts: string[] = [];
  await waitUntil(
    async () => {
      await status.hover().catch(() => undefined);
      texts = (await items.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      return test(texts);
    },
    what,
    () => texts.join('\n'),
  );
  return texts;
}

const itemWith = (items: string[], text: string): string => items.find((t) => t.includes(text)) ?? '';

describe('signed in to the emulator', () => {
  let emulator: RunningEmulator;
  after(() => emulator.close());
  const { editorTest } = useEditorSession('specHints', async (): Promise<EditorSessionOptions> => {
    emulator = await startEmulator({ port: 0, jobsPort: 0 });
    return {
      env: { ENDPOINT_STUDIO_API_KEY: DEFAULT_DEV_API_KEY },
      userSettings: { 'endpointStudio.api.url': emulator.restUrl, 'endpointStudio.api.jobsUrl': emulator.jobsUrl },
    };
  });

  editorTest(
    'inlay hints show the defaults a spec leaves out and the cost per hour at workers.min and workers.max',
    async (workbench, session) => {
      await workbench.openNewFile(session.workspace, 'hinted.endpoint.yaml', PRICED_SPEC);
      // The cost needs the catalog, read from the emulator once the server has started.
      const lines = await untilLines(workbench, 'the inlay hints', (shown) => /\$1\.80–\$3\.45\/h/.test(line(shown, 'max:')));
      assert.match(line(lines, 'excludedTypes:'), /excludedTypes: \["NVIDIA L4"\]\s*count 1$/);
      assert.match(line(lines, 'min:'), /min: 2\s*\$0\.72–\$1\.38\/h$/);
      assert.match(line(lines, 'max:'), /max: 5\s*\$1\.80–\$3\.45\/h\s*idleTimeout 10 s$/);
      assert.match(line(lines, 'queueDelay:'), /queueDelay: 4\s*flashboot OFF\s*timeout 300000 ms$/);
      await workbench.page.screenshot({ path: '/tmp/es-spec-inlay-hints.png' });
    },
  );

  editorTest('the endpointStudio.inlayHints settings switch each kind off, and on again', async (workbench, session) => {
    await workbench.openNewFile(session.workspace, 'switched.endpoint.yaml', PRICED_SPEC);
    await untilLines(
      workbench,
      'the inlay hints',
      (shown) => /idleTimeout 10 s/.test(line(shown, 'max:')) && /\/h/.test(line(shown, 'max:')),
    );
    try {
      await changeWorkspaceSettings(session, { 'endpointStudio.inlayHints.defaults': false }, 'defaults off, cost on, environments on');
      await untilLines(workbench, 'no default hints, the cost ones kept', (shown) => {
        const text = shown.join('\n');
        return !/idleTimeout 10 s|flashboot OFF|count 1/.test(text) && /max: 5\s*\$1\.80–\$3\.45\/h$/.test(line(shown, 'max:'));
      });
      await changeWorkspaceSettings(session, { 'endpointStudio.inlayHints.cost': false }, 'defaults off, cost off, environments on');
      const plain = await untilLines(workbench, 'no inlay hints at all', (shown) => !/\/h/.test(shown.join('\n')));
      assert.deepEqual(
        plain.map((l) => l.trimEnd()),
        PRICED_SPEC.split('\n'),
        'the lines show the text alone',
      );
      await workbench.page.screenshot({ path: '/tmp/es-spec-inlay-hints-off.png' });
    } finally {
      await changeWorkspaceSettings(
        session,
        { 'endpointStudio.inlayHints.defaults': true, 'endpointStudio.inlayHints.cost': true },
        'defaults on, cost on, environments on',
      );
    }
    await untilLines(workbench, 'the hints back', (shown) => /idleTimeout 10 s/.test(line(shown, 'max:')));
  });

  editorTest(
    'the language status of a spec names the catalog and the profile, each with its command; other files have none',
    async (workbench, session) => {
      await workbench.openNewFile(session.workspace, 'status.endpoint.yaml', PRICED_SPEC);
      const items = await languageStatus(workbench, 'the catalog item, live', (shown) =>
        shown.some((t) => /Catalog (just now|\d+ min ago)/.test(t)),
      );
      assert.match(itemWith(items, 'Catalog'), /fetched from the service.*Refresh/);
      assert.match(
        itemWith(items, 'environment'),
        new RegExp(`on ${emulator.restUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*Switch Profile`),
      );
      await workbench.page.screenshot({ path: '/tmp/es-spec-language-status.png' });
      // The item's command refreshes the catalog: the server reads the catalog from the service again.
      const reads = (): number => extensionLog(session.server).split('/v2/catalog/gpus').length;
      const before = reads();
      await workbench.page.locator('.hover-language-status', { hasText: 'Catalog' }).locator('a', { hasText: 'Refresh' }).click();
      await waitUntil(() => Promise.resolve(reads() > before), 'the catalog read again');
      await workbench.page.keyboard.press('Escape');
      await workbench.openFile('sdxl-worker.request.json');
      await languageStatus(workbench, 'no spec item on a request file', (shown) => !/Catalog|environment/.test(shown.join('\n')));
    },
  );
});

describe('signed out, with a pinned catalog file', () => {
  const { editorTest } = useEditorSession('specHints-pinned', {
    env: { ENDPOINT_STUDIO_CATALOG_FILE: join(REPO_ROOT, 'test', 'fixtures', 'catalog.json') },
  });

  editorTest('the language status says the catalog is pinned and offers Sign In', async (workbench, session) => {
    await workbench.openNewFile(session.workspace, 'pinned.endpoint.yaml', PRICED_SPEC);
    const items = await languageStatus(
      workbench,
      'the pinned catalog and the signed-out profile',
      (shown) => shown.some((t) => t.includes('Catalog pinned')) && shown.some((t) => t.includes('Signed out')),
    );
    assert.match(itemWith(items, 'Catalog pinned'), /from a catalog file.*Refresh/);
    assert.match(itemWith(items, 'Signed out'), /Sign In/);
  });
});

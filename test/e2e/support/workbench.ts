/**
 * Drives the VS Code workbench in headless Chromium the way a user does: keyboard shortcuts, Quick Open,
 * the Command Palette, the Problems panel, the suggest widget and hovers. Every wait is on something the
 * page shows; nothing sleeps for a fixed time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_PATH, SCREENSHOT_DIR } from '../../../scripts/editor/paths';

export const UI_TIMEOUT_MS = 30_000;
/** Loading the workbench and activating the extension: slower than any later step, more so on a busy machine. */
export const START_TIMEOUT_MS = 120_000;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The parts of a DOM node read in the page (the project compiles without the DOM library). */
export interface PageNode {
  readonly textContent: string | null;
  readonly className: string;
  getAttribute(name: string): string | null;
  querySelector(selector: string): PageNode | null;
}

/**
 * The tab of our walkthrough. VS Code 1.100 labels it "Walkthrough: <title>"; 1.139 keeps the label it opened
 * with, "Welcome", and shows the title only on the page.
 */
export const WALKTHROUGH_TAB = '.tab[aria-label^="Walkthrough: Endpoint Studio"], .tab[aria-label^="Welcome"]';

/** The id of the extension's status bar item, which exists from activation on. */
export const PROFILE_STATUS_ITEM = 'endpointStudio.profile';

/** One marker row of the Problems panel, as displayed. */
export interface Problem {
  readonly severity: 'error' | 'warning' | 'info';
  readonly message: string;
  readonly source: string;
  readonly code: string;
  /** `[Ln 10, Col 3]` */
  readonly position: string;
}

export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.position} ${p.severity} ${p.source}(${p.code}) ${p.message}`).join('\n');
}

export class Workbench {
  private constructor(
    readonly page: Page,
    private readonly context: BrowserContext,
    private readonly profileDir: string,
  ) {}

  /** Launches a fresh browser profile; `prepare` runs before the first navigation (e.g. exposeFunction). */
  static async launch(prepare?: (page: Page) => Promise<void>): Promise<Workbench> {
    const profileDir = mkdtempSync(join(tmpdir(), 'endpoint-studio-chromium-'));
    const context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    if (prepare) await prepare(page);
    return new Workbench(page, context, profileDir);
  }

  /**
   * Opens the URL and waits until the workbench shows the workspace's files in the Explorer and the
   * extension has activated (its profile item is in the status bar), so no test spends its own time
   * waiting for the editor to start.
   */
  async open(url: string, expectFileInExplorer: string, { waitForExtension = true } = {}): Promise<void> {
    const timeout = START_TIMEOUT_MS;
    await this.page.goto(url, { timeout });
    await this.page.locator('.monaco-workbench').waitFor({ timeout });
    await this.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${expectFileInExplorer}"]`).first().waitFor({ timeout });
    if (waitForExtension) await this.page.locator(`.statusbar-item[id$="${PROFILE_STATUS_ITEM}"]`).waitFor({ timeout });
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    rmSync(this.profileDir, { recursive: true, force: true });
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const path = join(SCREENSHOT_DIR, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  private get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /**
   * Chooses the Quick Input row whose label contains `text` as a user does: types `text` into the filter (unless
   * it holds it already, as after openCommandPalette), waits until that row is the active one and presses
   * Enter. Nothing is clicked, so a list still being laid out or filled (items that arrive late, Quick Open's
   * file results after its history) cannot take the click elsewhere. Done when no row shows that text any
   * more: the picker closed, or a follow-up picker replaced it. A picker that closes first (it does when
   * something else takes the focus) fails at once, naming what has the focus.
   */
  async pickQuickInputRow(text: string): Promise<void> {
    const input = this.quickInput.locator('input');
    await input.waitFor();
    // A picker on its way out (newer VS Code makes it inert as it closes) takes no typing: say so at once.
    if (await input.evaluate((element) => (element as unknown as { closest(selector: string): unknown }).closest('[inert]') !== null))
      throw new Error(`the picker closed before "${text}" was chosen; the focus is on ${await this.focusedElement()}`);
    if (!(await input.inputValue()).includes(text)) await input.fill(text);
    const rows = this.quickInput.locator('.monaco-list-row', { hasText: text });
    const active = this.quickInput.locator('.monaco-list-row.focused');
    let seen = '';
    await waitUntil(
      async () => {
        if (!(await this.quickInput.isVisible()))
          throw new Error(`the picker closed before "${text}" was chosen; the focus is on ${await this.focusedElement()}`);
        seen = (await active.allTextContents()).join(' | ');
        if (seen.includes(text)) return true;
        if (seen !== '' && (await rows.count()) > 0) {
          await input.focus();
          await this.page.keyboard.press('ArrowDown');
        }
        return false;
      },
      `the Quick Input row "${text}" to be the active one`,
      () => `active row: ${seen || '(none)'}`,
    );
    // The keys go to the picker even if the page took the focus meanwhile and the picker stayed open (one that
    // ignores focus loss; VS Code 1.139's walkthrough focuses its step again after a button ran).
    await input.focus();
    await this.page.keyboard.press('Enter');
    await rows.first().waitFor({ state: 'hidden' });
  }

  /** What has the keyboard focus, for messages: its tag and label. A string, so nothing of tsx's output reaches the page. */
  async focusedElement(): Promise<string> {
    return this.page.evaluate<string>(
      "(() => { const e = document.activeElement; return e ? `${e.tagName} ${e.getAttribute('aria-label') ?? e.className}` : 'nothing'; })()",
    );
  }

  async quickInputRows(): Promise<string[]> {
    await this.quickInput.locator('.monaco-list-row').first().waitFor();
    const rows = await this.quickInput.locator('.monaco-list-row').allTextContents();
    return rows.map((text) => text.replace(/\s+/g, ' ').trim());
  }

  /** Opens the Command Palette and types `query` after the `>` prefix, without choosing anything. */
  async openCommandPalette(query: string): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.quickInput.locator('input').waitFor();
    await this.page.keyboard.type(query);
  }

  /** Runs a command by its palette title, e.g. `Endpoint Studio: New Endpoint Spec`. */
  async runCommand(title: string): Promise<void> {
    await this.openCommandPalette(title);
    await this.pickQuickInputRow(title);
  }

  /** Types into an open Quick Input (input box or quick pick) and presses Enter. */
  async answerInput(text: string, { replace = true } = {}): Promise<void> {
    const input = this.quickInput.locator('input');
    await input.waitFor();
    if (replace) await input.fill(text);
    else await this.page.keyboard.type(text);
    await this.page.keyboard.press('Enter');
  }

  /**
   * Puts the workbench back to a neutral screen between tests: no open widget, editor or notification.
   * Edits nobody saved are dropped (Don't Save), so a test that failed half-way leaves nothing behind.
   */
  async reset(): Promise<void> {
    for (let i = 0; i < 2; i++) await this.page.keyboard.press('Escape');
    const tabs = this.page.locator('.tabs-container .tab');
    if ((await tabs.count()) > 0) {
      await this.runCommand('View: Close All Editors');
      const dialog = this.page.locator('.monaco-dialog-box');
      await waitUntil(async () => (await tabs.count()) === 0 || (await dialog.isVisible()), 'the editors to close');
      if (await dialog.isVisible()) {
        await dialog
          .locator('a.monaco-button, button')
          .filter({ hasText: /^Don't Save$/ })
          .first()
          .click();
        await waitUntil(async () => (await tabs.count()) === 0, 'the editors to close without saving');
      }
    }
    await this.clearNotifications();
  }

  async clearNotifications(): Promise<void> {
    if ((await this.page.locator('.notifications-toasts .notification-toast').count()) === 0) return;
    await this.runCommand('Notifications: Clear All Notifications');
    await this.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden' });
  }

  /** A notification toast whose text matches. */
  toast(text: RegExp): Locator {
    return this.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
  }

  /** Waits for a notification toast whose text matches and returns its text. */
  async notification(text: RegExp): Promise<string> {
    const toast = this.toast(text);
    await toast.waitFor({ state: 'visible' });
    return toast.innerText();
  }

  /** Waits for a modal dialog, returns its text and presses the button labelled exactly `button`. */
  async answerDialog(button: string): Promise<string> {
    const dialog = this.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible' });
    const text = (await dialog.innerText()).trim();
    await dialog
      .locator('a.monaco-button, button')
      .filter({ hasText: new RegExp(`^${escapeRegExp(button)}$`) })
      .first()
      .click();
    await dialog.waitFor({ state: 'hidden' });
    return text;
  }

  /** Writes a file into the workspace and opens it (see openFile). */
  async openNewFile(workspace: string, name: string, text: string): Promise<void> {
    writeFileSync(join(workspace, name), text);
    await this.openFile(name);
  }

  /**
   * Opens a workspace file through Quick Open (Ctrl+P) and waits for its editor to be active. Quick Open lists
   * a file written since the session started only after the file watcher reported it, so ask again until it does.
   */
  async openFile(fileName: string): Promise<void> {
    await waitUntil(async () => {
      await this.page.keyboard.press('Control+P');
      await this.quickInput.locator('input').waitFor();
      await this.page.keyboard.type(fileName);
      if (await showsWithin(this.quickInput.locator('.monaco-list-row', { hasText: fileName }).first(), 3000)) {
        await this.pickQuickInputRow(fileName);
        return true;
      }
      await this.page.keyboard.press('Escape');
      return false;
    }, `${fileName} in Quick Open`);
    await this.waitForActiveEditor(fileName);
  }

  async waitForActiveEditor(fileName: string): Promise<void> {
    await this.page.locator(`.tab.active[data-resource-name="${fileName}"]`).waitFor();
    await this.activeEditor.locator('.view-lines').waitFor();
  }

  get activeEditor(): Locator {
    return this.page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();
  }

  /** The active editor's visible text (Monaco renders spaces as non-breaking ones). */
  async editorText(): Promise<string> {
    const text = await this.activeEditor.locator('.view-lines').innerText();
    return text.replace(/\u00a0/g, ' ');
  }

  /** Gives the keyboard to the active editor (Ctrl+1), e.g. back from the Problems panel. */
  async focusEditor(): Promise<void> {
    await this.page.keyboard.press('Control+1');
    await this.page.locator('.editor-group-container.active .monaco-editor.focused').waitFor();
  }

  /** Waits until the active editor's text matches, e.g. after an edit the editor applies asynchronously. */
  async waitForEditorText(pattern: RegExp): Promise<string> {
    let text = '';
    await waitUntil(
      async () => pattern.test((text = await this.editorText())),
      `editor text to match ${pattern}`,
      () => text,
    );
    return text;
  }

  /** Puts the cursor at a 1-based line and column with Go to Line (Ctrl+G). */
  async goTo(line: number, column: number): Promise<void> {
    await this.focusEditor();
    await this.page.keyboard.press('Control+G');
    await this.quickInput.locator('input').waitFor();
    await this.page.keyboard.type(`${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await this.quickInput.waitFor({ state: 'hidden' });
    await this.page.locator('.statusbar-item[id="status.editor.selection"]', { hasText: `Ln ${line}, Col ${column}` }).waitFor();
  }

  /**
   * Shows the Problems panel filtered to one file and returns its marker rows once `until` accepts them.
   * The panel is a virtual list that renders only the rows in view, hence the filter.
   */
  async problems(fileName: string, until: (rows: Problem[]) => boolean, description: string): Promise<Problem[]> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) await this.page.keyboard.press('Control+Shift+M');
    await panel.waitFor();
    await this.page.locator('.part.panel input[placeholder^="Filter (e.g. text"]').fill(`**/${fileName}`);
    let rows: Problem[] = [];
    await waitUntil(
      async () => {
        // No named helpers inside: the callback runs in the page, where tsx's __name shim does not exist.
        rows = await panel.locator('.monaco-list-row:has(.marker-message-details-container)').evaluateAll((els) =>
          (els as unknown as PageNode[]).map((row): Problem => {
            const [message, source, code, position] = ['.marker-message', '.marker-source', '.marker-code', '.marker-line'].map(
              (selector) => row.querySelector(selector)?.textContent?.trim() ?? '',
            );
            const icon = row.querySelector('.marker-icon')?.className ?? '';
            const severity = icon.includes('error') ? 'error' : icon.includes('warning') ? 'warning' : 'info';
            return { severity, message, source, code, position };
          }),
        );
        return until(rows);
      },
      `Problems panel: ${description}`,
      () => formatProblems(rows),
    );
    return rows;
  }

  /** How many problems the Problems panel lists under a file (its group row disappears at zero). */
  async problemCountFor(fileName: string): Promise<number> {
    const group = this.page.locator(`.markers-panel .monaco-list-row[aria-label*=" in file ${fileName} "]`);
    if ((await group.count()) === 0) return 0;
    return Number(await group.first().locator('.monaco-count-badge').innerText());
  }

  /** Ctrl+Space in the active editor; returns the suggest widget's labels once `expected` are all there. */
  async suggestions(expected: readonly string[]): Promise<string[]> {
    await this.page.keyboard.press('Control+Space');
    const widget = this.page.locator('.suggest-widget.visible');
    await widget.locator('.monaco-list-row').first().waitFor();
    let labels: string[] = [];
    await waitUntil(
      async () => {
        labels = (await widget.locator('.monaco-list-row .label-name').allTextContents()).map((label) => label.trim());
        return expected.every((e) => labels.includes(e));
      },
      `suggestions include ${expected.join(', ')}`,
      () => labels.join(', '),
    );
    return labels;
  }

  /** Shows the hover at the cursor (Ctrl+K Ctrl+I) and returns its text once it contains `expected`. */
  async hoverText(expected: string): Promise<string> {
    await this.page.keyboard.press('Control+K');
    await this.page.keyboard.press('Control+I');
    const hover = this.page.locator('.monaco-hover:not(.hidden) .monaco-hover-content');
    await hover.first().waitFor();
    let text = '';
    await waitUntil(
      async () => {
        text = await hover.first().innerText();
        return text.includes(expected);
      },
      `hover contains ${expected}`,
      () => text,
    );
    return text;
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) at the cursor and applies the action whose title contains `title`. A
   * Ctrl+. that opens nothing is pressed again, as a user would: VS Code 1.139 once showed the light bulb on the
   * line and no menu for 30 s.
   */
  async applyQuickFix(title: string): Promise<string[]> {
    // Newer VS Code adds an (empty) submenu panel that is also an .action-widget.
    const menu = this.page.locator('.action-widget:not(.action-list-submenu-panel)');
    const actions = menu.locator('.monaco-list-row.action');
    const titlesShown = (): Promise<string[]> =>
      actions.evaluateAll((rows) => (rows as unknown as PageNode[]).map((r) => r.getAttribute('aria-label') ?? ''));
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+.');
      if (await showsWithin(actions.filter({ hasText: title }).first(), UI_TIMEOUT_MS / 3)) break;
      if (attempt === 3)
        throw new Error(`the quick-fix menu did not offer "${title}" in 3 tries; shown: ${(await titlesShown()).join(' | ')}`);
      await this.page.keyboard.press('Escape');
    }
    const titles = await titlesShown();
    // The menu sits under a pointer-blocking overlay, so choose with the keyboard as a user would.
    for (let step = 0; step <= titles.length; step++) {
      const focused = (await menu.locator('.monaco-list-row.action.focused').getAttribute('aria-label')) ?? '';
      if (focused.includes(title)) {
        await this.page.keyboard.press('Enter');
        await menu.waitFor({ state: 'hidden' });
        return titles;
      }
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error(`no quick fix "${title}" could be focused; offered: ${titles.join(' | ')}`);
  }
}

/** Polls a condition the page will eventually meet; the error says what was last seen. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  description: string,
  lastSeen: () => string = () => '',
  timeoutMs = UI_TIMEOUT_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}; last seen:\n${lastSeen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether the element shows within `timeoutMs`: for a step that may need doing again, such as a key the page dropped. */
export function showsWithin(element: Locator, timeoutMs: number): Promise<boolean> {
  return element.waitFor({ timeout: timeoutMs }).then(
    () => true,
    () => false,
  );
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The Endpoint Studio views (Endpoints, Catalog, Billing) as a user reaches them: the activity bar
 * container, pane header buttons, tree rows and their context menus. Shared by every test file
 * that looks at a view, so each can put the view into the state it needs without the others.
 */
import type { Locator } from 'playwright-core';
import { waitUntil, type Workbench } from './workbench';

export type PaneTitle = 'Endpoints' | 'Catalog' | 'Billing';

export function viewPane(workbench: Workbench, title: PaneTitle): Locator {
  return workbench.page.locator('.pane', { has: workbench.page.locator('.pane-header h3.title', { hasText: new RegExp(`^${title}$`) }) });
}

/** A tree row whose visible text (label and description) matches. */
export function treeRow(workbench: Workbench, title: PaneTitle, text: string | RegExp): Locator {
  return viewPane(workbench, title).locator('.monaco-list-row', { hasText: text }).first();
}

/** A row's label and description, as shown, separated by a space. */
export async function rowText(workbench: Workbench, title: PaneTitle, text: string | RegExp): Promise<string> {
  const found = treeRow(workbench, title, text);
  await found.waitFor();
  const parts = await Promise.all(
    ['.label-name', '.label-description'].map(async (part) =>
      (await found.locator(part).count()) ? await found.locator(part).first().innerText() : '',
    ),
  );
  return parts.join(' ').trim();
}

/** Shows the Endpoint Studio container from the activity bar, unless its Endpoints pane already shows. */
export async function showEndpointStudio(workbench: Workbench): Promise<void> {
  const pane = viewPane(workbench, 'Endpoints');
  if (await pane.isVisible()) return;
  await workbench.page.locator('.part.activitybar .action-item a[aria-label^="Endpoint Studio"]').first().click();
  await pane.waitFor();
}

/** Clicks a button of a pane's title bar (shown on hover), found by the start of its label. */
export async function paneAction(workbench: Workbench, title: PaneTitle, label: string): Promise<void> {
  const header = viewPane(workbench, title).locator('.pane-header');
  await header.hover();
  await header.locator(`.action-label[aria-label^="${label}"]`).click();
}

/**
 * Reads the endpoints again and waits until the tree shows `expected` (e.g. an endpoint created for the
 * test). From the Command Palette: the title bar's button is given the focused row, which an earlier
 * test may have left on a group (explorer.test.ts checks that button on its own).
 */
export async function refreshEndpoints(workbench: Workbench, expected?: string): Promise<void> {
  await showEndpointStudio(workbench);
  await workbench.runCommand('Endpoint Studio: Refresh Endpoints');
  if (expected !== undefined) await treeRow(workbench, 'Endpoints', expected).waitFor();
}

/** Folds every row of a pane, so a test starts from the top level whatever was expanded before. */
export async function collapseAll(workbench: Workbench, title: PaneTitle): Promise<void> {
  await paneAction(workbench, title, 'Collapse All');
}

/** Expands a collapsed row (a click on a collapsed tree row opens it). */
export async function expandRow(workbench: Workbench, title: PaneTitle, text: string | RegExp): Promise<void> {
  const found = treeRow(workbench, title, text);
  await found.waitFor();
  if ((await found.getAttribute('aria-expanded')) !== 'true') await found.click();
  await waitUntil(async () => (await found.getAttribute('aria-expanded')) === 'true', `${String(text)} to expand`);
}

/** Folds an expanded row. */
export async function collapseRow(workbench: Workbench, title: PaneTitle, text: string | RegExp): Promise<void> {
  const found = treeRow(workbench, title, text);
  await found.waitFor();
  if ((await found.getAttribute('aria-expanded')) === 'true') await found.click();
  await waitUntil(async () => (await found.getAttribute('aria-expanded')) !== 'true', `${String(text)} to fold`);
}

/** Runs an action from an Endpoints row's context menu, choosing it with the keyboard (the menu ignores a synthetic click). */
export async function contextAction(workbench: Workbench, text: string | RegExp, action: string): Promise<void> {
  await showEndpointStudio(workbench);
  const page = workbench.page;
  const row = treeRow(workbench, 'Endpoints', text);
  await row.waitFor();
  await row.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  await menu.locator('.action-item', { hasText: action }).first().waitFor();
  const count = await menu.locator('.action-item').count();
  for (let step = 0; step <= count; step++) {
    await page.keyboard.press('ArrowDown');
    const focused =
      (await menu
        .locator('.action-item.focused')
        .textContent()
        .catch(() => '')) ?? '';
    if (focused.includes(action)) {
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'hidden' });
      return;
    }
  }
  await page.keyboard.press('Escape');
  throw new Error(`no context menu action "${action}" could be focused`);
}

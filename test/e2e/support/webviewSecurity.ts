/**
 * Checks on a webview as the workbench really serves it: the page's Content-Security-Policy, its
 * scripts and nonces, event handler attributes and resource URLs, read from the live document; links
 * clicked inside it; and messages posted from it exactly as its script's `postMessage` posts them.
 * The markup is the extension's; the workbench adds only its own API script and default styles.
 */
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { UI_TIMEOUT_MS, waitUntil, type Workbench } from './workbench';

/** The script the workbench itself puts into every webview (acquireVsCodeApi). */
const WORKBENCH_SCRIPT_ID = '_vscodeApiScript';

export interface WebviewDocument {
  /** Directive → sources, from the page's CSP meta tag. */
  readonly csp: Map<string, string[]>;
  readonly scripts: readonly { id: string; nonce: string; src: string; inline: boolean }[];
  /** `tag[attribute]` of every on* attribute in the document. */
  readonly handlers: readonly string[];
  /** Every src and href in the document. */
  readonly resources: readonly string[];
}

/** The parts of a DOM element read here (the project compiles without the DOM library). */
interface PageElement {
  readonly tagName: string;
  readonly id: string;
  readonly nonce?: string;
  readonly textContent: string | null;
  readonly attributes: ArrayLike<{ readonly name: string }>;
  getAttribute(name: string): string | null;
}

export async function inspectWebview(frame: Frame): Promise<WebviewDocument> {
  const meta = frame.locator('meta[http-equiv="Content-Security-Policy"]');
  // No named helpers inside: the callbacks run in the page, where tsx's __name shim does not exist.
  const found = {
    csp: (await meta.count()) === 1 ? ((await meta.getAttribute('content')) ?? '') : '',
    scripts: await frame.locator('script').evaluateAll((elements) =>
      (elements as unknown as PageElement[]).map((s) => ({
        id: s.id,
        nonce: s.nonce ?? '',
        src: s.getAttribute('src') ?? '',
        inline: (s.textContent ?? '').trim() !== '',
      })),
    ),
    handlers: await frame.locator('*').evaluateAll((elements) =>
      (elements as unknown as PageElement[]).flatMap((e) =>
        Array.from(e.attributes)
          .filter((a) => a.name.toLowerCase().startsWith('on'))
          .map((a) => `${e.tagName.toLowerCase()}[${a.name}]`),
      ),
    ),
    resources: await frame
      .locator('[src], [href]')
      .evaluateAll((elements) =>
        (elements as unknown as PageElement[])
          .flatMap((e) => [e.getAttribute('src') ?? '', e.getAttribute('href') ?? ''])
          .filter((v) => v !== ''),
      ),
  };
  const csp = new Map<string, string[]>();
  for (const directive of found.csp.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) csp.set(name, sources);
  }
  return { ...found, csp };
}

/** Whether a URL is covered by a CSP host source such as `https://*.vscode-cdn.net` or `'self'`. */
function allowedBy(url: string, sources: readonly string[]): boolean {
  return sources.some((source) => {
    if (source === "'self'") return !/^[a-z][\w+.-]*:/i.test(url);
    const pattern = source.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
    return new RegExp(`^${pattern}(/|$)`).test(url);
  });
}

/**
 * Asserts what every page of the extension must be: nothing loads by default, scripts run only with
 * the page's nonce and there is exactly one (the page's own, from the extension's media), styles,
 * images and fonts come only from the webview's resource origin, no inline handlers, nothing remote.
 */
export function assertLockedDown(page: WebviewDocument, label: string): string {
  const { csp } = page;
  assert.deepEqual(csp.get('default-src'), ["'none'"], `${label}: default-src`);
  const own = page.scripts.filter((s) => s.id !== WORKBENCH_SCRIPT_ID);
  assert.equal(own.length, 1, `${label}: one script of its own: ${JSON.stringify(own)}`);
  const [script] = own;
  assert.ok(script.nonce.length >= 16, `${label}: the script carries a nonce`);
  assert.ok(!script.inline && script.src !== '', `${label}: the script is a file, not inline code`);
  assert.deepEqual(csp.get('script-src'), [`'nonce-${script.nonce}'`], `${label}: only the nonce may run scripts`);
  const resourceOrigin = csp.get('style-src') ?? [];
  assert.ok(resourceOrigin.length > 0, `${label}: style-src names the webview's resource origin`);
  for (const directive of ['img-src', 'font-src'])
    assert.deepEqual(csp.get(directive), resourceOrigin, `${label}: ${directive} is the resource origin only`);
  for (const source of resourceOrigin)
    assert.doesNotMatch(source, /^'unsafe-|^\*$|^https?:$|^data:|^blob:/, `${label}: ${source} is not a narrow source`);
  assert.deepEqual(page.handlers, [], `${label}: no inline event handlers`);
  const outside = page.resources.filter((url) => !allowedBy(url, resourceOrigin));
  assert.deepEqual(outside, [], `${label}: every src and href is under the resource origin`);
  return script.nonce;
}

/** Posts `message` to the extension the way the page's `acquireVsCodeApi().postMessage` does. */
export async function postFromWebview(frame: Frame, message: unknown): Promise<void> {
  const host = frame.parentFrame();
  if (!host) throw new Error('the webview content frame has no host frame');
  await host.evaluate((data) => {
    (globalThis as unknown as Record<string, (channel: string, payload: unknown) => void>).__vscode_post_message__('onmessage', {
      message: data,
      transfer: undefined,
    });
  }, message);
}

/** Shows a link with this href in the webview and clicks it with the mouse, as a user would click a link the page showed. */
async function clickLink(frame: Frame, href: string): Promise<void> {
  const id = 'e2e-link';
  await frame.locator('body').evaluate(
    (body, link) => {
      const page = body as unknown as {
        prepend(node: unknown): void;
        ownerDocument: { createElement(tag: 'a'): { id: string; href: string; textContent: string } };
      };
      const anchor = page.ownerDocument.createElement('a');
      anchor.id = link.id;
      anchor.href = link.href;
      anchor.textContent = link.href;
      page.prepend(anchor);
    },
    { id, href },
  );
  await frame.locator(`#${id}`).click();
  await frame.locator(`#${id}`).evaluate((anchor) => {
    (anchor as unknown as { remove(): void }).remove();
  });
}

/**
 * Asserts that a `command:` link clicked in the webview runs nothing. The command would hide the side
 * bar; a web link clicked right after it makes the workbench offer to open the site (a prompt, or a
 * new tab), proving the clicks reach the workbench and the first one was handled (and refused) first.
 */
export async function assertCommandLinksIgnored(workbench: Workbench, frame: Frame): Promise<void> {
  const sidebar = workbench.page.locator('.part.sidebar');
  await sidebar.waitFor({ state: 'visible' });
  await clickLink(frame, 'command:workbench.action.toggleSidebarVisibility');
  const site = 'https://example.com/endpoint-studio-e2e';
  const context = workbench.page.context();
  const prompt = workbench.page.locator('.monaco-dialog-box').filter({ hasText: 'example.com' });
  const opened = Promise.race([
    prompt.waitFor({ state: 'visible' }).then(() => 'prompt' as const),
    context.waitForEvent('request', { predicate: (request) => request.url() === site, timeout: UI_TIMEOUT_MS }).then(() => 'tab' as const),
  ]);
  await clickLink(frame, site);
  const how = await opened;
  assert.ok(await sidebar.isVisible(), 'the command link did not run');
  if (how === 'prompt') await workbench.answerDialog('Cancel');
  for (const page of context.pages()) if (page !== workbench.page) await page.close();
  await waitUntil(async () => sidebar.isVisible(), 'the side bar to stay');
}

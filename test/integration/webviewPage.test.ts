/**
 * The page shell every webview of the extension is served in (client/webviewPage.ts), called with a real
 * webview of this extension host: the Content-Security-Policy it writes, the nonce (fresh on every call)
 * that alone lets the page's one script run, and resource URLs that stay on the webview's own origin.
 * test/e2e checks the same on the Logs and billing pages as the workbench serves them.
 */
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { webviewHtml } from '../../client/webviewPage';
import { EXTENSION_ID } from './helpers';

const PAGE = { title: 'Shell check', script: 'page.js', style: 'page.css', body: '<main id="content"><p>body as given</p></main>' };

interface Served {
  readonly csp: Map<string, string[]>;
  readonly scripts: string[];
  readonly html: string;
}

function serve(webview: vscode.Webview, media: vscode.Uri): Served {
  const html = webviewHtml(webview, media, PAGE);
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';
  const csp = new Map<string, string[]>();
  for (const directive of content.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) csp.set(name, sources);
  }
  return { csp, scripts: html.match(/<script[^>]*>/g) ?? [], html };
}

suite('Webview page shell', () => {
  let panel: vscode.WebviewPanel;
  let media: vscode.Uri;

  suiteSetup(() => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    media = vscode.Uri.joinPath(extension.extensionUri, 'media', 'logs');
    panel = vscode.window.createWebviewPanel('endpointStudio.shellCheck', 'Shell check', vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media],
    });
  });

  suiteTeardown(() => {
    panel.dispose();
  });

  test('nothing loads by default; the one script runs by its nonce; styles, images and fonts only from the webview origin', () => {
    const { csp, scripts, html } = serve(panel.webview, media);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.equal(scripts.length, 1, scripts.join('\n'));
    const nonce = /nonce="([^"]+)"/.exec(scripts[0])?.[1] ?? '';
    assert.equal(Buffer.from(nonce, 'base64').length, 16, `a 128-bit nonce: ${nonce}`);
    assert.deepEqual(csp.get('script-src'), [`'nonce-${nonce}'`]);
    const origin = panel.webview.cspSource.split(/\s+/);
    for (const directive of ['style-src', 'img-src', 'font-src']) assert.deepEqual(csp.get(directive), origin, directive);
    assert.deepEqual([...csp.keys()].sort(), ['default-src', 'font-src', 'img-src', 'script-src', 'style-src']);
    assert.ok(scripts[0].includes(`src="${panel.webview.asWebviewUri(vscode.Uri.joinPath(media, PAGE.script)).toString()}"`), scripts[0]);
    assert.ok(html.includes(`href="${panel.webview.asWebviewUri(vscode.Uri.joinPath(media, PAGE.style)).toString()}"`));
    assert.ok(html.includes(`\n${PAGE.body}\n`), 'the body is placed as given');
    assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handlers');
  });

  test('every page served gets a nonce of its own', () => {
    const nonces = Array.from({ length: 5 }, () => serve(panel.webview, media).csp.get('script-src')?.[0]);
    assert.equal(new Set(nonces).size, nonces.length, nonces.join(' '));
  });
});

/**
 * The one HTML shell every webview of the extension is served in, so the Content-Security-Policy is written
 * once: nothing loads but the extension's own media, and the page's one script runs only with a fresh nonce.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export interface WebviewPage {
  readonly title: string;
  /** File names under `media`. */
  readonly script: string;
  readonly style: string;
  /** The page's markup: no scripts, no event handler attributes, no remote resources. */
  readonly body: string;
}

export function webviewHtml(webview: vscode.Webview, media: vscode.Uri, page: WebviewPage): string {
  const nonce = randomBytes(16).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, page.script));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(media, page.style));
  const csp = `default-src 'none'; style-src ${webview.cspSource}; script-src 'nonce-${nonce}'; img-src ${webview.cspSource}; font-src ${webview.cspSource}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${page.title}</title>
</head>
<body>
${page.body}
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

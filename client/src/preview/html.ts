/**
 * The preview webview's HTML: a strict CSP with a nonce (no unsafe-inline, no unsafe-eval), the bundled script and
 * stylesheet, nothing else. vscode-free so the Chromium tests load exactly this page.
 */
import { randomBytes } from 'node:crypto';

export interface PreviewHtmlOptions {
  /** webview.cspSource (or the test server's origin). */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  nonce?: string;
}

export function makeNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function previewHtml(o: PreviewHtmlOptions): string {
  const nonce = o.nonce ?? makeNonce();
  const csp = [
    "default-src 'none'",
    `style-src ${o.cspSource} 'nonce-${nonce}'`,
    `font-src ${o.cspSource}`,
    `img-src ${o.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(o.codiconUri)}" id="vscode-codicon-stylesheet" nonce="${nonce}">
<link rel="stylesheet" href="${attr(o.styleUri)}" nonce="${nonce}">
<title>Preview Contract</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="muted">Loading the contract…</p></main>
<script type="module" nonce="${nonce}" src="${attr(o.scriptUri)}"></script>
</body>
</html>`;
}

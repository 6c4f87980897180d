/**
 * The page every Toolsmith webview loads: a strict CSP with a per-load nonce (no unsafe-inline, no unsafe-eval), the
 * bundled script and stylesheet and the codicon font, nothing inline. vscode-free so the Chromium tests load exactly
 * the page the extension serves.
 */
import { randomBytes } from 'node:crypto';

export function makeNonce(): string {
  return randomBytes(18)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

export interface WebviewPageOptions {
  /** webview.cspSource (or the test server's origin): the origin that serves the extension's files. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  /** Static markup shown until the script renders (trusted constant markup, not escaped). */
  body?: string;
  /** Allows data: audio and video (tool results); otherwise default-src 'none' blocks media. */
  media?: boolean;
}

export function contentSecurityPolicy(o: Pick<WebviewPageOptions, 'cspSource' | 'nonce' | 'media'>): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    // Web components adopt constructed stylesheets; the nonce covers a <style> fallback. No unsafe-inline.
    `style-src ${o.cspSource} 'nonce-${o.nonce}'`,
    `font-src ${o.cspSource}`,
    // Images returned by tools (and shown in pages) arrive as base64 and are shown through data: URLs.
    `img-src ${o.cspSource} data:`,
    ...(o.media ? ['media-src data:'] : []),
  ].join('; ');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function webviewHtml(o: WebviewPageOptions): string {
  const body = o.body ? `${o.body}\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(o))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(o.codiconUri)}" id="vscode-codicon-stylesheet" nonce="${o.nonce}">
<link rel="stylesheet" href="${attr(o.styleUri)}" nonce="${o.nonce}">
<title>${attr(o.title)}</title>
</head>
<body>
${body}<script type="module" nonce="${o.nonce}" src="${attr(o.scriptUri)}"></script>
</body>
</html>`;
}

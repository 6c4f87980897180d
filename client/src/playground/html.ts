/** The playground page: a strict CSP with a per-load nonce, our script and stylesheet, nothing inline. */
import { randomBytes } from 'node:crypto';

export function makeNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

export interface PageOptions {
  /** webview.cspSource: the origin that serves the extension's files. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
}

export function contentSecurityPolicy(o: Pick<PageOptions, 'cspSource' | 'nonce'>): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${o.nonce}'`,
    // Web components adopt constructed stylesheets; the nonce covers a <style> fallback. No unsafe-inline.
    `style-src ${o.cspSource} 'nonce-${o.nonce}'`,
    `font-src ${o.cspSource}`,
    // Images and audio returned by tools arrive as base64 and are shown through data: URLs.
    `img-src ${o.cspSource} data:`,
    'media-src data:',
  ].join('; ');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function playgroundHtml(o: PageOptions): string {
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
<script type="module" nonce="${o.nonce}" src="${attr(o.scriptUri)}"></script>
</body>
</html>`;
}

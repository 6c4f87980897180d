// Loads the Preview Contract webview — the same HTML and CSP the extension serves (client/src/preview/html.ts), the
// bundled dist/webview/preview.js and its CSS — in headless Debian Chromium through playwright-core, with a stub of
// acquireVsCodeApi that records what the webview posts and keeps its state in sessionStorage (so a reload acts
// like VS Code hiding and showing the panel).
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { previewHtml } from '../../client/src/preview/html';
import type { HostToPreview, PreviewToHost } from '../../common/preview-messages';
import { CHROMIUM, launchOptions } from '../../scripts/ensure-chromium.mjs';

const root = path.resolve(__dirname, '../..');
const distWebview = path.join(root, 'dist', 'webview');

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json' };

// Dark+ theme colours a webview receives from VS Code as CSS variables (a subset: enough to see contrast).
const THEME = `:root{--vscode-foreground:#cccccc;--vscode-editor-background:#1e1e1e;--vscode-descriptionForeground:#9d9d9d;--vscode-font-family:sans-serif;--vscode-font-size:13px;--vscode-editor-font-family:monospace;--vscode-editor-font-size:13px;--vscode-textCodeBlock-background:#0a0a0a;--vscode-widget-border:#303031;--vscode-badge-background:#616161;--vscode-badge-foreground:#f8f8f8;--vscode-errorForeground:#f48771;--vscode-editorWarning-foreground:#cca700;--vscode-editorInfo-foreground:#3794ff;--vscode-charts-yellow:#cca700;--vscode-charts-orange:#d18616;--vscode-charts-green:#89d185;--vscode-button-background:#0e639c;--vscode-button-foreground:#ffffff;--vscode-inputValidation-warningBackground:#352a05;--vscode-diffEditor-removedTextBackground:#ff000033;--vscode-diffEditor-insertedTextBackground:#9bb95533}`;

export interface PreviewPage {
  page: Page;
  url: string;
  send(m: HostToPreview): Promise<void>;
  /** Messages the webview posted, in order. */
  posted(): Promise<PreviewToHost[]>;
  clearPosted(): Promise<void>;
  cspViolations(): Promise<string[]>;
  pageErrors: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

export async function openPreview(): Promise<PreviewPage> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium (the webview layer cannot run without it)`);
  if (!fs.existsSync(path.join(distWebview, 'preview.js'))) throw new Error('dist/webview/preview.js is missing: build first (node esbuild.mjs)');
  const nonce = 'n' + Math.random().toString(36).slice(2);
  let origin = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/' || url.pathname === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(previewHtml({ cspSource: origin, scriptUri: `${origin}/preview.js`, styleUri: `${origin}/preview.css`, codiconUri: `${origin}/codicon.css`, nonce }));
      return;
    }
    // Chromium asks for a favicon; a VS Code webview never does.
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const file = path.join(distWebview, path.basename(url.pathname));
    if (!fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(userDataDir, {
    ...launchOptions(),
    viewport: { width: 1100, height: 900 },
  });
  await context.addInitScript(`
    window.__posted = [];
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => { const s = sessionStorage.getItem('vscode-state'); return s ? JSON.parse(s) : undefined; },
      setState: (s) => sessionStorage.setItem('vscode-state', JSON.stringify(s)),
    });
  `);
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${m.text()} ${m.location().url}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) pageErrors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${origin}/index.html`);
  // VS Code sets the theme variables on <html> through the CSSOM (not subject to the page's CSP): do the same.
  await page.evaluate((css) => {
    for (const decl of css.replace(/^:root\{|\}$/g, '').split(';')) {
      const i = decl.indexOf(':');
      if (i > 0) document.documentElement.style.setProperty(decl.slice(0, i), decl.slice(i + 1));
    }
  }, THEME);
  await page.waitForFunction(() => (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'));
  const resultsDir = path.join(root, 'test-results');
  return {
    page,
    url: `${origin}/index.html`,
    pageErrors,
    async send(m) {
      await page.evaluate((msg) => window.postMessage(msg, '*'), m as unknown as Record<string, unknown>);
    },
    posted: () => page.evaluate(() => (window as unknown as { __posted: PreviewToHost[] }).__posted),
    clearPosted: () => page.evaluate(() => void ((window as unknown as { __posted: unknown[] }).__posted.length = 0)),
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp),
    async screenshot(name) {
      fs.mkdirSync(resultsDir, { recursive: true });
      const file = path.join(resultsDir, name);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close();
      server.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Loads a built webview page (dist/webview) in headless Debian Chromium through playwright-core, under the same
 * HTML and CSP the extension serves, with a stub of acquireVsCodeApi that hands every posted message to the test.
 * The playground can be wired to a real PlaygroundController + McpSession (a fixture server), so a test drives the
 * webview, the host logic and a live MCP server end to end, minus VS Code itself.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Locator } from 'playwright-core';
import type { HostToWebview, WebviewToHost } from '../../common/playground-messages';
import { playgroundHtml, makeNonce, contentSecurityPolicy } from '../../client/src/playground/html';
import { PlaygroundController, type LanguageModelHost, type MementoLike } from '../../client/src/playground/controller';
import type { McpSession } from '../../client/src/servers/session';
import { CHROMIUM, launchOptions } from '../../scripts/ensure-chromium.mjs';

export const root = path.resolve(__dirname, '..', '..');
const dist = path.join(root, 'dist', 'webview');
const ORIGIN = 'https://webview.toolsmith.test';

let browser: Browser | undefined;

/** One browser per test file; a layer that cannot start Chromium fails loudly. */
export async function launch(): Promise<Browser> {
  if (browser) return browser;
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: the webview layer cannot run (install Debian's chromium).`);
  if (!fs.existsSync(path.join(dist, 'playground.js'))) throw new Error('dist/webview/playground.js is missing: run node esbuild.mjs first.');
  // launch() gives the browser a fresh temporary profile (its own --user-data-dir).
  browser = await chromium.launch(launchOptions());
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

/** The launch of the pinned server-everything the webview tests talk to (installed by scripts/prepare-webview.mjs). */
export function everythingLaunch(env?: Record<string, string>): { command: string; args: string[]; cwd: string; env?: Record<string, string> } {
  const entry = path.join(root, '.cache', 'server-everything', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  if (!fs.existsSync(entry)) throw new Error(`server-everything is not installed at ${entry}: run node scripts/ensure-everything.mjs`);
  return { command: process.execPath, args: [entry, 'stdio'], cwd: root, ...(env ? { env } : {}) };
}

export class MapMemento implements MementoLike {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    const v = this.data.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

export interface WebviewPage {
  page: Page;
  context: BrowserContext;
  html: string;
  csp: string;
  /** Every message the webview posted, in order. */
  posted: WebviewToHost[];
  /** CSP violations reported by the page, and page errors. */
  cspViolations: string[];
  pageErrors: string[];
  send(message: HostToWebview): Promise<void>;
  /** Resolves with the next posted message of that type (or one already posted after `since`). */
  waitForPosted<T extends WebviewToHost['type']>(type: T, since?: number): Promise<Extract<WebviewToHost, { type: T }>>;
  onPosted: ((m: WebviewToHost) => void | Promise<void>) | undefined;
  close(): Promise<void>;
}

/** Opens dist/webview/<name>.js in a page served under the extension's CSP. */
export async function openWebview(name: 'playground', options: { state?: unknown; timezoneId?: string } = {}): Promise<WebviewPage> {
  const b = await launch();
  const context = await b.newContext({ timezoneId: options.timezoneId ?? 'UTC', viewport: { width: 1000, height: 1400 } });
  const nonce = makeNonce();
  const html = playgroundHtml({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/${name}.js`,
    styleUri: `${ORIGIN}/${name}.css`,
    codiconUri: `${ORIGIN}/codicon.css`,
    title: 'Playground',
  });
  await context.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/index.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    const file = path.join(dist, path.basename(url.pathname));
    if (!fs.existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : file.endsWith('.ttf') ? 'font/ttf' : 'application/octet-stream';
    return route.fulfill({ status: 200, contentType: type, body: fs.readFileSync(file) });
  });
  const page = await context.newPage();
  const wp: WebviewPage = {
    page,
    context,
    html,
    csp: contentSecurityPolicy({ cspSource: ORIGIN, nonce }),
    posted: [],
    cspViolations: [],
    pageErrors: [],
    onPosted: undefined,
    async send(message) {
      await page.evaluate((m) => window.postMessage(m, '*'), message as unknown as Record<string, unknown>);
    },
    async waitForPosted(type, since = 0) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const hit = wp.posted.slice(since).find((m) => m.type === type);
        if (hit) return hit as never;
        if (Date.now() > deadline) throw new Error(`the webview posted no "${type}" message (posted: ${wp.posted.map((m) => m.type).join(', ')})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      await context.close();
    },
  };
  page.on('pageerror', (e) => wp.pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) wp.cspViolations.push(m.text());
  });
  await page.exposeFunction('__toolsmithPosted', async (m: WebviewToHost) => {
    wp.posted.push(m);
    await wp.onPosted?.(m);
  });
  // A string, not a function: tsx would wrap a function's inner names in helpers the page does not have.
  await page.addInitScript({
    content: `(() => {
      let state = ${JSON.stringify(options.state ?? null)} ?? undefined;
      document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI));
      window.acquireVsCodeApi = () => ({
        postMessage: (m) => window.__toolsmithPosted(m),
        getState: () => state,
        setState: (s) => { state = s; window.__state = s; },
      });
    })();`,
  });
  return wp;
}

/** Navigates; the webview posts "ready" once its script ran. */
export async function load(wp: WebviewPage): Promise<void> {
  await wp.page.goto(`${ORIGIN}/index.html`);
  await wp.waitForPosted('ready');
}

/** Wires a page to a real controller and session: the webview talks to a live MCP server. */
export async function openPlayground(
  session: McpSession,
  opts: {
    memento?: MapMemento;
    state?: unknown;
    timeoutMs?: number;
    clipboard?: () => string;
    saveFile?: (name: string, content: Uint8Array) => Promise<string | undefined>;
    languageModel?: LanguageModelHost;
  } = {},
) {
  const wp = await openWebview('playground', { state: opts.state });
  const copied: string[] = [];
  const memento = opts.memento ?? new MapMemento();
  const controller = new PlaygroundController('fixture', 'fixture server', session, {
    post: (m) => void wp.send(m).catch(() => undefined),
    copy: async (t) => void copied.push(t),
    readClipboard: async () => opts.clipboard?.() ?? '',
    memento,
    timeoutMs: () => opts.timeoutMs ?? 10_000,
    start: async (restart) => (restart ? session.restart() : session.start()),
    saveFile: opts.saveFile,
    languageModel: opts.languageModel,
  });
  wp.onPosted = (m) => controller.handle(m);
  await load(wp);
  await wp.page.locator('.tool-picker').waitFor();
  return { wp, controller, copied, memento, page: wp.page };
}

// ---- driving the form like a person ----------------------------------------------------------------------------

export function field(page: Page, p: string): Locator {
  return page.locator(`.field[data-path="${p}"]`).first();
}
export function control(page: Page, p: string): Locator {
  return page.locator(`.field[data-path="${p}"] > .control`).first();
}

export async function fill(page: Page, p: string, text: string): Promise<void> {
  await control(page, p).locator('vscode-textfield input').first().fill(text);
}

/**
 * Picks an option of a vscode-single-select by its visible text, as a person would: open it with the mouse, then
 * move with the arrow keys and press Enter (long lists scroll inside the element's own scroll box).
 */
export async function choose(select: Locator, label: string): Promise<void> {
  const options = select.locator('li[role=option]');
  // A click can land while the webview re-renders the picker (a list_changed refresh): the list then stays closed, as
  // it would for a person, who clicks again. Three tries, then the usual timeout error.
  for (let attempt = 1; ; attempt++) {
    await select.click();
    try {
      await options.first().waitFor({ timeout: attempt < 3 ? 10_000 : 30_000 });
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
  const texts = (await options.allTextContents()).map((t) => t.trim());
  const target = texts.indexOf(label);
  if (target < 0) throw new Error(`no option "${label}" in [${texts.join(', ')}]`);
  // Keyboard moves start at the active option, or the selected one when none is active yet.
  const [active, selected] = await options.evaluateAll((els) => [els.findIndex((e) => e.classList.contains('active')), els.findIndex((e) => e.getAttribute('aria-selected') === 'true')]);
  const from = active >= 0 ? active : Math.max(0, selected);
  for (let i = from; i < target; i++) await select.press('ArrowDown');
  for (let i = from; i > target; i--) await select.press('ArrowUp');
  await select.press('Enter');
}

export async function chooseIn(page: Page, p: string, label: string): Promise<void> {
  await choose(control(page, p).locator('vscode-single-select').first(), label);
}

export async function tick(page: Page, p: string, label: string): Promise<void> {
  await control(page, p).locator('vscode-checkbox').filter({ hasText: label }).first().click();
}

export async function selectTool(page: Page, name: string): Promise<void> {
  await choose(page.locator('.tool-picker'), name);
  await page.locator(`.tool-head`).filter({ hasText: name }).waitFor();
}

/** Clicks Call and returns the posted call message. */
export async function call(wp: WebviewPage, which = 'call'): Promise<Extract<WebviewToHost, { type: 'call' }>> {
  const since = wp.posted.length;
  await wp.page.locator(`vscode-button[data-action="${which}"]`).first().click();
  return wp.waitForPosted('call', since);
}

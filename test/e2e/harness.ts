/**
 * End-to-end harness: a real VS Code workbench (code-server 4.139.x under Node 24) with the packaged extension
 * installed, driven in headless Debian Chromium through playwright-core — as a person would use it.
 *
 *   const wb = await startWorkbench({ workspace: examplesDir, trusted: true });
 *   await wb.openFile('helpdesk-ts/src/server.ts');
 *   await wb.runCommand('Toolsmith: Preview Contract');
 *   await wb.screenshot('preview');
 *   await wb.stop();
 *
 * scripts/prepare-e2e.mjs installs code-server/Chromium and packages the .vsix this harness installs.
 * Every wait has a timeout and fails with what the workbench showed, never silently.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { after } from 'node:test';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
// The .mjs helpers are shared with the demo script; tsx loads them directly.
import { ensureCodeServer } from '../../scripts/ensure-code-server.mjs';
import { launchOptions } from '../../scripts/ensure-chromium.mjs';

export const root = path.resolve(__dirname, '../..');
export const examplesDir = path.join(root, 'examples');
export const resultsDir = path.join(root, 'test-results');
/** Where scripts/prepare-e2e.mjs puts the packaged extension (TOOLSMITH_E2E_VSIX: another one, for every test). */
export const e2eVsix = process.env.TOOLSMITH_E2E_VSIX || path.join(root, '.cache', 'e2e', 'toolsmith.vsix');
/** The extension's LogOutputChannel (client/src/extension.ts). */
export const EXTENSION_LOG_NAME = 'Toolsmith Language Server';

export interface WorkbenchOptions {
  /** Folder opened in the workbench. */
  workspace: string;
  /** true: --disable-workspace-trust (trusted). false: Restricted Mode, as a fresh untrusted folder opens. */
  trusted: boolean;
  /** .vsix to install; defaults to the one prepare-e2e.mjs packaged. */
  vsix?: string;
  /** Extra user settings (merged over quiet defaults). */
  settings?: Record<string, unknown>;
  /** Browser viewport; defaults to 1440x900. */
  viewport?: { width: number; height: number };
}

const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  // Untrusted runs stay in Restricted Mode without a modal dialog hiding the workbench.
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'always',
  // The checkout's own .git sits above examples/: no prompt about it.
  'git.openRepositoryInParentFolders': 'never',
  // The walkthrough would open over the editors of tests that are not about it (test/e2e/walkthrough.test.ts is).
  'toolsmith.walkthrough.openOnStartup': false,
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      if (address && typeof address === 'object') {
        const port = address.port;
        srv.close(() => resolve(port));
      } else reject(new Error('could not get a free port'));
    });
  });
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined, intervalMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

function findFiles(dir: string, match: (name: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findFiles(full, match));
    else if (match(entry.name)) out.push(full);
  }
  return out;
}

/**
 * Puts the extension, installed by code-server's own `--install-extension`, into `extensionsDir`. The install runs once
 * per .vsix (keyed by its size and mtime) into .cache/e2e/installed-<key>; each workbench gets a copy, with the
 * absolute paths code-server wrote into extensions.json moved to the copy — a workbench start then costs no install.
 */
function copyInstalledExtension(vsix: string, extensionsDir: string, install: (dir: string) => void): void {
  const st = fs.statSync(vsix);
  const template = path.join(path.dirname(e2eVsix), `installed-${st.size}-${Math.round(st.mtimeMs)}`);
  if (!fs.existsSync(path.join(template, '.complete'))) {
    const building = `${template}.${process.pid}.tmp`;
    fs.rmSync(building, { recursive: true, force: true });
    fs.mkdirSync(building, { recursive: true });
    install(building);
    rewriteExtensionPaths(building, template);
    fs.writeFileSync(path.join(building, '.complete'), vsix);
    // Another test process may have finished first: either copy is a whole install.
    fs.rmSync(template, { recursive: true, force: true });
    fs.renameSync(building, template);
  }
  fs.cpSync(template, extensionsDir, { recursive: true });
  fs.rmSync(path.join(extensionsDir, '.complete'), { force: true });
  rewriteExtensionPaths(extensionsDir, extensionsDir, template);
}

/** extensions.json names each extension's folder by absolute path: point it at `to` (from `from`, default: where it is). */
function rewriteExtensionPaths(dir: string, to: string, from = dir): void {
  const manifest = path.join(dir, 'extensions.json');
  if (!fs.existsSync(manifest)) return;
  fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').split(from).join(to));
}

export class Workbench {
  private constructor(
    private readonly serverOutput: () => string,
    readonly page: Page,
    readonly browser: Browser,
    readonly server: ChildProcess,
    readonly port: number,
    readonly url: string,
    readonly userDataDir: string,
    readonly extensionsDir: string,
    readonly tmpDir: string,
    readonly options: WorkbenchOptions,
  ) {}

  /** Everything code-server printed so far, for failure messages. */
  get output(): string {
    return this.serverOutput();
  }

  /** Starts code-server with the extension installed and opens the workspace in headless Chromium. */
  static async start(options: WorkbenchOptions): Promise<Workbench> {
    const { node, entry } = ensureCodeServer();
    const vsix = options.vsix ?? e2eVsix;
    if (!fs.existsSync(vsix)) throw new Error(`${vsix} is missing: run "node scripts/prepare-e2e.mjs" (the e2e layer does) first.`);
    if (!fs.existsSync(options.workspace)) throw new Error(`workspace ${options.workspace} does not exist`);

    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-e2e-'));
    const userDataDir = path.join(tmpDir, 'user-data');
    const extensionsDir = path.join(tmpDir, 'extensions');
    const configFile = path.join(tmpDir, 'config.yaml');
    fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
    fs.mkdirSync(extensionsDir, { recursive: true });
    fs.writeFileSync(configFile, ''); // keeps code-server from writing ~/.config/code-server/config.yaml
    fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2));
    // Everything code-server would write under $HOME stays in the temporary folder.
    const env = {
      ...process.env,
      HOME: process.env.HOME ?? tmpDir,
      XDG_CONFIG_HOME: path.join(tmpDir, 'xdg-config'),
      XDG_DATA_HOME: path.join(tmpDir, 'xdg-data'),
      PATH: `${path.dirname(node)}:${process.env.PATH}`,
    };
    const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

    copyInstalledExtension(vsix, extensionsDir, (dir) => {
      const install = spawnSync(node, [entry, '--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', dir, '--install-extension', vsix, '--force'], {
        encoding: 'utf8',
        env,
        timeout: 120_000,
      });
      if (install.status !== 0 || !/successfully installed/i.test(install.stdout + install.stderr)) {
        throw new Error(`installing ${vsix} into code-server failed (exit ${install.status}):\n${install.stdout}\n${install.stderr}`);
      }
    });

    const port = await freePort();
    const args = [
      entry,
      ...common,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-getting-started-override',
      '--ignore-last-opened',
    ];
    if (options.trusted) args.push('--disable-workspace-trust');
    args.push(options.workspace);
    // detached: its own process group, so stop() ends code-server and the extension hosts it started.
    const server = spawn(node, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    server.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    let serverExit: number | null | undefined;
    void exited.then((code) => (serverExit = code));

    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(options.workspace)}`;
    let browser: Browser | undefined;
    try {
      await waitFor('code-server to listen', 90_000, async () => {
        if (serverExit !== undefined) throw new Error(`code-server exited with ${serverExit}:\n${output}`);
        const r = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        return r?.ok ? true : undefined;
      });
      browser = await chromium.launch(launchOptions());
      const page = await browser.newPage({ viewport: options.viewport ?? { width: 1440, height: 900 } });
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
      // The activity bar is the last part the workbench lays out.
      await page.locator('.activitybar').first().waitFor({ state: 'visible', timeout: 60_000 });
      return new Workbench(() => output, page, browser, server, port, url, userDataDir, extensionsDir, tmpDir, options);
    } catch (err) {
      await browser?.close().catch(() => {});
      killGroup(server);
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- code-server output ---\n${output.slice(-4000)}`, { cause: err });
    }
  }

  /** Runs a command from the palette (F1), typing its title as a person would, e.g. "Toolsmith: Preview Contract". */
  async runCommand(title: string): Promise<void> {
    const { page } = this;
    await this.dismissModals();
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(`>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ state: 'visible', timeout: 15_000 });
    } catch {
      const shown = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
      await page.keyboard.press('Escape');
      throw new Error(`command "${title}" is not in the palette; it shows: ${JSON.stringify(shown.slice(0, 10))}`);
    }
    await row.click();
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 15_000 })
      .catch(() => {});
  }

  /** Opens a workspace file through Quick Open (Ctrl+P) and waits for its editor tab. */
  async openFile(relPath: string): Promise<void> {
    const { page } = this;
    const full = path.join(this.options.workspace, relPath);
    if (!fs.existsSync(full)) throw new Error(`${relPath} does not exist in ${this.options.workspace}`);
    await this.dismissModals();
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(relPath);
    const base = path.basename(relPath);
    const dir = path.dirname(relPath);
    // Pick the row whose label and folder match, not just the first fuzzy hit.
    const rows = page.locator('.quick-input-list .monaco-list-row', { hasText: base });
    await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
    const count = await rows.count();
    let clicked = false;
    for (let i = 0; i < count; i++) {
      const text = await rows.nth(i).innerText();
      if (dir === '.' || text.replace(/\\/g, '/').includes(dir)) {
        await rows.nth(i).click();
        clicked = true;
        break;
      }
    }
    if (!clicked) await rows.first().click();
    await page.locator(`.tabs-container .tab[data-resource-name="${base}"], .tabs-container .tab[aria-label^="${base}"]`).first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ state: 'visible', timeout: 20_000 });
  }

  /** Clicks an activity-bar item by its label (e.g. "MCP Toolsmith") and returns the side bar locator. */
  async openViewContainer(label: string) {
    const item = this.page.locator(`.activitybar .action-item a[aria-label^="${label}"], .activitybar .action-item[aria-label^="${label}"]`).first();
    await item.waitFor({ state: 'visible', timeout: 30_000 });
    const sidebar = this.page.locator('.part.sidebar');
    const title = sidebar.locator('.composite.title .title-label');
    // Clicking an already open container would close it.
    const open = (await sidebar.isVisible()) && (await title.innerText().catch(() => '')).toUpperCase().includes(label.toUpperCase());
    if (!open) await item.click();
    await waitFor(`the "${label}" side bar`, 15_000, async () => (await title.innerText().catch(() => '')).toUpperCase().includes(label.toUpperCase()) || undefined);
    return sidebar;
  }

  /**
   * Waits until the open side bar shows the view `name`: as the container title "<container>: <name>" while it is
   * the container's only view, or as its own section header once there are several.
   */
  async waitForView(name: string): Promise<void> {
    const sidebar = this.page.locator('.part.sidebar');
    await waitFor(`the "${name}" view`, 30_000, async () => {
      const title = (
        await sidebar
          .locator('.composite.title .title-label')
          .innerText()
          .catch(() => '')
      ).toUpperCase();
      if (title.endsWith(`: ${name.toUpperCase()}`)) return true;
      return (await sidebar.locator(`.pane-header:not(.hidden)[aria-label^="${name} Section"]`).isVisible()) || undefined;
    });
  }

  /** Saves a full-page screenshot to test-results/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** The log files of the extension's LogOutputChannel, written by the remote extension host. */
  extensionLogFiles(): string[] {
    return findFiles(path.join(this.userDataDir, 'logs'), (n) => n.includes(EXTENSION_LOG_NAME));
  }

  /** The text of the extension's log ("" while the channel has not been created). */
  readExtensionLog(): string {
    return this.extensionLogFiles()
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
  }

  /** The text of an output channel (e.g. "MCP: helpdesk"), from the file the extension host keeps under the logs folder. */
  readOutputChannel(...nameParts: string[]): string {
    return findFiles(path.join(this.userDataDir, 'logs'), (n) => nameParts.every((p) => n.includes(p)))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
  }

  /** Waits until the extension log matches `pattern`; returns the match. */
  async waitForLog(pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> {
    try {
      return await waitFor(`extension log to match ${pattern}`, timeoutMs, () => this.readExtensionLog().match(pattern) ?? undefined);
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- extension log ---\n${this.readExtensionLog()}\n--- extension host errors ---\n${this.extensionHostErrors()}`, { cause: err });
    }
  }

  /** "[error]" entries of the extension host logs (e.g. "Activating extension ... failed"), each with its first lines. */
  extensionHostErrors(): string {
    const out: string[] = [];
    for (const f of findFiles(path.join(this.userDataDir, 'logs'), (n) => /exthost/i.test(n))) {
      const lines = fs.readFileSync(f, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (line.includes('[error]')) out.push(`${path.basename(f)}: ${[line, ...lines.slice(i + 1, i + 4).filter((l) => !/^\d{4}-/.test(l))].join('\n')}`);
      });
    }
    return out.slice(0, 20).join('\n') || '(none)';
  }

  /** Closes any modal dialog (e.g. a trust prompt) that would swallow keyboard input. */
  async dismissModals(): Promise<void> {
    const dialog = this.page.locator('.monaco-dialog-box');
    if (await dialog.isVisible().catch(() => false)) await this.page.keyboard.press('Escape');
  }

  /** Texts of the notifications currently shown (toasts). */
  async notifications(): Promise<string[]> {
    return this.page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
  }

  /** Closes the browser, ends code-server with everything it started and removes the temporary folders. */
  async stop(): Promise<void> {
    await this.browser.close().catch(() => {});
    killGroup(this.server);
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  const pid = child.pid;
  // Extension hosts may linger; make sure the whole group is gone.
  setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 2000).unref();
}

export const startWorkbench = (options: WorkbenchOptions) => Workbench.start(options);

/** The document of the active webview (preview, playground) inside VS Code's two webview iframes. */
export function activeWebviewFrame(w: Workbench): FrameLocator {
  return w.page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

/** Polls `probe` every 200 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function until(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** An example file a test file edits, with its text from before the edits. */
export interface EditedExample {
  file: string;
  original: string;
  /** Writes the original text back (also done after the test file's tests, whatever happened). */
  restore: () => void;
}

/**
 * For test files that edit a file of examples/ (by default helpdesk-ts/src/server.ts): reads its text now and puts
 * it back once the file's tests are done, whatever happened. Call it at the top level of the test file.
 */
export function editsExample(relPath = 'helpdesk-ts/src/server.ts'): EditedExample {
  const file = path.join(examplesDir, relPath);
  const original = fs.readFileSync(file, 'utf8');
  const restore = () => fs.writeFileSync(file, original);
  after(restore);
  return { file, original, restore };
}

/** The 1-based number of the first line of `text` containing `needle` (fails when there is none). */
export function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`${JSON.stringify(needle)} not found`);
  return i + 1;
}

/** Expands a collapsed tree row through its twistie, until the tree says it is expanded. */
export async function expandTreeRow(row: Locator): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await row.getAttribute('aria-expanded')) !== 'true') {
    if (Date.now() > deadline) throw new Error(`could not expand "${await row.innerText()}"`);
    await row.locator('.monaco-tl-twistie').click();
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Opens the MCP Toolsmith container's Servers view: its sidebar and a finder for its rows by label. */
export async function openServersView(w: Workbench) {
  const sidebar = await w.openViewContainer('MCP Toolsmith');
  await w.waitForView('Servers');
  return { sidebar, row: (label: string | RegExp) => sidebar.locator('.monaco-list-row', { hasText: label }).first() };
}

/**
 * A step runner for a test file: when a step fails, a screenshot `<prefix>-<name>` keeps what the workbench showed.
 * `current` reads the file's workbench at the moment of failure (tests start and stop their own).
 */
export function screenshotOnFailure(current: () => Workbench | undefined, prefix: string) {
  return async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      await current()
        ?.screenshot(`${prefix}-${name}`)
        .catch(() => undefined);
      throw err;
    }
  };
}

/**
 * The playground and Preview Contract share one server process, in a real workbench (code-server) on examples/: the
 * Servers view starts helpdesk (.vscode/mcp.json names its file as ${workspaceFolder}/helpdesk-ts/src/server.ts),
 * then Preview Contract on close_ticket shows the live comparison with that running server at once — no "Start the
 * server" prompt — and comparing again starts nothing: one "starting:" line in the server's output channel, one
 * server process. Screenshot: test-results/preview-playground-session.png.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { startWorkbench, examplesDir, type Workbench, until, lineOf, openServersView, screenshotOnFailure } from './harness';

const serverFile = path.join(examplesDir, 'helpdesk-ts', 'src', 'server.ts');
let wb: Workbench | undefined;

after(async () => {
  await wb?.stop();
});

const step = screenshotOnFailure(() => wb, 'preview-playground-session-failed');

/** The webview frame (playground or preview: both are open) whose document has `selector`. */
async function webviewWith(w: Workbench, selector: string, timeoutMs: number): Promise<Frame> {
  let found: Frame | undefined;
  await until(`a webview showing ${selector}`, timeoutMs, async () => {
    for (const f of w.page.frames()) {
      if (
        (await f
          .locator(selector)
          .count()
          .catch(() => 0)) > 0
      ) {
        found = f;
        return true;
      }
    }
    return false;
  });
  return found!;
}

/**
 * Server processes running `file`, counted once per process tree: tsx runs the file in a child node process whose
 * command line names it too.
 */
function serverProcesses(file: string): number[] {
  const running = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!args.includes(file)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      running.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return [...running].filter(([, parent]) => !running.has(parent)).map(([pid]) => pid);
}

const startingLines = (w: Workbench) => w.readOutputChannel('MCP', 'helpdesk').match(/\] starting: /g)?.length ?? 0;

test('Preview Contract compares with the server the playground runs: no Start prompt, one process', { timeout: 600_000 }, () =>
  step('shared-session', async () => {
    assert.deepEqual(serverProcesses(serverFile), [], 'no helpdesk server runs before the test');
    wb = await startWorkbench({ workspace: examplesDir, trusted: true, vsix: process.env.TOOLSMITH_E2E_VSIX });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const { page } = wb;

    // The playground starts helpdesk from the Servers view.
    const { sidebar, row } = await openServersView(wb);
    await row('helpdesk').waitFor({ state: 'visible', timeout: 60_000 });
    await row('helpdesk').click();
    await sidebar
      .locator('.monaco-list-row', { hasText: /running · helpdesk 0\.1\.0/ })
      .first()
      .waitFor({ timeout: 90_000 });
    await webviewWith(wb, '.status[data-status="running"]', 60_000);
    assert.equal(startingLines(wb), 1);
    assert.equal(serverProcesses(serverFile).length, 1, 'the playground runs one server');

    // Preview Contract with the cursor in close_ticket.
    await wb.openFile('helpdesk-ts/src/server.ts');
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input.input').fill(`:${lineOf(fs.readFileSync(serverFile, 'utf8'), "'Closes a helpdesk ticket")}`);
    await page.keyboard.press('Enter');
    await wb.runCommand('Toolsmith: Preview Contract');
    const preview = await webviewWith(wb, 'h1.tool-name', 60_000);
    assert.equal(await preview.locator('h1.tool-name').innerText(), 'close_ticket');

    // The live comparison is there without a click: the playground's session is the preview's live source.
    await preview.locator('.live-summary', { hasText: 'matches the running server exactly' }).waitFor({ timeout: 60_000 });
    assert.equal(await preview.locator('.live').getAttribute('data-live-state'), 'running');
    const liveText = await preview.locator('vscode-collapsible[data-section="live"]').innerText();
    assert.doesNotMatch(liveText, /Start the server|not running/);
    await preview.locator('vscode-collapsible[data-section="live"]').scrollIntoViewIfNeeded();
    await wb.screenshot('preview-playground-session');

    // Comparing again reads the same session: nothing is started.
    await preview.locator('[data-action="compare"]').click();
    await preview.locator('.live-summary', { hasText: 'matches the running server exactly' }).waitFor({ timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(startingLines(wb), 1, `one "starting:" line:\n${wb.readOutputChannel('MCP', 'helpdesk')}`);
    assert.equal(serverProcesses(serverFile).length, 1, 'one server process for the playground and the preview');
  }),
);

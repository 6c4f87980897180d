/**
 * The playground from the source, in a real workbench (code-server) on examples/: the "Run in playground" CodeLens
 * above close_ticket starts the helpdesk server and opens the form of THAT tool; then, with
 * toolsmith.playground.restartOnSave on, saving an edit of server.ts restarts the session, which then publishes the
 * edited contract. Screenshots: test-results/playground-codelens.png, playground-restart-on-save.png.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { startWorkbench, examplesDir, type Workbench, activeWebviewFrame, until, editsExample, lineOf, screenshotOnFailure } from './harness';

// The tests edit the example server: put back once they are done, whatever happened.
const { file: serverFile, original, restore } = editsExample();
let wb: Workbench | undefined;

after(async () => {
  await wb?.stop();
});

const playgroundFrame = activeWebviewFrame;

const step = screenshotOnFailure(() => wb, 'playground-failed');

async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input.input').fill(`:${line}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
}

const editor = (page: Page) => page.locator('.editor-instance .monaco-editor').first();

/**
 * The CodeLens line right above the registration whose first line holds `needle`: lenses are view zones, so the
 * one that belongs to a tool is the last lens drawn above that tool's name line.
 */
async function lensAbove(page: Page, needle: string): Promise<Locator> {
  const nameLine = editor(page).locator('.view-line', { hasText: needle }).first();
  const lenses = editor(page).locator('.codelens-decoration', { hasText: 'Run in playground' });
  let index = -1;
  await until(`a "Run in playground" CodeLens above ${needle}`, 60_000, async () => {
    const target = await nameLine.boundingBox({ timeout: 1_000 });
    if (!target) return false;
    index = -1;
    let best = -Infinity;
    for (let i = 0; i < (await lenses.count()); i++) {
      const box = await lenses.nth(i).boundingBox({ timeout: 1_000 });
      if (box && box.y < target.y && box.y > best) {
        best = box.y;
        index = i;
      }
    }
    // The lens sits at most two lines above the name (registerTool( then the name).
    return index >= 0 && target.y - best < 3 * target.height + 4;
  });
  return lenses.nth(index);
}

test('"Run in playground" above close_ticket starts the server and opens close_ticket\'s form', { timeout: 180_000 }, () =>
  step('codelens', async () => {
    const t0 = Date.now();
    wb = await startWorkbench({
      workspace: examplesDir,
      trusted: true,
      vsix: process.env.TOOLSMITH_E2E_VSIX,
      // Auto-save off (code-server's web default saves after a delay): the restart must come from the explicit save.
      settings: { 'toolsmith.playground.restartOnSave': true, 'files.autoSave': 'off' },
    });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const started = Date.now();
    const { page } = wb;

    await wb.openFile('helpdesk-ts/src/server.ts');
    // close_ticket is the last of three tools: its lens is neither the first one nor the only one.
    await goToLine(page, lineOf(original, "'close_ticket',"));
    const lens = await lensAbove(page, "'close_ticket',");
    assert.match(await lens.innerText(), /Preview contract\s*\|\s*Run in playground/);
    await lens.locator('a', { hasText: 'Run in playground' }).click();

    // The server was stopped: the lens starts it, then the form of that very tool shows.
    const frame = playgroundFrame(wb);
    await frame.locator('.status[data-status="running"]').waitFor({ timeout: 60_000 });
    await frame.locator('.tool-head', { hasText: 'close_ticket' }).waitFor({ timeout: 30_000 });
    assert.match(await frame.locator('.tool-head').innerText(), /Close a ticket\s*close_ticket\s*Medium risk/);
    assert.equal(await frame.locator('.field[data-path="/resolution"]').count(), 1, "close_ticket's own parameters");
    assert.equal(await frame.locator('.field[data-path="/text"]').count(), 0, 'not the first tool (query)');
    assert.match(await frame.locator('header.server').innerText(), /helpdesk 0\.1\.0/);
    await page.locator('.tabs-container .tab.active', { hasText: 'Playground: helpdesk' }).waitFor({ timeout: 10_000 });
    await wb.screenshot('playground-codelens');
    console.log(`codelens: workbench ${((started - t0) / 1000).toFixed(1)} s, lens -> form ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }),
);

test('restartOnSave: saving an edit of server.ts restarts the session, which publishes the edited tool', { timeout: 120_000 }, () =>
  step('restart-on-save', async () => {
    assert.ok(wb, 'the workbench of the first test');
    const t0 = Date.now();
    const { page } = wb;
    const frame = playgroundFrame(wb);
    await frame.locator('.status[data-status="running"]').waitFor({ timeout: 10_000 });
    assert.doesNotMatch(await frame.locator('.tool-head .description').innerText(), /Saved from the e2e test/);
    // The session logs "running" before it lists the tools, so the count there is not asserted.
    const pidLine = /\] running: helpdesk 0\.1\.0, protocol [\d-]+/g;
    const before = (serverLog(wb).match(pidLine) ?? []).length;

    // Edit close_ticket's description in the editor, as a person would, and save.
    await page.locator('.tabs-container .tab', { hasText: 'server.ts' }).click();
    const needle = 'Returns a confirmation line with the ticket id.';
    await goToLine(page, lineOf(original, needle));
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft'); // before ,
    await page.keyboard.press('ArrowLeft'); // before '
    await page.keyboard.type(' Saved from the e2e test.');
    // Typed but not saved: no restart yet.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(fs.readFileSync(serverFile, 'utf8'), original);
    assert.doesNotMatch(serverLog(wb), /saved: restarting/);
    await page.keyboard.press('Control+S');
    await until('server.ts to be saved on disk', 15_000, async () => fs.readFileSync(serverFile, 'utf8').includes('the ticket id. Saved from the e2e test.'));
    const savedAt = Date.now();

    // The session restarts on its own: its output channel says why, and the new process lists the edited tool.
    await until('"server.ts saved: restarting" in the MCP: helpdesk output channel', 20_000, async () => /server\.ts saved: restarting/.test(serverLog(wb!)));
    const restarted = /stopped\n[\s\S]*starting: [\s\S]*\] running: helpdesk 0\.1\.0, protocol [\d-]+\n[\s\S]*tools\/list: 3 tools \(query, add_note, close_ticket\)/;
    await until('the restart in the server log: stopped, starting, running, tools listed', 30_000, async () => {
      const log = serverLog(wb!);
      return (log.match(pidLine) ?? []).length > before && restarted.test(log.slice(log.lastIndexOf('server.ts saved: restarting')));
    }).catch((err) => {
      throw new Error(`${(err as Error).message}\n--- MCP: helpdesk ---\n${serverLog(wb!)}`);
    });
    await page.locator('.tabs-container .tab', { hasText: 'Playground: helpdesk' }).click();
    await frame.locator('.tool-head .description', { hasText: 'Saved from the e2e test.' }).waitFor({ timeout: 30_000 });
    await frame.locator('.status[data-status="running"]').waitFor({ timeout: 10_000 });
    // Still close_ticket's form after the restart.
    assert.match(await frame.locator('.tool-head').innerText(), /close_ticket/);
    // The panel's Log button shows the server's output channel, where the restart reads as it happened.
    await frame.locator('vscode-button[data-action="show-log"]').click();
    await page.locator('.part.panel .view-lines', { hasText: 'server.ts saved: restarting' }).waitFor({ timeout: 15_000 });
    await wb.screenshot('playground-restart-on-save');
    console.log(`restart-on-save: save -> restarted ${((Date.now() - savedAt) / 1000).toFixed(1)} s, test ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    restore();
  }),
);

/** The text of the "MCP: helpdesk" output channel. */
const serverLog = (w: Workbench): string => w.readOutputChannel('MCP', 'helpdesk');

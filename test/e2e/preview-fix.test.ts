/**
 * The preview's "Fix" button in a real workbench (code-server) on examples/: Preview Contract on query, whose `limit`
 * counts things but is a decimal number; "Fix" on that finding applies the language server's quick fix to the file
 * (.int()), the finding leaves the preview and the contract says integer. Screenshot: test-results/preview-fix.png.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { startWorkbench, examplesDir, type Workbench, activeWebviewFrame, editsExample, lineOf } from './harness';

// The tests edit the example server: put back once they are done, whatever happened.
const { file: serverFile, original, restore } = editsExample();
let wb: Workbench | undefined;

after(async () => {
  await wb?.stop();
});

const previewFrame = activeWebviewFrame;

test('"Fix" on a finding in the preview applies the quick fix to the file and the finding goes away', { timeout: 180_000 }, async () => {
  try {
    const t0 = Date.now();
    // code-server (VS Code for the web) saves after a delay by default; the desktop default (off) keeps "the fix is
    // in the editor" apart from "the file is saved".
    wb = await startWorkbench({
      workspace: examplesDir,
      trusted: true,
      vsix: process.env.TOOLSMITH_E2E_VSIX,
      settings: {
        'files.autoSave': 'off',
        // The finding this test fixes (param-number-should-be-integer) is a strict-only rule.
        'toolsmith.preset': 'strict',
      },
    });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const started = Date.now();
    const { page } = wb;

    await wb.openFile('helpdesk-ts/src/server.ts');
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input.input').fill(`:${lineOf(original, "'Searches the tickets.'")}`);
    await page.keyboard.press('Enter');
    await wb.runCommand('Toolsmith: Preview Contract');

    const frame = previewFrame(wb);
    await frame.locator('h1.tool-name', { hasText: 'query' }).waitFor({ state: 'visible', timeout: 60_000 });
    const finding = frame.locator('li.finding[data-rule="param-number-should-be-integer"]');
    await finding.waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await finding.innerText(), /"limit" of "query" counts things but is typed as a decimal number/);
    const limitRow = frame.locator('tr[data-param="inputSchema.properties.limit"]');
    assert.match(await limitRow.innerText(), /^limit\s+number/);
    const findingsBefore = await frame.locator('li.finding').count();
    const jsonBefore = JSON.parse(await frame.locator('pre.contract-json').innerText()) as { inputSchema: { properties: { limit: object } } };
    assert.deepEqual(jsonBefore.inputSchema.properties.limit, { type: 'number', default: 10 });

    await finding.locator('[data-action="fix"]').click();

    // The language server's fix lands in the document; the preview follows it: the finding is gone, limit is integer.
    await finding.waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(await frame.locator('li.finding').count(), findingsBefore - 1, 'only that finding went away');
    assert.match(await limitRow.innerText(), /^limit\s+integer/);
    const jsonAfter = JSON.parse(await frame.locator('pre.contract-json').innerText()) as { inputSchema: { properties: { limit: object } } };
    assert.deepEqual(jsonAfter.inputSchema.properties.limit, { type: 'integer', default: 10, minimum: -9007199254740991, maximum: 9007199254740991 });
    // The editor shows the edit on limit's line, unsaved (as any quick fix): the tab is dirty, the disk unchanged.
    await page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'limit: z.number().int().default(10),' }).waitFor({ timeout: 10_000 });
    assert.match((await page.locator('.tabs-container .tab', { hasText: 'server.ts' }).getAttribute('class')) ?? '', /\bdirty\b/);
    assert.equal(fs.readFileSync(serverFile, 'utf8'), original);
    await wb.screenshot('preview-fix');
    // Saved, the file on disk has exactly that change.
    await wb.runCommand('File: Save All Files');
    // The save truncates then writes: a read in between sees an empty file, so wait for the whole expected text.
    const expected = original.replace('limit: z.number().default(10)', 'limit: z.number().int().default(10)');
    const deadline = Date.now() + 15_000;
    while (fs.readFileSync(serverFile, 'utf8') !== expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(fs.readFileSync(serverFile, 'utf8'), expected);
    console.log(`preview-fix: workbench ${((started - t0) / 1000).toFixed(1)} s, test after it ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    await wb?.screenshot('preview-failed-fix').catch(() => undefined);
    // What the workbench said (e.g. "No quick fix is available…") tells why a fix did not land.
    console.error(
      `notifications: ${JSON.stringify(await wb?.notifications().catch(() => []))}\nextension log:\n${wb?.readExtensionLog().slice(-3000)}\nextension host errors:\n${wb?.extensionHostErrors()}`,
    );
    throw err;
  } finally {
    restore();
  }
});

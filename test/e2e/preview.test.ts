/**
 * Preview Contract in a real workbench (code-server) on examples/: run the command from the palette with the cursor
 * in a tool, read the panel, compare with the live server, make the server stale by changing the source on disk,
 * restart it from the panel; then the quick pick of every workspace tool, onto a Python tool.
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

test('Preview Contract from the palette, then the live diff of a stale server and its restart', { timeout: 600_000 }, async () => {
  wb = await startWorkbench({ workspace: examplesDir, trusted: true, vsix: process.env.TOOLSMITH_E2E_VSIX });
  await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
  const { page } = wb;

  // The cursor inside close_ticket's registration.
  await wb.openFile('helpdesk-ts/src/server.ts');
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input.input').fill(`:${lineOf(original, "'Closes a helpdesk ticket")}`);
  await page.keyboard.press('Enter');

  await wb.runCommand('Toolsmith: Preview Contract');
  const frame = previewFrame(wb);
  await frame.locator('h1.tool-name').waitFor({ state: 'visible', timeout: 60_000 });
  assert.equal(await frame.locator('h1.tool-name').innerText(), 'close_ticket');
  assert.equal(await frame.locator('.tool-title').innerText(), 'Close a ticket');
  // Declared: not read-only, not destructive, closed world -> Medium.
  assert.equal(await frame.locator('.risk-badge').getAttribute('data-risk'), 'Medium');
  assert.match(await frame.locator('tr[data-param="inputSchema.properties.ticket_id"]').innerText(), /string\s+required[\s\S]*matches \/\^T-\\d\+\$\//);
  assert.ok(Number(await frame.locator('.tokens').getAttribute('data-tokens')) > 50);
  const json = JSON.parse(await frame.locator('pre.contract-json').innerText()) as { name: string; annotations: object };
  assert.equal(json.name, 'close_ticket');
  assert.deepEqual(json.annotations, { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  // close_ticket returns errors as ordinary results: its finding is listed with a way to it.
  await frame.locator('li.finding[data-rule="error-returned-as-success"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  await wb.screenshot('preview-palette');

  // Live: start the server through the panel; the prediction matches it exactly.
  await frame.locator('[data-action="compare"]').click();
  const summary = frame.locator('.live-summary');
  await summary.waitFor({ state: 'visible', timeout: 90_000 });
  await frame.locator('.live-summary', { hasText: 'matches the running server exactly' }).waitFor({ timeout: 90_000 });
  await frame.locator('vscode-collapsible[data-section="live"]').scrollIntoViewIfNeeded();
  await wb.screenshot('preview-live-same');

  // The source changes on disk after the server started: the panel follows it and the running server is stale.
  fs.writeFileSync(serverFile, original.replace("'One sentence on how the problem was solved.'", "'One or two sentences on how the problem was solved.'"));
  const changedRow = frame.locator('tr[data-diff-path="inputSchema.properties.resolution.description"]');
  await changedRow.waitFor({ state: 'visible', timeout: 90_000 });
  assert.match(await changedRow.innerText(), /changed[\s\S]*One or two sentences[\s\S]*One sentence on how/);
  assert.equal(await frame.locator('tr[data-diff-path]').count(), 1);
  assert.match(await frame.locator('li[data-reason="stale"]').innerText(), /saved at .* after the server started/);
  await changedRow.scrollIntoViewIfNeeded();
  await wb.screenshot('preview-live-diff');

  // Restart from the panel: the new server publishes the new description.
  await frame.locator('li[data-reason="stale"] [data-action="restart"]').click();
  await frame.locator('.live-summary', { hasText: 'matches the running server exactly' }).waitFor({ timeout: 90_000 });
  assert.equal(await frame.locator('tr[data-diff-path]').count(), 0);
  await wb.screenshot('preview-live-restarted');
  restore();
});

test('no tool under the cursor: a quick pick of every workspace tool, TypeScript and Python', { timeout: 300_000 }, async () => {
  assert.ok(wb, 'the workbench from the first test');
  const { page } = wb;
  await wb.openFile('helpdesk-ts/src/tickets.ts');
  await wb.runCommand('Toolsmith: Preview Contract');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 30_000 });
  const labels = (await rows.allInnerTexts()).join('\n');
  for (const name of ['query', 'add_note', 'close_ticket', 'grep_docs', 'read_doc']) assert.match(labels, new RegExp(`(^|\\n)${name}(helpdesk-ts|docs-py)/`));
  await wb.screenshot('preview-quickpick');
  await input.fill('read_doc');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'read_doc' }).first().click();
  const frame = previewFrame(wb);
  await frame.locator('h1.tool-name', { hasText: 'read_doc' }).waitFor({ state: 'visible', timeout: 60_000 });
  assert.match(await frame.locator('.meta').innerText(), /official Python SDK/);
  await wb.screenshot('preview-python');
});

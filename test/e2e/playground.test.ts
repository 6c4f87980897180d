/**
 * The playground in a real workbench (code-server) on examples/: open the MCP Toolsmith side bar, start the helpdesk
 * server from the Servers view, open a tool, fill its form, call it and read the result; then the same folder in
 * Restricted Mode launches nothing. Screenshots: test-results/playground-*.png.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { startWorkbench, examplesDir, type Workbench, activeWebviewFrame, openServersView, screenshotOnFailure } from './harness';

let wb: Workbench | undefined;
after(async () => {
  await wb?.stop();
});

const playgroundFrame = activeWebviewFrame;

const step = screenshotOnFailure(() => wb, 'playground-failed');

test('sidebar -> start server -> tool form -> call -> result', { timeout: 600_000 }, () =>
  step('trusted', async () => {
    wb = await startWorkbench({ workspace: examplesDir, trusted: true, vsix: process.env.TOOLSMITH_E2E_VSIX });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const { page } = wb;

    const { sidebar, row } = await openServersView(wb);
    await row('helpdesk').waitFor({ state: 'visible', timeout: 60_000 });
    await row('docs').waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await row('helpdesk').innerText(), /stopped/);
    await wb.screenshot('playground-sidebar');

    // A click on the stopped server starts it and opens its playground.
    await row('helpdesk').click();
    await sidebar
      .locator('.monaco-list-row', { hasText: /running · helpdesk 0\.1\.0/ })
      .first()
      .waitFor({ timeout: 90_000 });
    // Its tools are listed under it by name (short enough for the default width), with the risk level from their
    // annotations as the description.
    await row('query').waitFor({ timeout: 30_000 });
    assert.match(await row('query').innerText(), /query\s*Low/);
    assert.match(await row('add_note').innerText(), /add_note\s*Critical \(assumed\)/);

    const frame = playgroundFrame(wb);
    await frame.locator('.status[data-status="running"]').waitFor({ timeout: 60_000 });
    assert.match(await frame.locator('header.server').innerText(), /helpdesk 0\.1\.0[\s\S]*protocol \d{4}-\d{2}-\d{2}/);
    await wb.screenshot('playground-started');

    // Open a tool from the tree: the form follows. (First move the pointer off the server row, whose hover
    // tooltip would cover the rows below it.)
    await page.mouse.move(900, 700);
    await page.keyboard.press('Escape');
    await row('query').click();
    await frame.locator('.tool-head', { hasText: 'query' }).waitFor({ timeout: 30_000 });
    await frame.locator('.field[data-path="/text"] > .control vscode-textfield input').fill('printer');
    assert.equal(await frame.locator('.field[data-path="/limit"] > .control vscode-textfield input').inputValue(), '10', 'default pre-filled');
    await wb.screenshot('playground-form');

    await frame.locator('vscode-button[data-action="call"]').click();
    const result = frame.locator('.result-host .result');
    await result.waitFor({ timeout: 60_000 });
    assert.equal(await result.getAttribute('data-outcome'), 'ok');
    assert.match(await result.locator('.content.text pre').first().innerText(), /T-\d+|No ticket matches "printer"/);
    await result.locator('details.raw summary').click();
    assert.match(await result.locator('details.raw').innerText(), /"arguments": \{\s*"text": "printer",\s*"limit": 10\s*\}/);
    await wb.screenshot('playground-result');

    // "Go to definition" asks the language server where the tool is registered and opens it.
    await frame.locator('vscode-button[data-action="definition"]').click();
    await page.locator('.tabs-container .tab.active', { hasText: 'server.ts' }).waitFor({ timeout: 60_000 });
    assert.match(await page.locator('.editor-instance .monaco-editor .view-lines').first().innerText(), /registerTool/);
    await page.locator('.tabs-container .tab', { hasText: 'Playground: helpdesk' }).click();

    // Validation before sending: add_note's ticket id must match ^T-\d+$.
    await page.mouse.move(900, 700);
    await row('add_note').click();
    await frame.locator('.tool-head', { hasText: 'add_note' }).waitFor({ timeout: 30_000 });
    await frame.locator('.field[data-path="/ticket_id"] > .control vscode-textfield input').fill('1001');
    await frame.locator('.field[data-path="/note"] > .control vscode-textfield input').fill('Customer called back.');
    await frame.locator('vscode-button[data-action="call"]').click();
    await frame.locator('.field[data-path="/ticket_id"] .error', { hasText: 'must match pattern' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('playground-validation');
  }),
);

test('Restricted Mode: the Servers view says so and nothing is launched', { timeout: 600_000 }, () =>
  step('restricted', async () => {
    await wb?.stop();
    wb = undefined;
    wb = await startWorkbench({ workspace: examplesDir, trusted: false, vsix: process.env.TOOLSMITH_E2E_VSIX });
    await wb.dismissModals();
    const { sidebar } = await openServersView(wb);
    await sidebar.locator('.monaco-list-row', { hasText: 'Restricted Mode: servers are not launched' }).waitFor({ timeout: 60_000 });
    await sidebar.locator('.monaco-list-row', { hasText: 'helpdesk' }).first().click();
    await wb.page.locator('.notification-toast', { hasText: 'not trusted' }).first().waitFor({ timeout: 30_000 });
    assert.match(await sidebar.locator('.monaco-list-row', { hasText: 'helpdesk' }).first().innerText(), /stopped/);
    await wb.screenshot('playground-restricted');
  }),
);

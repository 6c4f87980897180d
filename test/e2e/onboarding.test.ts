/**
 * The first ten minutes, in a real workbench (code-server): the "Get Started with MCP Toolsmith" walkthrough opens
 * by itself on examples/ (a workspace with MCP servers) and each step's button does what it says — a finding with
 * its quick fixes, the contract preview, a started server with a tool called in the playground, the CLI in a
 * terminal. Then the Servers view of a server whose module is missing: a visible Start row, and a failed start
 * whose toast names the cause; and a workspace without mcp.json: the welcome view, and the row that writes one
 * from the detected server. Screenshots: test-results/onboarding-*.png.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorkbench, examplesDir, type Workbench, activeWebviewFrame, openServersView, screenshotOnFailure, until } from './harness';

let wb: Workbench | undefined;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-onboarding-'));
after(async () => {
  await wb?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});
const step = screenshotOnFailure(() => wb, 'onboarding-failed');
const vsix = process.env.TOOLSMITH_E2E_VSIX;

/** Opens the walkthrough step `title` and clicks its button `button`. */
async function runStep(w: Workbench, title: string, button: string): Promise<void> {
  const { page } = w;
  const stepRow = page.locator('.getting-started-step', { hasText: title }).first();
  await stepRow.waitFor({ state: 'visible', timeout: 30_000 });
  if ((await stepRow.getAttribute('aria-expanded')) !== 'true') await stepRow.click();
  const link = page.locator('.getting-started-step .monaco-button, .getting-started-step a', { hasText: button }).first();
  await link.waitFor({ state: 'visible', timeout: 15_000 });
  await link.click();
}

/** Back to the walkthrough from the palette, with every other editor closed (one webview at a time). */
async function reopenWalkthrough(w: Workbench): Promise<void> {
  await w.page.keyboard.press('Escape');
  await w.runCommand('View: Close All Editors');
  await w.runCommand('Toolsmith: Get Started');
  await w.page.getByText('Get Started with MCP Toolsmith').first().waitFor({ state: 'visible', timeout: 30_000 });
}

test('the walkthrough opens on a workspace with servers, and each step does what it says', { timeout: 600_000 }, () =>
  step('walkthrough', async () => {
    await wb?.stop();
    wb = await startWorkbench({
      workspace: examplesDir,
      trusted: true,
      vsix,
      // On by default; the harness turns it off for the other tests. The DOM terminal renderer makes its text readable.
      settings: { 'toolsmith.walkthrough.openOnStartup': true, 'terminal.integrated.gpuAcceleration': 'off' },
    });
    const { page } = wb;
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    await page.getByText('Get Started with MCP Toolsmith').first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.ok(await page.locator('.getting-started-step', { hasText: 'See a squiggle and fix it' }).isVisible());
    await wb.screenshot('onboarding-1-walkthrough');

    // 1. A squiggle and its fix: the source opens at its first finding with the quick-fix menu.
    await runStep(wb, 'See a squiggle and fix it', 'Show a Finding and Its Fix');
    await page.locator('.tabs-container .tab.active', { hasText: 'server.ts' }).waitFor({ timeout: 60_000 });
    await page.locator('.action-widget').first().waitFor({ state: 'visible', timeout: 60_000 });
    assert.ok((await page.locator('.action-widget .monaco-list-row').count()) > 0, 'the quick-fix menu lists fixes');
    await page.locator('.squiggly-warning, .squiggly-error, .squiggly-info').first().waitFor({ state: 'attached', timeout: 10_000 });
    await wb.screenshot('onboarding-2-squiggle-fix');

    // 2. The contract preview of the tool at that finding.
    await reopenWalkthrough(wb);
    await runStep(wb, 'Preview the contract', 'Preview the Contract');
    const preview = activeWebviewFrame(wb);
    await preview.locator('h1.tool-name').waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await preview.locator('h1.tool-name').innerText(), /^(query|add_note|close_ticket)$/);
    await wb.screenshot('onboarding-3-preview');

    // 3. helpdesk started, its read-only tool called in the playground with arguments that satisfy its schema.
    await reopenWalkthrough(wb);
    await runStep(wb, 'Start a server and call a tool', 'Start a Server and Call a Tool');
    await page.locator('.tabs-container .tab', { hasText: 'Playground: helpdesk' }).waitFor({ timeout: 90_000 });
    const playground = activeWebviewFrame(wb);
    const result = playground.locator('.result-host .result');
    await result.waitFor({ timeout: 60_000 });
    assert.equal(await result.getAttribute('data-outcome'), 'ok');
    assert.match(await result.locator('.content.text pre').first().innerText(), /T-\d+|No ticket matches/);
    await wb.screenshot('onboarding-4-playground-call');

    // 4. The CLI on the workspace, in a terminal, as CI runs it.
    await reopenWalkthrough(wb);
    await runStep(wb, 'Run the CLI in CI', 'Run the CLI');
    await until('the CLI summary in the terminal', 90_000, async () => /\d+ problems? \(\d+ errors?, \d+ warnings?/.test(await page.locator('.terminal-wrapper .xterm-rows').first().innerText()));
    // The findings of the example servers (the file headers scroll away; their rule ids stay in view).
    assert.match(await page.locator('.terminal-wrapper .xterm-rows').first().innerText(), /error-returned-as-success|annotations-missing|param-unbounded-number/);
    await wb.screenshot('onboarding-5-cli');
    await wb.stop();
    wb = undefined;
  }),
);

test('a server whose npm module is missing: a visible Start row, then a toast with the cause and Show Log', { timeout: 300_000 }, () =>
  step('missing-module', async () => {
    await wb?.stop();
    const ws = path.join(tmp, 'broken');
    fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'server.js'), "// needs a package that was never installed\nrequire('left-pad-not-installed');\n");
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { broken: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/server.js'] } } }, null, 2));
    wb = await startWorkbench({ workspace: ws, trusted: true, vsix });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const { page } = wb;
    const { row } = await openServersView(wb);
    await row('broken').waitFor({ state: 'visible', timeout: 60_000 });
    // Shown without hovering: a row of its own under the server.
    await page.mouse.move(900, 700);
    await row('Start server').waitFor({ state: 'visible', timeout: 30_000 });
    await wb.screenshot('onboarding-6-start-row');
    await row('Start server').click();

    const toast = page.locator('.notification-toast', { hasText: 'broken did not start' }).first();
    await toast.waitFor({ state: 'visible', timeout: 60_000 });
    const text = await toast.locator('.notification-list-item-message').innerText();
    assert.match(text, /the npm module "left-pad-not-installed" is missing: run npm install in /);
    assert.match(text, /Last stderr: "Error: Cannot find module 'left-pad-not-installed'/);
    await row(/failed · missing module/).waitFor({ timeout: 15_000 });
    await row('Failed: missing module').waitFor({ timeout: 15_000 });
    await wb.screenshot('onboarding-7-missing-module-toast');
    await toast.locator('.monaco-button', { hasText: 'Show Log' }).click();
    await page
      .locator('.part.panel .monaco-editor .view-lines', { hasText: /MODULE_NOT_FOUND|Cannot find module/ })
      .first()
      .waitFor({ timeout: 30_000 });
    assert.match(wb.readOutputChannel('MCP', 'broken'), /Cannot find module 'left-pad-not-installed'/);
    await wb.stop();
    wb = undefined;
  }),
);

test('no mcp.json: the welcome view offers to create one; the detected server is saved into it', { timeout: 300_000 }, () =>
  step('welcome', async () => {
    await wb?.stop();
    const empty = path.join(tmp, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    fs.writeFileSync(path.join(empty, 'notes.md'), 'no server here\n');
    wb = await startWorkbench({ workspace: empty, trusted: true, vsix });
    let { sidebar } = await openServersView(wb);
    await sidebar.locator('.welcome-view-content', { hasText: 'No MCP server found in this workspace' }).waitFor({ timeout: 60_000 });
    await sidebar.locator('.welcome-view-content .monaco-button', { hasText: 'Create .vscode/mcp.json' }).waitFor({ state: 'visible' });
    await wb.screenshot('onboarding-8-welcome-view');
    await wb.stop();

    const ws = path.join(tmp, 'detected');
    fs.mkdirSync(path.join(ws, 'api'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, 'api', 'server.mjs'),
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';\nconst server = new McpServer({ name: 'api', version: '1.0.0' });\nawait server.connect(new StdioServerTransport());\n",
    );
    wb = await startWorkbench({ workspace: ws, trusted: true, vsix });
    const view = await openServersView(wb);
    sidebar = view.sidebar;
    const save = view.row('Save to .vscode/mcp.json');
    await save.waitFor({ state: 'visible', timeout: 60_000 });
    await view.row('server.mjs').waitFor({ state: 'visible' });
    await wb.screenshot('onboarding-9-detected');
    await save.click();
    await wb.page.locator('.tabs-container .tab.active', { hasText: 'mcp.json' }).waitFor({ timeout: 30_000 });
    const written = JSON.parse(fs.readFileSync(path.join(ws, '.vscode', 'mcp.json'), 'utf8'));
    assert.deepEqual(written.servers.api.args, ['${workspaceFolder}/api/server.mjs']);
    // Rediscovered from the file: a configured server named "api", nothing left to save.
    await view.row(/^api/).waitFor({ timeout: 30_000 });
    await until('the save row to go', 30_000, async () => (await sidebar.locator('.monaco-list-row', { hasText: 'Save to .vscode/mcp.json' }).count()) === 0);
  }),
);

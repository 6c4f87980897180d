/**
 * Resources and prompts in the Servers tree, in a real workbench (code-server): a workspace whose .vscode/mcp.json
 * runs the well-behaved fixture server (one resource, one prompt). Once it runs, the tree shows a "Resources" and a
 * "Prompts" group under it; a click on the resource opens the playground with it read, a click on the prompt opens
 * the playground on it. Screenshot: test-results/playground-tree-resources.png.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startWorkbench, root, type Workbench, activeWebviewFrame, expandTreeRow, openServersView } from './harness';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-e2e-catalog-'));
fs.mkdirSync(path.join(workspace, '.vscode'));
fs.writeFileSync(
  path.join(workspace, '.vscode', 'mcp.json'),
  JSON.stringify({
    servers: {
      fixture: {
        type: 'stdio',
        command: process.execPath,
        // tsx resolves from the checkout: the server runs there.
        args: ['--import', 'tsx', path.join(root, 'test', 'fixtures', 'servers', 'ts', 'well-behaved.ts')],
        cwd: root,
      },
    },
  }),
);
let wb: Workbench | undefined;

after(async () => {
  await wb?.stop();
  fs.rmSync(workspace, { recursive: true, force: true });
});

const playgroundFrame = activeWebviewFrame;

test('a running server lists its resources and prompts in the tree; a click reads the resource in the playground', { timeout: 180_000 }, async () => {
  try {
    const t0 = Date.now();
    wb = await startWorkbench({ workspace, trusted: true, vsix: process.env.TOOLSMITH_E2E_VSIX });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const started = Date.now();
    const { page } = wb;
    const { sidebar, row } = await openServersView(wb);
    await row('fixture').waitFor({ state: 'visible', timeout: 60_000 });
    // Stopped: no groups.
    assert.equal(await sidebar.locator('.monaco-list-row', { hasText: /^Resources/ }).count(), 0);

    await row('fixture').click();
    await row(/running · fixture-well-behaved 1\.2\.3/).waitFor({ timeout: 60_000 });
    await playgroundFrame(wb).locator('.status[data-status="running"]').waitFor({ timeout: 30_000 });
    await page.mouse.move(900, 700);
    await page.keyboard.press('Escape');

    // Under the tools, the two groups with their counts.
    const resources = sidebar.locator('.monaco-list-row', { hasText: 'Resources' }).first();
    const prompts = sidebar.locator('.monaco-list-row', { hasText: 'Prompts' }).first();
    await resources.waitFor({ timeout: 30_000 });
    assert.match(await resources.innerText(), /Resources\s*1/);
    assert.match(await prompts.innerText(), /Prompts\s*1/);
    const labels = await sidebar.locator('.monaco-list-row').allInnerTexts();
    const at = (re: RegExp) => labels.findIndex((l) => re.test(l));
    assert.ok(at(/echo_text/) >= 0 && at(/echo_text/) < at(/^Resources/), `tools first, then the groups:\n${labels.join('\n')}`);

    // Expand Resources; a click on the resource opens the playground and reads it.
    assert.equal(await resources.getAttribute('aria-expanded'), 'false', 'groups start collapsed');
    await expandTreeRow(resources);
    const readme = row('Readme');
    await readme.waitFor({ timeout: 15_000 });
    assert.match(await readme.innerText(), /Readme\s*fixture:\/\/notes\/readme · text\/plain/);
    await readme.click();
    const frame = playgroundFrame(wb);
    await frame.locator('.resource-row.focused[data-uri="fixture://notes/readme"] .resource-read', { hasText: 'hello from the readme resource' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('playground-tree-resources');

    // The prompt: the playground shows it, ready for its argument.
    await page.mouse.move(900, 700);
    await expandTreeRow(prompts);
    const review = row('Review code');
    await review.waitFor({ timeout: 15_000 });
    assert.match(await review.innerText(), /Review code\s*review_code \(language\*\)/);
    await review.click();
    await frame.locator('.prompt-row.focused[data-prompt="review_code"]').waitFor({ timeout: 30_000 });
    console.log(`catalog: workbench ${((started - t0) / 1000).toFixed(1)} s, test after it ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    await wb?.screenshot('playground-failed-catalog').catch(() => undefined);
    throw err;
  }
});

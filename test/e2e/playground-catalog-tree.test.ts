/**
 * Resource templates and prompts with arguments, clicked in the Servers tree of a real workbench (code-server): a
 * workspace whose .vscode/mcp.json runs the catalog fixture server (test/fixtures/servers/ts/catalog.ts, lists served
 * two items a page). A template opens the playground on a form of its variables: filled, it expands to a URI that is
 * read and the server's text shows. A prompt opens on a form of its arguments: a required one left empty is named
 * and nothing is sent; filled, prompts/get returns the messages, shown as text.
 * "Nothing sent" is checked on the wire: the server is launched through a small relay that records every message the
 * extension writes to it. Screenshots: test-results/playground-template-*.png, playground-prompt-*.png.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { startWorkbench, root, type Workbench, activeWebviewFrame, until, expandTreeRow, openServersView } from './harness';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-e2e-catalog-tree-'));
const wire = path.join(workspace, 'requests.ndjson');
const relay = path.join(workspace, 'relay.mjs');
// The relay passes stdin to the fixture server unchanged and appends it to `wire`; stdout/stderr go straight back.
fs.writeFileSync(
  relay,
  `import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
const [wire, ...args] = process.argv.slice(2);
const child = spawn(process.execPath, args, { stdio: ['pipe', 'inherit', 'inherit'] });
process.stdin.on('data', (d) => { appendFileSync(wire, d); child.stdin.write(d); });
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code) => process.exit(code ?? 0));
`,
);
fs.mkdirSync(path.join(workspace, '.vscode'));
fs.writeFileSync(
  path.join(workspace, '.vscode', 'mcp.json'),
  JSON.stringify({
    servers: {
      catalog: {
        type: 'stdio',
        command: process.execPath,
        // tsx resolves from the checkout: the server runs there.
        args: [relay, wire, '--import', 'tsx', path.join(root, 'test', 'fixtures', 'servers', 'ts', 'catalog.ts')],
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

interface Received {
  method?: string;
  params?: { name?: string; arguments?: Record<string, string>; uri?: string };
}

/** The JSON-RPC requests the server received so far, by method. */
function received(method: string): Received[] {
  if (!fs.existsSync(wire)) return [];
  return fs
    .readFileSync(wire, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Received)
    .filter((m) => m.method === method);
}

/** Whether the element is wholly inside the webview's viewport: what the author sees without scrolling. */
async function inView(el: Locator): Promise<boolean> {
  return el.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
}

test('tree: a resource template is read from its variables form; a prompt is got from its arguments form, a missing one named', { timeout: 240_000 }, async () => {
  try {
    const t0 = Date.now();
    wb = await startWorkbench({ workspace, trusted: true, vsix: process.env.TOOLSMITH_E2E_VSIX });
    await wb.waitForLog(/Toolsmith activated in (\d+) ms/, 120_000);
    const started = Date.now();
    const { page } = wb;
    const { row } = await openServersView(wb);
    // Moves the pointer off the tree and closes its hover, which would cover the rows below.
    const unhover = async () => {
      await page.mouse.move(900, 700);
      await page.keyboard.press('Escape');
    };

    await row('catalog').waitFor({ state: 'visible', timeout: 60_000 });
    await row('catalog').click();
    await row(/running · fixture-catalog 0\.3\.0/).waitFor({ timeout: 60_000 });
    const frame = activeWebviewFrame(wb);
    await frame.locator('.status[data-status="running"]').waitFor({ timeout: 30_000 });
    await unhover();

    // Every page of the lists made it into the tree (the server serves two items a page).
    const templates = row('Resource templates');
    const prompts = row(/^Prompts/);
    await templates.waitFor({ timeout: 30_000 });
    assert.match(await templates.innerText(), /Resource templates\s*3/);
    assert.match(await prompts.innerText(), /Prompts\s*3/);

    // --- A resource template: its variables form, the URI it expands to, the read.
    await expandTreeRow(templates);
    const note = row('Note by folder and name');
    await note.waitFor({ timeout: 15_000 });
    assert.match(await note.innerText(), /notes:\/\/\{folder\}\/\{name\} · text\/plain/);
    await note.click();
    const tRow = frame.locator('.template-row.focused[data-template="notes://{folder}/{name}"]');
    await tRow.waitFor({ timeout: 30_000 });
    assert.deepEqual(await tRow.locator('.field vscode-label').allTextContents(), ['folder', 'name']);
    // Opening the form reads nothing: the variables are not given yet.
    assert.equal(received('resources/read').length, 0, 'a template is not read before its variables are given');
    await tRow.locator('.field[data-path="/folder"] vscode-textfield input').fill('work');
    await tRow.locator('.field[data-path="/name"] vscode-textfield input').fill('plan 2026');
    await until('the expanded URI', 10_000, async () => (await tRow.locator('.expanded').textContent()) === '→ notes://work/plan%202026');
    await unhover();
    await wb.screenshot('playground-template-form');

    await tRow.locator('vscode-button[data-action="read-template"]').click();
    const read = tRow.locator('.resource-read', { hasText: 'Note "plan 2026" in folder "work"' });
    await read.waitFor({ timeout: 30_000 });
    // The answer lands below the Read button: it is brought into view, not left under the fold.
    await until('the read in view', 5_000, () => inView(read));
    assert.equal(await tRow.locator('.resource-body .note code').textContent(), 'notes://work/plan%202026');
    assert.deepEqual(
      received('resources/read').map((r) => r.params?.uri),
      ['notes://work/plan%202026'],
    );
    await wb.screenshot('playground-template-read');

    // --- A prompt with arguments: opened on its form, nothing got yet.
    await unhover();
    await expandTreeRow(prompts);
    const review = row('Review code');
    await review.waitFor({ timeout: 15_000 });
    assert.match(await review.innerText(), /review_code \(language\*, focus\)/);
    await review.click();
    const pRow = frame.locator('.prompt-row.focused[data-prompt="review_code"]');
    await pRow.waitFor({ timeout: 30_000 });
    assert.deepEqual(await pRow.locator('.field vscode-label').allTextContents(), ['language', 'focus']);
    assert.equal(received('prompts/get').length, 0, 'a prompt with arguments is not got before they are given');

    // The required argument left empty: named, at its field, and nothing sent.
    await pRow.locator('vscode-button[data-action="get-prompt"]').click();
    const problem = pRow.locator('.catalog-problem > .message');
    await problem.waitFor({ timeout: 30_000 });
    assert.equal(await problem.textContent(), 'Missing required argument: language (Programming language of the code). prompts/get was not sent.');
    assert.equal(await pRow.locator('.field[data-path="/language"] .error').textContent(), 'is required');
    assert.equal(await pRow.locator('.prompt-message').count(), 0);
    await until('the message in view', 5_000, () => inView(problem));
    assert.ok(await inView(pRow.locator('.field[data-path="/language"] .error')), 'the field named stays in view');
    await unhover();
    await wb.screenshot('playground-prompt-missing');
    assert.equal(received('prompts/get').length, 0, 'prompts/get was sent with a required argument missing');

    // Filled: prompts/get with exactly that argument, the messages shown as text.
    await pRow.locator('.field[data-path="/language"] vscode-textfield input').fill('Go');
    await pRow.locator('vscode-button[data-action="get-prompt"]').click();
    await pRow.locator('.prompt-message').nth(1).waitFor({ timeout: 30_000 });
    assert.equal(await pRow.locator('.catalog-problem').count(), 0, 'the problem is gone once the argument is given');
    const messages = await pRow.locator('.prompt-message').evaluateAll((els) => els.map((e) => [e.getAttribute('data-role'), e.querySelector('pre')?.textContent]));
    assert.deepEqual(messages, [
      ['user', 'Please review this Go code.'],
      ['assistant', 'Sure: paste the Go code.'],
    ]);
    await until('the messages in view', 5_000, async () => (await inView(pRow.locator('.prompt-message').nth(0))) && inView(pRow.locator('.prompt-message').nth(1)));
    const gets = received('prompts/get');
    assert.deepEqual(
      gets.map((g) => g.params && { name: g.params.name, arguments: g.params.arguments }),
      [{ name: 'review_code', arguments: { language: 'Go' } }],
    );
    await unhover();
    await wb.screenshot('playground-prompt-messages');
    console.log(`catalog tree: workbench ${((started - t0) / 1000).toFixed(1)} s, test after it ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    await wb?.screenshot('playground-failed-catalog-tree').catch(() => undefined);
    throw err;
  }
});

// The catalog section of the playground in headless Chromium, wired to the real host controller and a live SDK
// fixture server (test/fixtures/servers/ts/catalog.ts): a prompt's declared arguments become a form that sends
// prompts/get, the messages come back rendered as text (HTML in them never runs), a missing required argument is shown
// at its field, and a resource template's variables become a form whose values expand into the URI that is read.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../client/src/servers/session';
import { tsServer } from '../unit/playground/helpers';
import { openPlayground, closeBrowser, type WebviewPage } from './harness';
import type { Page } from 'playwright-core';

const sessions: McpSession[] = [];
const pages: WebviewPage[] = [];
after(async () => {
  await Promise.all(pages.map((p) => p.close().catch(() => undefined)));
  await closeBrowser();
  await Promise.all(sessions.map((s) => s.stop()));
});

async function playground(session: McpSession) {
  const p = await openPlayground(session);
  pages.push(p.wp);
  return p;
}

const promptRow = (page: Page, name: string) => page.locator(`.prompt-row[data-prompt="${name}"]`);
const templateRow = (page: Page, t: string) => page.locator(`.template-row[data-template="${t}"]`);
const argField = (row: ReturnType<typeof promptRow>, name: string) => row.locator(`.field[data-path="/${name}"]`);

async function openCatalog(page: Page): Promise<void> {
  await page.locator('details.catalog-box summary').click();
  await page.locator('.prompt-row').first().waitFor();
}

describe('prompts and resource templates in the playground', () => {
  let session: McpSession;
  before(async () => {
    session = new McpSession(tsServer('catalog.ts'));
    sessions.push(session);
    await session.start();
  });

  test("a prompt's arguments render as a form: name, required mark, description; Get sends exactly the values given", async () => {
    const { wp, page } = await playground(session);
    await openCatalog(page);
    const row = promptRow(page, 'review_code');
    assert.deepEqual(await row.locator('.field vscode-label').allTextContents(), ['language', 'focus']);
    assert.equal(await argField(row, 'language').locator('vscode-label').getAttribute('required'), '');
    assert.equal(await argField(row, 'focus').locator('vscode-label').getAttribute('required'), null);
    assert.equal(await argField(row, 'language').locator('vscode-form-helper').textContent(), 'Programming language of the code');
    await argField(row, 'language').locator('vscode-textfield input').fill('Go');
    await argField(row, 'focus').locator('vscode-textfield input').fill('error handling');
    const since = wp.posted.length;
    await row.locator('vscode-button[data-action="get-prompt"]').click();
    assert.deepEqual(await wp.waitForPosted('getPrompt', since), { type: 'getPrompt', name: 'review_code', args: { language: 'Go', focus: 'error handling' }, force: false });
    await row.locator('.prompt-message').nth(1).waitFor();
    const messages = await row
      .locator('.prompt-message')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-role'), e.querySelector('.role')?.textContent, e.querySelector('pre')?.textContent]));
    assert.deepEqual(messages, [
      ['user', 'user', 'Please review this Go code, looking at error handling first.'],
      ['assistant', 'assistant', 'Sure: paste the Go code.'],
    ]);
    assert.match((await row.locator('.prompt-body > .note').first().textContent()) ?? '', /Review of Go code/);
    // An optional argument left empty is not sent at all.
    await argField(row, 'focus').locator('vscode-textfield input').fill('');
    const again = wp.posted.length;
    await row.locator('vscode-button[data-action="get-prompt"]').click();
    assert.deepEqual((await wp.waitForPosted('getPrompt', again)).args, { language: 'Go' });
    assert.deepEqual(wp.pageErrors, []);
  });

  test('a missing required argument: shown at its field, nothing got; "Send anyway" shows the server refusing it', async () => {
    const { wp, page } = await playground(session);
    await openCatalog(page);
    const row = promptRow(page, 'review_code');
    await row.locator('vscode-button[data-action="get-prompt"]').click();
    await row.locator('.catalog-problem').waitFor();
    assert.equal(await row.locator('.catalog-problem > .message').textContent(), 'Missing required argument: language (Programming language of the code). prompts/get was not sent.');
    assert.equal(await argField(row, 'language').locator('.error').textContent(), 'is required');
    assert.equal(await row.locator('.prompt-message').count(), 0);
    const anyway = row.locator('vscode-button[data-action="get-prompt-anyway"]');
    // A button of one line, not a tall box over the next prompt.
    assert.ok(((await anyway.boundingBox())?.height ?? 0) < 40, `Send anyway is ${(await anyway.boundingBox())?.height} px high`);
    const since = wp.posted.length;
    await anyway.click();
    assert.equal((await wp.waitForPosted('getPrompt', since)).force, true);
    await row.locator('.catalog-problem', { hasText: 'prompts/get failed' }).waitFor();
    assert.match((await row.locator('.catalog-problem').textContent()) ?? '', /Invalid arguments for prompt review_code/);
  });

  test('prompt messages of every content kind render as data: HTML stays text, image and audio as data: URLs, resources', async () => {
    const { page } = await playground(session);
    await openCatalog(page);
    const row = promptRow(page, 'show_everything');
    await argField(row, 'topic').locator('vscode-textfield input').fill('<b>cats</b>');
    await row.locator('vscode-button[data-action="get-prompt"]').click();
    await row.locator('.prompt-message').nth(4).waitFor();
    const first = row.locator('.prompt-message').first();
    assert.equal(await first.locator('pre').textContent(), '<script>window.__pwned = true</script><img src=x onerror="window.__pwned=true"><b>bold?</b> about <b>cats</b>');
    // Not one element was made from the server's text: no script, no img, no b inside the text block.
    assert.equal(await first.locator('pre *').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned), undefined);
    assert.match((await row.locator('.prompt-message').nth(1).locator('img').getAttribute('src')) ?? '', /^data:image\/png;base64,iVBOR/);
    assert.match((await row.locator('.prompt-message').nth(2).locator('audio').getAttribute('src')) ?? '', /^data:audio\/wav;base64,/);
    const embedded = row.locator('.prompt-message').nth(3);
    assert.equal(await embedded.getAttribute('data-role'), 'assistant');
    assert.equal(await embedded.locator('code').textContent(), 'notes://work/%3Cb%3Ecats%3C%2Fb%3E');
    assert.equal(await embedded.locator('pre').textContent(), 'embedded note on <b>cats</b>');
    const link = row.locator('.prompt-message').nth(4);
    assert.match((await link.textContent()) ?? '', /index notes:\/\/index \(text\/plain\)/);
    // The link's Read button reads the linked resource, into its row of the catalog.
    await link.locator('vscode-button[data-action="read-resource"]').click();
    await page.locator('.resource-row[data-uri="notes://index"] .resource-read', { hasText: 'work, home' }).waitFor();
  });

  test('opened from the tree: a prompt without arguments is got at once; one with arguments waits with its field focused', async () => {
    const { wp, page } = await playground(session);
    await wp.send({ type: 'showCatalog', prompt: 'daily_summary' });
    await promptRow(page, 'daily_summary').locator('.prompt-message pre', { hasText: 'Summarise what happened today.' }).waitFor();
    assert.equal(await promptRow(page, 'daily_summary').locator('.field').count(), 0);
    const since = wp.posted.length;
    await wp.send({ type: 'showCatalog', prompt: 'review_code' });
    await promptRow(page, 'review_code').and(page.locator('.focused')).waitFor();
    await page.waitForFunction(() => document.activeElement?.closest('.prompt-row')?.getAttribute('data-prompt') === 'review_code');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(wp.posted.slice(since).filter((m) => m.type === 'getPrompt').length, 0, 'nothing is got before its arguments are given');
  });

  test('a resource template: its variables form, the URI they expand to, and the read of that URI', async () => {
    const { wp, page } = await playground(session);
    await wp.send({ type: 'showCatalog', template: 'notes://{folder}/{name}' });
    const row = templateRow(page, 'notes://{folder}/{name}');
    await row.and(page.locator('.focused')).waitFor();
    assert.deepEqual(await row.locator('.field vscode-label').allTextContents(), ['folder', 'name']);
    assert.equal(await row.locator('.field[data-path="/name"] vscode-label').getAttribute('required'), '');
    await row.locator('.field[data-path="/folder"] vscode-textfield input').fill('work');
    await row.locator('.field[data-path="/name"] vscode-textfield input').fill('plan 2026');
    assert.equal(await row.locator('.expanded').textContent(), '→ notes://work/plan%202026');
    const since = wp.posted.length;
    await row.locator('vscode-button[data-action="read-template"]').click();
    assert.deepEqual(await wp.waitForPosted('readTemplate', since), { type: 'readTemplate', uriTemplate: 'notes://{folder}/{name}', values: { folder: 'work', name: 'plan 2026' }, force: false });
    await row.locator('.resource-read', { hasText: 'Note "plan 2026" in folder "work"' }).waitFor();
    assert.equal(await row.locator('.resource-body .note code').textContent(), 'notes://work/plan%202026');
    // Another click in the tree lists the catalog anew: the values typed stay in the form.
    const listed = wp.posted.length;
    await wp.send({ type: 'showCatalog', prompt: 'review_code' });
    await wp.waitForPosted('listCatalog', listed);
    await promptRow(page, 'review_code').and(page.locator('.focused')).waitFor();
    assert.equal(await row.locator('.field[data-path="/name"] vscode-textfield').evaluate((e) => (e as HTMLElement & { value: string }).value), 'plan 2026');
    assert.equal(await row.locator('.expanded').textContent(), '→ notes://work/plan%202026');
  });

  test('completions: typing in a prompt argument shows the server suggestions; a click fills the field', async () => {
    const { wp, page } = await playground(session);
    await openCatalog(page);
    const row = promptRow(page, 'review_code');
    const language = argField(row, 'language');
    const since = wp.posted.length;
    await language.locator('vscode-textfield input').fill('ru');
    await language.locator('.suggestions vscode-button').nth(1).waitFor();
    assert.deepEqual(await language.locator('.suggestions vscode-button').allTextContents(), ['Ruby', 'Rust']);
    const asked = wp.posted
      .slice(since)
      .filter((m) => m.type === 'complete')
      .pop();
    assert.deepEqual(asked && { ...asked, requestId: 0 }, { type: 'complete', requestId: 0, ref: { type: 'ref/prompt', name: 'review_code' }, argument: 'language', value: 'ru', context: {} });
    await language.locator('.suggestions vscode-button', { hasText: 'Rust' }).click();
    assert.equal(await language.locator('.suggestions').count(), 0);
    const got = wp.posted.length;
    await row.locator('vscode-button[data-action="get-prompt"]').click();
    assert.deepEqual((await wp.waitForPosted('getPrompt', got)).args, { language: 'Rust' });
    await row.locator('.prompt-message pre', { hasText: 'Please review this Rust code.' }).waitFor();
  });

  test('completions: a template variable is completed from the values already given; the picked one expands into the URI', async () => {
    const { page } = await playground(session);
    await openCatalog(page);
    const row = templateRow(page, 'notes://{folder}/{name}');
    await row.locator('.field[data-path="/folder"] vscode-textfield input').fill('work');
    const name = row.locator('.field[data-path="/name"]');
    await name.locator('vscode-textfield input').focus();
    await name.locator('.suggestions vscode-button').nth(1).waitFor();
    assert.deepEqual(await name.locator('.suggestions vscode-button').allTextContents(), ['budget', 'plan 2026']);
    await name.locator('.suggestions vscode-button', { hasText: 'plan 2026' }).click();
    assert.equal(await row.locator('.expanded').textContent(), '→ notes://work/plan%202026');
    await row.locator('vscode-button[data-action="read-template"]').click();
    await row.locator('.resource-read', { hasText: 'Note "plan 2026" in folder "work"' }).waitFor();
  });

  test('a template with a required variable left empty says which; an HTML resource read shows as text', async () => {
    const { page } = await playground(session);
    await openCatalog(page);
    const row = templateRow(page, 'pages://{id}');
    await row.locator('vscode-button[data-action="read-template"]').click();
    await row.locator('.catalog-problem', { hasText: 'Missing required variable: id.' }).waitFor();
    assert.equal(await row.locator('.field[data-path="/id"] .error').textContent(), 'is required');
    await row.locator('.field[data-path="/id"] vscode-textfield input').fill('7');
    await row.locator('vscode-button[data-action="read-template"]').click();
    const read = row.locator('.resource-read');
    await read.filter({ hasText: 'page 7' }).waitFor();
    assert.equal(await read.textContent(), '<h1>page 7</h1><script>window.__pwned = true</script><img src=x onerror="window.__pwned=true"><b>bold?</b>');
    assert.equal(await read.locator('*').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned), undefined);
  });
});

// The playground's Timeline, result labels, resource subscriptions and result details in the webview (headless
// Chromium, the real host controller, the published server-everything; one server and one page for the file).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../client/src/servers/session';
import { openPlayground, closeBrowser, fill, choose, chooseIn, call, type WebviewPage, everythingLaunch } from './harness';
import type { Page } from 'playwright-core';

describe('timeline, labels and subscriptions in the playground', () => {
  let session: McpSession;
  let wp: WebviewPage;
  let page: Page;
  const saved: { name: string; text: string }[] = [];
  before(async () => {
    session = new McpSession(everythingLaunch({ EVERYTHING_WEBVIEW_TOKEN: 'tok-webview-93a1' }));
    await session.start();
    const p = await openPlayground(session, {
      timeoutMs: 30_000,
      saveFile: async (name, content) => {
        saved.push({ name, text: new TextDecoder().decode(content) });
        return `/saved/${name}`;
      },
    });
    wp = p.wp;
    page = p.page;
  });
  /** The picker shows "Title (name)" for a tool with a title (all of server-everything's). */
  const selectTool = async (p: Page, name: string) => {
    const t = session.tools.find((x) => x.name === name);
    await choose(p.locator('.tool-picker'), t?.title ? `${t.title} (${name})` : name);
    await p.locator('.tool-head code', { hasText: name }).waitFor({ timeout: 5000 });
  };
  after(async () => {
    await wp?.close().catch(() => undefined);
    await closeBrowser();
    await session?.stop();
  });

  test('a result is labelled with its tool and time, and stays labelled when another tool is picked', async () => {
    await selectTool(page, 'echo');
    await fill(page, '/message', 'label me');
    await call(wp);
    const label = page.locator('.result .result-label');
    await label.waitFor();
    assert.equal(await label.locator('.result-tool').textContent(), 'echo');
    assert.match((await label.locator('time').textContent()) ?? '', /^\d\d:\d\d:\d\d$/);
    await selectTool(page, 'get-sum');
    // The echo result is still on screen: it says it is echo's.
    assert.match((await page.locator('.result').textContent()) ?? '', /Echo: label me/);
    assert.equal(await page.locator('.result .result-label .result-tool').textContent(), 'echo');
  });

  test('the timeline lists both ways with durations, filters, replays a request and exports masked JSON', async () => {
    await page.locator('details.timeline-box > summary').click();
    const rows = page.locator('.timeline-list li');
    await page.locator('.timeline-list li[data-method="initialize"]').first().waitFor();
    const echoCall = page.locator('.timeline-list li.dir-out.kind-request[data-method="tools/call"]').last();
    assert.match((await echoCall.locator('.duration').textContent()) ?? '', /^\d[\d,]* ms$/);
    assert.ok((await page.locator('.timeline-list li.dir-in').count()) > 0, 'server → client messages listed');
    assert.match((await page.locator('.timeline-bounds').textContent()) ?? '', /last 1,000 messages.*32,768 characters/);
    // Filter by method, then direction, then text.
    await page.locator('.timeline-method input').fill('tools/call');
    const visible = async () => (await rows.evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).map((e) => (e as HTMLElement).dataset.method))).sort();
    assert.ok((await visible()).every((m) => m === 'tools/call'));
    await page.locator('.timeline-method input').fill('');
    await page.locator('.timeline-text input').fill('label me');
    const withText = await rows.evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).map((e) => `${(e as HTMLElement).dataset.direction} ${(e as HTMLElement).dataset.method}`));
    assert.deepEqual(withText, ['out tools/call', 'in tools/call'], 'the request and its response');
    // Open the request: its JSON, pretty-printed.
    await echoCall.locator('summary').click();
    // The JSON is written on the details' toggle event, which fires after the click returns.
    await echoCall.locator('pre', { hasText: '"message": "label me"' }).waitFor({ timeout: 5_000 });
    assert.match((await echoCall.locator('pre').textContent()) ?? '', /"message": "label me"/);
    // Replay: a new request goes out, the answer shows.
    const before = await page.locator('.timeline-list li.dir-out[data-method="tools/call"]').count();
    await echoCall.locator('vscode-button[data-action="replay"]').click();
    await page.locator('.timeline-outcome .replayed.ok', { hasText: 'Echo: label me' }).waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('.timeline-list li.dir-out[data-method="tools/call"]').length > n, before);
    await page.locator('.timeline-text input').fill('');
    // Export through the host's save dialog.
    await page.locator('vscode-button[data-action="export-timeline"]').click();
    await page.locator('.timeline-outcome', { hasText: 'Exported to /saved/' }).waitFor();
    const exported = JSON.parse(saved.at(-1)!.text) as { messages: { method?: string }[] };
    assert.ok(exported.messages.some((m) => m.method === 'initialize'));
    assert.ok(!saved.at(-1)!.text.includes('tok-webview-93a1'));
  });

  test('subscribe from the resources list; an update marks the row; Re-read reads it and clears the mark', async () => {
    await page.locator('details.catalog-box > summary').click();
    const row = page.locator('.resource-row').first();
    await row.locator('vscode-button[data-action="subscribe"]').click();
    await row.locator('vscode-button[data-action="unsubscribe"]').waitFor();
    const uri = await row.getAttribute('data-uri');
    assert.deepEqual([...session.subscriptions], [uri]);
    await selectTool(page, 'toggle-subscriber-updates');
    await call(wp);
    await row.locator('.updated-mark', { hasText: /^updated at \d\d:\d\d:\d\d$/ }).waitFor();
    await row.locator('vscode-button[data-action="re-read"]').click();
    await row.locator('.resource-read').waitFor();
    assert.equal(await row.locator('.updated-mark').count(), 0);
    await row.locator('vscode-button[data-action="unsubscribe"]').click();
    await row.locator('vscode-button[data-action="subscribe"]').waitFor();
    await call(wp); // updates off again
    // The read is in the history, as resources/read.
    await page.locator('details.history > summary').click();
    assert.equal(await page.locator('.history-list li[data-kind="resource"] code').first().textContent(), uri);
  });

  test('forms: a tool with properties: {} has nothing to fill in; a boolean checkbox is labelled with its field', async () => {
    await selectTool(page, 'toggle-subscriber-updates');
    assert.equal(await page.locator('.form-host vscode-button[data-action="add-entry"]').count(), 0, 'no free-form map editor');
    await selectTool(page, 'get-annotated-message');
    assert.equal(await page.locator('.field[data-path="/includeImage"] vscode-checkbox').getAttribute('label'), 'includeImage');
  });

  test('annotations are shown, progress fills a bar, a text blob is decoded', async () => {
    await selectTool(page, 'get-annotated-message');
    await chooseIn(page, '/messageType', 'error');
    await call(wp);
    const text = page.locator('.result .content.text').first();
    await text.waitFor();
    assert.equal(await text.locator('.annotation.audience').textContent(), 'for user & assistant');
    assert.equal(await text.locator('.annotation.priority').textContent(), 'priority 1');
    await selectTool(page, 'trigger-long-running-operation');
    await fill(page, '/duration', '1');
    await fill(page, '/steps', '4');
    await call(wp);
    const bar = page.locator('vscode-progress-bar.progress-bar');
    await page.waitForFunction(() => {
      const b = document.querySelector<HTMLElement & { value?: number; max?: number }>('vscode-progress-bar.progress-bar');
      return !!b && !b.hidden && b.max === 4 && (b.value ?? 0) >= 1;
    });
    await page.locator('.result').waitFor();
    assert.equal(await bar.isHidden(), true, 'hidden once the result is in');
    await wp.send({ type: 'showCatalog', template: 'demo://resource/dynamic/blob/{resourceId}' });
    const tRow = page.locator('.template-row[data-template="demo://resource/dynamic/blob/{resourceId}"]');
    await tRow.waitFor();
    await tRow.locator('.field[data-path="/resourceId"] vscode-textfield input').fill('3');
    await tRow.locator('vscode-button[data-action="read-template"]').click();
    await tRow.locator('.resource-read .decoded').waitFor();
    assert.match((await tRow.locator('.resource-read pre').textContent()) ?? '', /Resource 3: This is a base64 blob/);
  });
});

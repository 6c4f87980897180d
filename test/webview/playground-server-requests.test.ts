// What the server asks, in the playground webview (headless Chromium, the real host controller, the published
// server-everything): a sampling request is shown with its messages and answered by typing, a form elicitation is
// drawn with the schema form and accepted, a URL elicitation shows its URL as text (no link) and is declined.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../client/src/servers/session';
import type { PlaygroundController } from '../../client/src/playground/controller';
import { openPlayground, closeBrowser, fill, type WebviewPage, everythingLaunch } from './harness';

describe('the server asks, the playground shows it', () => {
  let session: McpSession;
  let controller: PlaygroundController;
  let wp: WebviewPage;
  before(async () => {
    session = new McpSession(everythingLaunch(), {
      handlers: {
        roots: () => [],
        sampling: (p, ctx) => controller.askSampling(p, ctx.signal),
        elicitation: (p, ctx) => controller.askElicitation(p, ctx.signal),
      },
    });
    await session.start();
    const p = await openPlayground(session, { timeoutMs: 30_000 });
    controller = p.controller;
    wp = p.wp;
  });
  after(async () => {
    await wp?.close().catch(() => undefined);
    await closeBrowser();
    await session?.stop();
  });

  test('sampling: messages and parameters shown, the typed reply reaches the server', async () => {
    const page = wp.page;
    const call = controller.call('s1', 'trigger-sampling-request', { prompt: 'Name three <b>colours</b>', maxTokens: 30 }, false, false);
    const card = page.locator('.server-request.request-sampling');
    await card.waitFor();
    assert.match((await card.locator('.sampling-messages').textContent()) ?? '', /Name three <b>colours<\/b>/, 'shown as text');
    assert.equal(await card.locator('.sampling-messages b').count(), 0, 'server HTML never renders');
    assert.match((await card.locator('.sampling-params').textContent()) ?? '', /maxTokens 30/);
    await card.locator('vscode-textarea.sampling-reply textarea').fill('red, green, blue');
    await card.locator('vscode-button[data-action="send-reply"]').click();
    const r = await call;
    assert.equal(r?.kind, 'result');
    assert.match(JSON.stringify(r?.kind === 'result' && r.content), /red, green, blue/);
    await page.locator('.server-request.ended').first().waitFor();
  });

  test('form elicitation: drawn with the schema form, a missing required field held back, then accepted', async () => {
    const page = wp.page;
    const call = controller.call('e1', 'trigger-elicitation-request', {}, false, false);
    const card = page.locator('.server-request.request-elicitation').last();
    await card.locator('.field[data-path="/email"]').waitFor();
    await card.locator('vscode-button[data-action="accept-elicitation"]').click();
    await card
      .locator('.request-errors')
      .filter({ hasText: /requestedSchema/ })
      .waitFor();
    await fill(page, '/name', 'Grace Hopper');
    await card.locator('vscode-button[data-action="accept-elicitation"]').click();
    const r = await call;
    assert.match(JSON.stringify(r?.kind === 'result' && r.content), /Grace Hopper/);
  });

  test('URL elicitation: the URL is text, not a link; declined', async () => {
    const page = wp.page;
    const call = controller.call('u1', 'trigger-url-elicitation', { url: 'https://example.com/authorize?x=1' }, false, false);
    const card = page.locator('.server-request.request-elicitation').filter({ hasText: 'open a URL' }).last();
    await card.waitFor();
    assert.equal(await card.locator('.elicitation-url code').textContent(), 'https://example.com/authorize?x=1');
    assert.equal(await card.locator('a').count(), 0);
    await card.locator('vscode-button[data-action="decline-elicitation"]').click();
    assert.match(JSON.stringify((await call)?.kind === 'result' && (await call)), /declined to open the URL/);
  });
});

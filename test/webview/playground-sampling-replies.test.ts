// The sampling card's two shortcuts, in the playground webview (headless Chromium, the real host controller, the
// published server-everything): canned replies (saved in the workspace state with the launch's secrets masked, listed
// on the next request, picked, forgotten) and "Ask the model" (the request's messages go to the language model the
// host offers; its answer fills the reply for the developer to send; Stop abandons it). VS Code's vscode.lm cannot run
// outside VS Code, so the model here is a LanguageModelHost double (the interface client/src/playground/index.ts
// implements with vscode.lm); the code-server proof (test/e2e/playground-proof.test.ts) covers the real host, where
// no model is offered and the button says so.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../client/src/servers/session';
import { CANNED_REPLIES_KEY, type ModelRequest, type PlaygroundController } from '../../client/src/playground/controller';
import type { CannedReply } from '../../common/playground-messages';
import { openPlayground, closeBrowser, MapMemento, type WebviewPage, everythingLaunch } from './harness';

const SECRET = 'tok-5ecret-9911';

describe('sampling card: canned replies and Ask the model', () => {
  let session: McpSession;
  let controller: PlaygroundController;
  let wp: WebviewPage;
  const memento = new MapMemento();
  const asked: ModelRequest[] = [];
  let modelHangs = false;

  before(async () => {
    session = new McpSession(
      // The env value stands for a secret of the launch: it must never be stored in clear.
      everythingLaunch({ PLAYGROUND_TEST_TOKEN: SECRET }),
      {
        handlers: {
          roots: () => [],
          sampling: (p, ctx) => controller.askSampling(p, ctx.signal),
          elicitation: (p, ctx) => controller.askElicitation(p, ctx.signal),
        },
      },
    );
    await session.start();
    const p = await openPlayground(session, {
      timeoutMs: 30_000,
      memento,
      languageModel: {
        availability: async () => ({ available: true, name: 'Stand-in Model' }),
        ask: (request, signal) => {
          asked.push(request);
          if (modelHangs) return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled by the caller'))));
          return Promise.resolve({ text: `The model says: ${request.messages.at(-1)?.text.length} characters read`, model: 'stand-in-model-1' });
        },
      },
    });
    controller = p.controller;
    wp = p.wp;
  });
  after(async () => {
    await wp?.close().catch(() => undefined);
    await closeBrowser();
    await session?.stop();
  });

  const card = () => wp.page.locator('.server-request.request-sampling:not(.ended)').last();
  const replyValue = () =>
    card()
      .locator('vscode-textarea.sampling-reply')
      .evaluate((el) => (el as HTMLElement & { value: string }).value);
  const modelValue = () =>
    card()
      .locator('vscode-textfield.sampling-model')
      .evaluate((el) => (el as HTMLElement & { value: string }).value);
  const stored = () => memento.get<CannedReply[]>(CANNED_REPLIES_KEY) ?? [];

  test('a saved reply is kept with the secret masked, listed on the next request, picked, sent and forgotten', async () => {
    const first = controller.call('c1', 'trigger-sampling-request', { prompt: 'Pick a colour', maxTokens: 20 }, false, false);
    await card().waitFor();
    assert.match((await card().locator('.canned-replies').textContent()) ?? '', /none yet/, 'an empty list says how to fill it');
    await card().locator('vscode-textarea.sampling-reply textarea').fill(`blue, sent with ${SECRET}`);
    await card().locator('vscode-button[data-action="save-canned"]').click();
    await card().locator('vscode-button[data-action="use-canned"]').first().waitFor();
    assert.deepEqual(
      stored().map((r) => r.text),
      ['blue, sent with ****'],
      'stored in the workspace state, the secret masked',
    );
    assert.ok(!JSON.stringify([...memento.data.values()]).includes(SECRET), 'the secret is nowhere in the workspace state');
    assert.doesNotMatch((await card().locator('.canned-replies').textContent()) ?? '', new RegExp(SECRET), 'nor on screen in the list');
    await card().locator('vscode-button[data-action="send-reply"]').click();
    const r1 = await first;
    assert.match(JSON.stringify(r1?.kind === 'result' && r1.content), /blue, sent with/);

    const second = controller.call('c2', 'trigger-sampling-request', { prompt: 'Pick another colour', maxTokens: 20 }, false, false);
    await card().locator('vscode-button[data-action="use-canned"]').first().waitFor();
    await card().locator('vscode-button[data-action="use-canned"]').first().click();
    assert.equal(await replyValue(), 'blue, sent with ****', 'picking a canned reply fills the reply field');
    await card().locator('vscode-button[data-action="delete-canned"]').first().click();
    await card().locator('.canned-replies').filter({ hasText: 'none yet' }).waitFor();
    assert.deepEqual(stored(), [], 'forgotten in the workspace state too');
    await card().locator('vscode-button[data-action="send-reply"]').click();
    const r2 = await second;
    assert.match(JSON.stringify(r2?.kind === 'result' && r2.content), /blue, sent with \*\*\*\*/, 'the picked reply reached the server');
  });

  test("Ask the model: the server's messages go to the model, its answer fills the reply, the developer sends it", async () => {
    asked.length = 0;
    modelHangs = false;
    const call = controller.call('m1', 'trigger-sampling-request', { prompt: 'Say something short', maxTokens: 25 }, false, false);
    const ask = card().locator('vscode-button[data-action="ask-model"]');
    await ask.waitFor();
    assert.equal(await ask.getAttribute('disabled'), null, 'a model is offered: the button is on');
    assert.match((await ask.getAttribute('title')) ?? '', /Stand-in Model/);
    await ask.click();
    await card().locator('.model-note').filter({ hasText: 'The model answered' }).waitFor();
    assert.equal(asked.length, 1);
    assert.match(asked[0].messages.map((m) => m.text).join('\n'), /Say something short/, "the server's own message reached the model");
    assert.equal(asked[0].maxTokens, 25);
    assert.match(await replyValue(), /^The model says: \d+ characters read$/);
    assert.equal(await modelValue(), 'stand-in-model-1');
    assert.equal(controller.pendingRequests().length, 1, 'nothing is sent before the developer clicks');
    await card().locator('vscode-button[data-action="send-reply"]').click();
    const r = await call;
    assert.match(JSON.stringify(r?.kind === 'result' && r.content), /The model says/);
  });

  test('Stop abandons the model; the request still waits for the developer, who rejects it', async () => {
    modelHangs = true;
    const call = controller.call('m2', 'trigger-sampling-request', { prompt: 'Think long', maxTokens: 25 }, false, false);
    await card().locator('vscode-button[data-action="ask-model"]').click();
    const stop = card().locator('vscode-button[data-action="stop-model"]');
    await stop.waitFor({ state: 'visible' });
    await stop.click();
    await card().locator('.model-note').filter({ hasText: 'The model did not answer: Stopped.' }).waitFor();
    assert.equal(await stop.isVisible(), false, 'Stop goes once the model is stopped');
    assert.equal(await replyValue(), '', 'nothing was filled in');
    await card().locator('vscode-button[data-action="reject-sampling"]').click();
    const r = await call;
    assert.ok(r, 'the call returned');
    assert.match(JSON.stringify(r), /reject/i, 'the server got the rejection');
  });
});

// Sampling replies in the playground's host logic: canned replies kept per workspace with the launch's secrets masked,
// "Ask the model" through a language model host (the answer fills the reply, it is not sent; stopping and refusing
// say so; without a model the reason is given), a rejected request answered with the spec's -1 error; and the
// timeline reaching the webview in pages, never as one ~32 MB message.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { ProtocolError, type CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { McpSession } from '../../../client/src/servers/session';
import { PlaygroundController, CANNED_REPLIES_KEY, TIMELINE_PAGE_CHARS, timelinePages, type LanguageModelHost, type ModelRequest } from '../../../client/src/playground/controller';
import type { HostToWebview } from '../../../common/playground-messages';

const SECRET = 'sk-live-0123456789abcdef';

function setup(languageModel?: LanguageModelHost) {
  // Never started: the controller only reads its spec (secrets) and timeline here.
  const session = new McpSession({ command: 'unused', args: [], env: { API_KEY: SECRET } });
  const posted: HostToWebview[] = [];
  const store = new Map<string, unknown>();
  const c = new PlaygroundController('id', 'name', session, {
    post: (m) => posted.push(m),
    copy: async () => undefined,
    readClipboard: async () => '',
    memento: { get: <T>(k: string) => store.get(k) as T | undefined, update: async (k: string, v: unknown) => void store.set(k, v) },
    timeoutMs: () => 5_000,
    start: async () => undefined,
    languageModel,
  });
  return { c, posted, store, session };
}

const params: CreateMessageRequestParams = {
  messages: [
    { role: 'user', content: { type: 'text', text: 'Name a colour' } },
    { role: 'assistant', content: { type: 'text', text: 'Blue?' } },
    { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
  ],
  systemPrompt: 'Be brief.',
  maxTokens: 12,
};

const pendingSampling = (posted: HostToWebview[]) => posted.filter((m): m is Extract<HostToWebview, { type: 'serverRequest' }> => m.type === 'serverRequest').at(-1)!.request.id;

describe('canned replies', () => {
  test('saved newest first, without duplicates, the launch secrets masked, kept in the workspace state', async () => {
    const { c, store, posted } = setup();
    await c.handle({ type: 'saveCannedReply', text: 'first', model: 'm1' });
    await c.handle({ type: 'saveCannedReply', text: `use the key ${SECRET}`, model: 'm2' });
    await c.handle({ type: 'saveCannedReply', text: 'first', model: 'm3' });
    const kept = store.get(CANNED_REPLIES_KEY) as { text: string; model: string }[];
    assert.deepEqual(
      kept.map((r) => r.text),
      ['first', 'use the key ****'],
    );
    assert.equal(kept[0].model, 'm3');
    assert.ok(!JSON.stringify(kept).includes(SECRET), 'no secret in the workspace state');
    assert.deepEqual((posted.filter((m) => m.type === 'cannedReplies').at(-1) as { replies: unknown }).replies, kept);
    await c.handle({ type: 'deleteCannedReply', text: 'first' });
    assert.deepEqual(
      (store.get(CANNED_REPLIES_KEY) as { text: string }[]).map((r) => r.text),
      ['use the key ****'],
    );
    // A new panel on ready gets them.
    const again = setup();
    again.store.set(CANNED_REPLIES_KEY, store.get(CANNED_REPLIES_KEY));
    assert.deepEqual(
      again.c.cannedReplies().map((r) => r.text),
      ['use the key ****'],
    );
  });

  test('an empty reply is not kept', async () => {
    const { c, store } = setup();
    await c.saveCannedReply('   ', 'm');
    assert.equal(store.get(CANNED_REPLIES_KEY), undefined);
  });
});

describe('Ask the model', () => {
  test('without a language model the button says why', async () => {
    const { c } = setup();
    assert.deepEqual(await c.languageModelView(), { type: 'languageModel', available: false, reason: 'No language model is offered to extensions here.' });
    const unavailable = setup({ availability: async () => ({ available: false, reason: 'turned off by the setting' }), ask: async () => assert.fail('not asked') });
    assert.deepEqual(await unavailable.c.languageModelView(), { type: 'languageModel', available: false, reason: 'turned off by the setting' });
  });

  test("the model's answer fills the reply: the server gets it only when the developer sends it", async () => {
    const asked: ModelRequest[] = [];
    const { c, posted } = setup({
      availability: async () => ({ available: true, name: 'Fake Model' }),
      ask: async (r) => (asked.push(r), { text: 'Green.', model: 'fake-1' }),
    });
    let settled = false;
    const reply = c.askSampling(params, new AbortController().signal).finally(() => (settled = true));
    const id = pendingSampling(posted);
    const answer = await c.askModel(id);
    assert.deepEqual(answer, { type: 'modelReply', id, text: 'Green.', model: 'fake-1' });
    assert.deepEqual(asked, [
      {
        messages: [
          { role: 'user', text: 'Name a colour' },
          { role: 'assistant', text: 'Blue?' },
          { role: 'user', text: '[image]' },
        ],
        systemPrompt: 'Be brief.',
        maxTokens: 12,
      },
    ]);
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(settled, false, 'nothing was sent to the server yet');
    await c.handle({ type: 'answerSampling', id, text: answer.text, model: answer.model });
    assert.deepEqual(await reply, { role: 'assistant', model: 'fake-1', content: { type: 'text', text: 'Green.' }, stopReason: 'endTurn' });
  });

  test('stopped, or refused by VS Code: said so, the request still waits; Reject answers -1 "User rejected sampling request"', async () => {
    const { c, posted } = setup({
      availability: async () => ({ available: true, name: 'Fake Model' }),
      ask: (_r, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('cancelled by token')));
        }),
    });
    const reply = c.askSampling(params, new AbortController().signal);
    const id = pendingSampling(posted);
    const asking = c.askModel(id);
    await c.handle({ type: 'stopModel', id });
    assert.deepEqual(await asking, { type: 'modelReply', id, error: 'Stopped.' });
    assert.equal(c.pendingRequests().length, 1, 'the request still waits for the developer');

    const refusing = setup({ availability: async () => ({ available: true, name: 'M' }), ask: async () => Promise.reject(new Error('no consent to use the language model')) });
    const r2 = refusing.c.askSampling(params, new AbortController().signal);
    const id2 = pendingSampling(refusing.posted);
    assert.match((await refusing.c.askModel(id2)).error ?? '', /no consent/);
    await refusing.c.handle({ type: 'rejectSampling', id: id2 });
    await assert.rejects(r2, (e: unknown) => e instanceof ProtocolError && e.code === -1 && /User rejected sampling request/.test(e.message));

    await c.handle({ type: 'rejectSampling', id });
    await assert.rejects(reply, (e: unknown) => e instanceof ProtocolError && e.code === -1);
  });

  test('the server withdrawing its request stops the model', async () => {
    let aborted = false;
    const { c, posted } = setup({
      availability: async () => ({ available: true, name: 'M' }),
      ask: (_r, signal) => new Promise((_res, reject) => signal.addEventListener('abort', () => ((aborted = true), reject(new Error('x'))))),
    });
    const server = new AbortController();
    const reply = c.askSampling(params, server.signal);
    const asking = c.askModel(pendingSampling(posted));
    server.abort();
    await assert.rejects(reply, /withdrew/);
    await asking;
    assert.ok(aborted);
  });
});

describe('the timeline reaches the webview in pages', () => {
  test('pages hold at most TIMELINE_PAGE_CHARS of text (an entry bigger than that alone)', () => {
    const entries = [1e5, 6e5, 5e5, 2e6, 10, 10].map((n) => ({ text: 'x'.repeat(n) }));
    const pages = timelinePages(entries, 1e6);
    assert.deepEqual(
      pages.map((p) => p.map((e) => e.text.length)),
      [[1e5, 6e5], [5e5], [2e6], [10, 10]],
    );
    assert.deepEqual(timelinePages([]), []);
  });

  test('a full timeline (1,000 cut 200 KB answers) is posted as ~1 MB pages, the first one resetting the list', async () => {
    const { c, posted, session } = setup();
    const big = 'y'.repeat(200_000);
    for (let i = 0; i < 1000; i++) session.timeline.record('in', { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: big }] } });
    await c.init();
    const pages = posted.filter((m): m is Extract<HostToWebview, { type: 'timeline' }> => m.type === 'timeline');
    const sizes = pages.map((p) => p.entries.reduce((n, e) => n + e.text.length, 0));
    assert.ok(pages.length >= 30, `${pages.length} pages`);
    assert.ok(Math.max(...sizes) <= TIMELINE_PAGE_CHARS, `largest page ${Math.max(...sizes)} characters`);
    assert.equal(pages[0].reset, true);
    assert.ok(pages.slice(1).every((p) => !p.reset));
    assert.equal(
      pages.reduce((n, p) => n + p.entries.length, 0),
      1000,
    );
    const largestMessage = Math.max(...pages.map((p) => JSON.stringify(p).length));
    assert.ok(largestMessage < 1.2 * TIMELINE_PAGE_CHARS, `largest message ${largestMessage} characters (the whole timeline is ${sizes.reduce((a, b) => a + b, 0)})`);
  });
});

// The playground's client side against the real published reference server, @modelcontextprotocol/server-everything
// (pinned in scripts/ensure-everything.mjs, installed into .cache/server-everything by scripts/prepare-protocol.mjs):
// the tools it lists only to clients that declare roots, sampling and elicitation are listed; each is called, and the
// server's requests are answered the way the developer would in the playground webview (PlaygroundController).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { McpSession, type ClientHandlers } from '../../client/src/servers/session';
import { PlaygroundController } from '../../client/src/playground/controller';
import type { HostToWebview, ServerRequestView } from '../../common/playground-messages';

const root = path.resolve(__dirname, '..', '..');
const entry = path.join(root, '.cache', 'server-everything', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const version = JSON.parse(fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };

/** The tools server-everything registers only when the client declares the matching capability. */
const CONDITIONAL = [
  'get-roots-list',
  'trigger-elicitation-request',
  'trigger-url-elicitation',
  'trigger-sampling-request',
  'simulate-research-query',
  // Listed only to clients that run task-augmented sampling / elicitation requests (capabilities.tasks.requests).
  'trigger-sampling-request-async',
  'trigger-elicitation-request-async',
];

describe(`server-everything ${version.version}: the playground answers the server`, () => {
  let session: McpSession;
  let controller: PlaygroundController;
  const posted: HostToWebview[] = [];
  const opened: string[] = [];
  /** What the "developer" does with the next server request shown. */
  let answer: (r: ServerRequestView) => void = () => undefined;
  let roots = [{ uri: 'file:///work/project-a', name: 'project-a' }];

  before(async () => {
    assert.ok(fs.existsSync(entry), `server-everything is not installed at ${entry}: run node scripts/prepare-protocol.mjs`);
    const handlers: ClientHandlers = {
      roots: () => roots,
      sampling: (params, ctx) => controller.askSampling(params, ctx.signal),
      elicitation: (params, ctx) => controller.askElicitation(params, ctx.signal),
    };
    session = new McpSession({ command: process.execPath, args: [entry, 'stdio'], cwd: root }, { handlers });
    const store = new Map<string, unknown>();
    controller = new PlaygroundController('everything', 'everything', session, {
      post: (m) => {
        posted.push(m);
        // The webview shows the card; the developer acts on it a moment later.
        if (m.type === 'serverRequest') setTimeout(() => answer(m.request), 10);
      },
      copy: async () => undefined,
      readClipboard: async () => '',
      memento: { get: <T>(k: string) => store.get(k) as T | undefined, update: async (k: string, v: unknown) => void store.set(k, v) },
      timeoutMs: () => 30_000,
      start: async () => undefined,
      openExternal: async (url) => void opened.push(url),
    });
    await session.start();
  });
  after(async () => {
    controller?.dispose();
    await session?.stop();
  });

  const text = async (tool: string, args: Record<string, unknown>) => {
    const r = await controller.call(`c-${tool}-${posted.length}`, tool, args, false, false);
    assert.ok(r, `${tool}: the arguments were refused by the playground`);
    if (r.kind === 'error') return `ERROR ${r.message}`;
    return r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  };
  const requestsOf = (kind: ServerRequestView['kind']) => posted.filter((m): m is Extract<HostToWebview, { type: 'serverRequest' }> => m.type === 'serverRequest' && m.request.kind === kind);

  test('the negotiated protocol is shown, and the capability-gated tools are listed', () => {
    // server-everything is built on the 1.x SDK: it does not answer server/discover, so the 2025 handshake is used.
    assert.equal(session.protocolVersion, '2025-11-25');
    assert.equal(controller.serverView().protocolVersion, '2025-11-25');
    const names = session.tools.map((t) => t.name);
    for (const n of CONDITIONAL) assert.ok(names.includes(n), `${n} missing from ${names.join(', ')}`);
    assert.equal(names.length, 19, `${names.length} tools: ${names.join(', ')}`);
  });

  test('roots: get-roots-list sees the roots the client offers', async () => {
    const t = await text('get-roots-list', {});
    assert.match(t, /project-a/);
    assert.match(t, /file:\/\/\/work\/project-a/);
  });

  test('sampling answered by hand: the server gets the typed reply, the card showed its messages', async () => {
    answer = (r) => void controller.handle({ type: 'answerSampling', id: r.id, text: 'A haiku typed by the developer', model: 'hand-typed' });
    const t = await text('trigger-sampling-request', { prompt: 'Write a haiku about tests', maxTokens: 50 });
    assert.match(t, /A haiku typed by the developer/);
    assert.match(t, /hand-typed/);
    const shown = requestsOf('sampling').at(-1)!.request as Extract<ServerRequestView, { kind: 'sampling' }>;
    assert.ok(
      shown.messages.some((m) => m.content.type === 'text' && /haiku about tests/.test(m.content.text)),
      JSON.stringify(shown.messages),
    );
    assert.equal(shown.maxTokens, 50);
    assert.ok(posted.some((m) => m.type === 'serverRequestEnded' && m.id === shown.id && /Replied/.test(m.reason)));
  });

  test('sampling rejected: the server gets the -1 "User rejected sampling request" error', async () => {
    answer = (r) => void controller.handle({ type: 'rejectSampling', id: r.id });
    const r = await controller.call('c-reject', 'trigger-sampling-request', { prompt: 'x', maxTokens: 5 }, false, false);
    assert.ok(r);
    const shown = r.kind === 'error' ? r.message : r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    assert.ok(r.kind === 'error' || r.isError, `a refused sampling must fail the tool, got ${shown}`);
    assert.match(shown, /User rejected sampling request/);
  });

  test('elicitation (form) accepted: an answer off the requestedSchema is held back, a valid one reaches the server', async () => {
    let round = 0;
    answer = (r) => {
      round++;
      // First a wrong answer (the required name missing, an integer out of range), then a valid one.
      void controller
        .handle({ type: 'answerElicitation', id: r.id, action: 'accept', content: { integer: 500 } })
        .then(() => controller.handle({ type: 'answerElicitation', id: r.id, action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7 } }));
    };
    const t = await text('trigger-elicitation-request', {});
    assert.equal(round, 1);
    const held = posted.filter((m) => m.type === 'serverRequestViolations');
    assert.equal(held.length, 1, 'the wrong answer was reported, not sent');
    const paths = held[0].violations.map((v) => v.path);
    assert.ok(paths.includes('/name') && paths.includes('/integer'), paths.join(', '));
    assert.match(t, /User provided the requested information/);
    assert.match(t, /Ada Lovelace/);
    const shown = requestsOf('elicitation').at(-1)!.request as Extract<ServerRequestView, { mode: 'form' }>;
    assert.equal(shown.mode, 'form');
    assert.ok((shown.schema.properties as Record<string, unknown>).email, 'the requestedSchema reaches the webview for its form');
  });

  test('elicitation (form) declined', async () => {
    answer = (r) => void controller.handle({ type: 'answerElicitation', id: r.id, action: 'decline' });
    assert.match(await text('trigger-elicitation-request', {}), /User declined/);
  });

  test('elicitation (URL): shown, never opened without the click; opened on the click; accepted', async () => {
    answer = (r) => {
      assert.deepEqual(opened, [], 'nothing opened before the click');
      void controller.handle({ type: 'openElicitationUrl', id: r.id }).then(() => controller.handle({ type: 'answerElicitation', id: r.id, action: 'accept' }));
    };
    const t = await text('trigger-url-elicitation', { url: 'https://example.com/consent', message: 'Consent, please' });
    assert.match(t, /User completed the URL elicitation flow/);
    assert.deepEqual(opened, ['https://example.com/consent']);
    const shown = requestsOf('elicitation').at(-1)!.request;
    assert.ok(shown.kind === 'elicitation' && shown.mode === 'url' && shown.url === 'https://example.com/consent' && shown.message === 'Consent, please');
  });

  test('elicitation (URL) cancelled', async () => {
    answer = (r) => void controller.handle({ type: 'answerElicitation', id: r.id, action: 'cancel' });
    assert.match(await text('trigger-url-elicitation', { url: 'https://example.com/x' }), /User cancelled the URL elicitation/);
  });

  test('a tool that requires a task (simulate-research-query) is called as one: statuses shown, result read', async () => {
    const before = posted.length;
    const t = await text('simulate-research-query', { topic: 'MCP tasks' });
    assert.doesNotMatch(t, /^ERROR/, t);
    assert.match(t, /MCP tasks/);
    const statuses = posted
      .slice(before)
      .filter((m) => m.type === 'progress' && /^task /.test(m.message ?? ''))
      .map((m) => (m as { message: string }).message);
    assert.ok(
      statuses.some((m) => /^task working/.test(m)),
      statuses.join('\n'),
    );
  });

  test('a task that asks for clarification: the elicitation comes through tasks/result and is answered', async () => {
    let picked = '';
    answer = (r) => {
      // The developer picks the first interpretation offered (a oneOf of consts: the form draws it as a choice).
      const field = ((r as Extract<ServerRequestView, { mode: 'form' }>).schema.properties as Record<string, { oneOf: { const: string }[] }>).interpretation;
      picked = field.oneOf[0].const;
      void controller.handle({ type: 'answerElicitation', id: r.id, action: 'accept', content: { interpretation: picked } });
    };
    const asked = requestsOf('elicitation').length;
    const t = await text('simulate-research-query', { topic: 'tasks', ambiguous: true });
    assert.doesNotMatch(t, /^ERROR/, t);
    assert.equal(requestsOf('elicitation').length, asked + 1, 'one clarification asked');
    assert.ok(picked && t.includes(picked), `the report uses the clarification "${picked}": ${t.slice(0, 300)}`);
  });

  test('a task cancelled from the playground is cancelled', async () => {
    const callId = 'c-task-cancel';
    const pending = controller.call(callId, 'simulate-research-query', { topic: 'slow' }, false, false);
    await new Promise((r) => setTimeout(r, 1500));
    await controller.handle({ type: 'cancel', callId });
    const r = await pending;
    assert.equal(r?.kind, 'error');
    assert.equal(r?.kind === 'error' && r.errorKind, 'cancelled');
  });

  test('a task-augmented sampling request: the client answers with a task, the server polls it and reads the reply', async () => {
    answer = (r) => setTimeout(() => void controller.handle({ type: 'answerSampling', id: r.id, text: 'reply given later', model: 'hand-typed' }), 1200);
    const t = await text('trigger-sampling-request-async', { prompt: 'async please', maxTokens: 20 });
    assert.match(t, /\[COMPLETED\] Async sampling completed/, t);
    assert.match(t, /Poll \d+: working/);
    assert.match(t, /reply given later/);
  });

  test('a task-augmented elicitation request, declined', async () => {
    answer = (r) => void controller.handle({ type: 'answerElicitation', id: r.id, action: 'decline' });
    const t = await text('trigger-elicitation-request-async', {});
    assert.match(t, /\[DECLINED\] User declined/, t);
    assert.match(t, /Task created: toolsmith-task-/);
  });

  test('roots/list_changed: the server re-asks, and sees the new folders', async () => {
    // server-everything caches the roots it got; only a list_changed makes it ask again.
    roots = [{ uri: 'file:///work/project-b', name: 'project-b' }];
    assert.match(await text('get-roots-list', {}), /project-a/, 'cached until told');
    await session.notifyRootsChanged();
    await new Promise((r) => setTimeout(r, 500));
    const t = await text('get-roots-list', {});
    assert.match(t, /project-b/);
    assert.doesNotMatch(t, /project-a/);
  });
});

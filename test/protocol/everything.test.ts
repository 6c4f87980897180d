// The playground's client side against the real published reference server, @modelcontextprotocol/server-everything
// (pinned in scripts/ensure-everything.mjs, installed into .cache/server-everything by scripts/prepare-protocol.mjs):
// the tools it lists only to clients that declare roots, sampling and elicitation are listed; each is called, and the
// server's requests are answered the way the developer would in the playground webview (PlaygroundController).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { McpSession, type ClientHandlers } from '../../client/src/servers/session';
import { PlaygroundController } from '../../client/src/playground/controller';
import { resourceSubscription } from '../../client/src/servers/treeModel';
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
  /** A value of the server's env: a secret, masked wherever the playground shows or exports it. */
  const SECRET = 'tok-everything-7f3a9c';
  const saved: { name: string; content: Buffer }[] = [];

  before(async () => {
    assert.ok(fs.existsSync(entry), `server-everything is not installed at ${entry}: run node scripts/prepare-protocol.mjs`);
    const handlers: ClientHandlers = {
      roots: () => roots,
      sampling: (params, ctx) => controller.askSampling(params, ctx.signal),
      elicitation: (params, ctx) => controller.askElicitation(params, ctx.signal),
    };
    session = new McpSession({ command: process.execPath, args: [entry, 'stdio'], cwd: root, env: { EVERYTHING_TEST_TOKEN: SECRET } }, { handlers });
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
      saveFile: async (name, content) => {
        saved.push({ name, content: Buffer.from(content) });
        return `/saved/${name}`;
      },
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

  test('timeline: every message both ways, paired with its duration, from initialize on', async () => {
    const before = session.timeline.entries.at(-1)?.seq ?? 0;
    const t = session.timeline.entries;
    const init = t.find((e) => e.method === 'initialize' && e.kind === 'request');
    assert.ok(init && init.direction === 'out', 'initialize was tapped (the transport is wrapped before connect)');
    const initAnswer = t.find((e) => e.kind === 'response' && e.id === init.id && e.direction === 'in');
    assert.ok(initAnswer && initAnswer.method === 'initialize' && typeof initAnswer.durationMs === 'number', 'its response, paired');
    assert.ok(t.some((e) => e.method === 'notifications/initialized' && e.kind === 'notification' && e.direction === 'out'));
    // A call whose server asks the client (sampling) on the way: both directions, both pairings.
    answer = (r) => void controller.handle({ type: 'answerSampling', id: r.id, text: 'timeline reply', model: 'hand-typed' });
    await text('trigger-sampling-request', { prompt: 'for the timeline', maxTokens: 5 });
    const since = t.filter((e) => e.seq > before);
    const call = since.find((e) => e.method === 'tools/call' && e.kind === 'request');
    assert.ok(call && call.direction === 'out' && call.durationMs !== undefined && call.answeredBy, JSON.stringify(call));
    assert.ok(since.some((e) => e.seq === call.answeredBy && e.direction === 'in' && e.kind === 'response'));
    const ask = since.find((e) => e.method === 'sampling/createMessage' && e.kind === 'request');
    assert.ok(ask && ask.direction === 'in', 'the server → client request');
    const reply = since.find((e) => e.kind === 'response' && e.direction === 'out' && e.id === ask.id);
    assert.ok(reply && reply.method === 'sampling/createMessage' && reply.durationMs !== undefined, 'our reply, paired with it');
    assert.match(reply.text, /timeline reply/);
    // And the webview was sent them (batched), with replay offered on the client's requests only.
    controller.flush();
    const views = posted.filter((m): m is Extract<HostToWebview, { type: 'timeline' }> => m.type === 'timeline').flatMap((m) => m.entries);
    assert.ok(views.some((v) => v.seq === call.seq && v.replayable));
    assert.ok(views.some((v) => v.seq === ask.seq && !v.replayable));
  });

  test('timeline replay: the same request under a new id, answered', async () => {
    await text('echo', { message: 'replay me' });
    const original = session.timeline.entries.filter((e) => e.method === 'tools/call' && e.kind === 'request').at(-1)!;
    const r = await controller.replay(original.seq);
    assert.equal(r.error, undefined, r.error);
    assert.match(r.result ?? '', /Echo: replay me/);
    const again = session.timeline.entries.filter((e) => e.method === 'tools/call' && e.kind === 'request').at(-1)!;
    assert.notEqual(again.seq, original.seq);
    assert.notEqual(again.id, original.id, 'a new id');
    assert.deepEqual((JSON.parse(again.text) as { params: { arguments: unknown } }).params.arguments, { message: 'replay me' });
    assert.ok(again.durationMs !== undefined);
    // A server → client request cannot be replayed.
    const ask = session.timeline.entries.find((e) => e.direction === 'in' && e.kind === 'request')!;
    assert.match((await controller.replay(ask.seq)).error ?? '', /only those can be replayed/);
  });

  test('timeline export: JSON through the save dialog, secrets masked', async () => {
    await text('echo', { message: `the token is ${SECRET}` });
    await controller.exportTimeline();
    const file = saved.at(-1)!;
    assert.match(file.name, /^everything-timeline-.*\.json$/);
    const text_ = file.content.toString('utf8');
    assert.ok(!text_.includes(SECRET), 'the env value never reaches the export');
    const exported = JSON.parse(text_) as { messages: { method?: string; direction: string; message: { params?: { arguments?: { message?: string } } } }[]; limits: { maxEntries: number } };
    assert.equal(exported.limits.maxEntries, 1000);
    const echo = exported.messages.filter((m) => m.method === 'tools/call' && m.direction === 'client→server').at(-1)!;
    assert.equal(echo.message.params?.arguments?.message, 'the token is ****');
    assert.ok(posted.some((m) => m.type === 'timelineExported' && m.file === `/saved/${file.name}`));
  });

  test('prompt gets and resource reads are in the history', async () => {
    await controller.getPrompt('simple-prompt', {});
    await controller.readResource('demo://resource/dynamic/text/1');
    const history = posted.filter((m): m is Extract<HostToWebview, { type: 'history' }> => m.type === 'history').at(-1)!.history;
    assert.equal(history[0].kind, 'resource');
    assert.equal(history[0].tool, 'demo://resource/dynamic/text/1');
    assert.match(history[0].summary, /plaintext resource/);
    assert.equal(history[1].kind, 'prompt');
    assert.equal(history[1].tool, 'simple-prompt');
    assert.ok(history[1].ok);
  });

  test('a text blob is decoded, a binary one kept to be saved; annotations reach the view', async () => {
    const blob = await controller.readResource('demo://resource/dynamic/blob/2');
    const c = blob.contents[0];
    assert.ok(c.type === 'resource' && c.decodedFrom === 'blob' && /Resource 2: This is a base64 blob/.test(c.text ?? ''), JSON.stringify(c));
    const gz = await controller.call(
      'c-gzip',
      'gzip-file-as-resource',
      { name: 'hello.txt.gz', data: `data:text/plain;base64,${Buffer.from('hello gzip').toString('base64')}`, outputType: 'resource' },
      false,
      false,
    );
    assert.ok(gz?.kind === 'result', JSON.stringify(gz));
    const res = gz.content.find((x) => x.type === 'resource');
    assert.ok(res?.type === 'resource' && res.blobId && res.text === undefined, JSON.stringify(res));
    await controller.handle({ type: 'saveBlob', blobId: res.blobId });
    const file = saved.at(-1)!;
    assert.equal(file.name, 'hello.txt.gz');
    assert.equal(zlib.gunzipSync(file.content).toString('utf8'), 'hello gzip');
    const annotated = await controller.call('c-annot', 'get-annotated-message', { messageType: 'error', includeImage: false }, false, false);
    assert.ok(annotated?.kind === 'result');
    assert.deepEqual(annotated.content[0].annotations, { priority: 1, audience: ['user', 'assistant'] });
    assert.ok(annotated.at <= Date.now() && annotated.tool === 'get-annotated-message');
  });

  test('resource subscriptions: subscribe, notifications/resources/updated marks it, re-read, unsubscribe', async () => {
    assert.ok(session.canSubscribe, 'server-everything declares resources.subscribe');
    // resources/list is not awaited at start: listed here when the test runs first.
    const resource = (session.resources.length ? session.resources : await session.listResources())[0];
    const uri = resource?.uri;
    assert.ok(uri, 'a listed resource');
    // The Servers tree offers Subscribe on it (its context value picks the inline action).
    assert.deepEqual(resourceSubscription(resource, session), { contextValue: 'toolsmith.resource.subscribable', mark: undefined });
    await controller.handle({ type: 'subscribe', uri });
    assert.deepEqual(resourceSubscription(resource, session), { contextValue: 'toolsmith.resource.subscribed', mark: 'subscribed' });
    assert.deepEqual([...session.subscriptions], [uri]);
    assert.deepEqual(posted.filter((m) => m.type === 'subscriptions').at(-1), { type: 'subscriptions', canSubscribe: true, uris: [uri] });
    const updated = new Promise<string>((resolve) => session.once('resourceUpdated', resolve));
    // The server sends updates of what is subscribed once this tool turns them on (then every 5 s).
    await text('toggle-subscriber-updates', {});
    assert.equal(await updated, uri);
    assert.ok(posted.some((m) => m.type === 'resourceUpdated' && m.uri === uri));
    assert.equal(resourceSubscription(resource, session).mark, 'updated · subscribed', 'the tree marks it until it is read');
    assert.ok(session.timeline.entries.some((e) => e.method === 'notifications/resources/updated' && e.direction === 'in'));
    const again = await controller.readResource(uri);
    assert.equal(again.error, undefined);
    assert.equal(resourceSubscription(resource, session).mark, 'subscribed', 'read again: the mark goes');
    await controller.handle({ type: 'unsubscribe', uri });
    assert.deepEqual([...session.subscriptions], []);
    assert.equal(resourceSubscription(resource, session).contextValue, 'toolsmith.resource.subscribable');
    await text('toggle-subscriber-updates', {});
  });
});

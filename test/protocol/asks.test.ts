// Servers that ask the client, on the 2026-07-28 protocol: a TypeScript SDK v2 fixture (input_required results,
// served by serveStdio) and a Python mcp 2.3 fixture (the SDK's Sample / Elicit resolvers). The playground controller
// answers as the developer would; the version probe (server/discover on a second process of the server) is on the
// timeline, marked, ahead of the session's own messages.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession, type LaunchSpec } from '../../client/src/servers/session';
import { PlaygroundController } from '../../client/src/playground/controller';
import type { HostToWebview, ServerRequestView, WebviewToHost } from '../../common/playground-messages';
import { tsServer, pyServer } from '../unit/playground/helpers';

/** A started session with a controller whose "developer" answers each server request with `answer(request)`. */
async function playground(spec: LaunchSpec, answer: (r: ServerRequestView) => WebviewToHost) {
  // eslint-disable-next-line prefer-const -- assigned after the session, whose handlers read it
  let controller: PlaygroundController | undefined;
  const session = new McpSession(spec, {
    handlers: { roots: () => [], sampling: (p, ctx) => controller!.askSampling(p, ctx.signal), elicitation: (p, ctx) => controller!.askElicitation(p, ctx.signal) },
    probeTimeoutMs: 20_000,
  });
  const shown: ServerRequestView[] = [];
  controller = new PlaygroundController('s', 's', session, {
    post: (m: HostToWebview) => {
      if (m.type === 'serverRequest') {
        shown.push(m.request);
        setTimeout(() => void controller!.handle(answer(m.request)), 5);
      }
    },
    copy: async () => undefined,
    readClipboard: async () => '',
    memento: { get: () => undefined, update: async () => undefined },
    timeoutMs: () => 30_000,
    start: async () => undefined,
  });
  await session.start();
  const text = async (tool: string, args: Record<string, unknown>) => {
    const r = await controller.call(`c-${tool}`, tool, args, true, false);
    assert.ok(r?.kind === 'result', JSON.stringify(r));
    return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  };
  return { session, controller, shown, text, stop: async () => (controller.dispose(), await session.stop()) };
}

function assertProbeFirst(session: McpSession): void {
  const [probe, reply, next] = session.timeline.entries;
  assert.equal(probe.method, 'server/discover');
  assert.equal(probe.direction, 'out');
  assert.equal(probe.probe, 'sibling');
  assert.equal(reply.probe, 'sibling');
  assert.equal(reply.kind, 'response', 'a 2026-07-28 server answers the probe');
  assert.equal(reply.durationMs !== undefined, true);
  assert.equal(next.probe, undefined, 'then the session itself');
  assert.equal(probe.params, undefined, 'a probe (sent to another process) is not replayable');
}

describe('servers that ask, on 2026-07-28', () => {
  test('TypeScript SDK v2: input_required sampling and form elicitation answered; the probe on the timeline', async () => {
    const p = await playground(tsServer('asks-v2.ts'), (r) =>
      r.kind === 'sampling'
        ? { type: 'answerSampling', id: r.id, text: 'typed', model: 'by-hand' }
        : { type: 'answerElicitation', id: r.id, action: 'accept', content: { confirm: true, reason: 'cleanup' } },
    );
    try {
      assert.equal(p.session.protocolVersion, '2026-07-28');
      assertProbeFirst(p.session);
      assert.equal(await p.text('summarize', { topic: 'x' }), 'summary by by-hand: typed');
      const s = p.shown[0];
      assert.ok(s.kind === 'sampling' && s.systemPrompt === 'You write summaries.' && /intelligencePriority/.test(s.modelPreferences ?? ''));
      assert.equal(await p.text('delete_project', { project: 'p' }), 'deleted p (cleanup)');
      // The multi-round-trip style: the call answered input_required, then the retry completed.
      const results = p.session.timeline.entries
        .filter((e) => e.kind === 'response' && e.method === 'tools/call')
        .map((e) => (JSON.parse(e.text) as { result: { resultType?: string } }).result.resultType);
      assert.deepEqual(results, ['input_required', 'complete', 'input_required', 'complete']);
    } finally {
      await p.stop();
    }
  });

  test('Python mcp 2.3: sampling answered, elicitation accepted then declined', async () => {
    let declining = false;
    const p = await playground(pyServer('asks.py'), (r) =>
      r.kind === 'sampling'
        ? { type: 'answerSampling', id: r.id, text: 'Short line.', model: 'by-hand' }
        : declining
          ? { type: 'answerElicitation', id: r.id, action: 'decline' }
          : { type: 'answerElicitation', id: r.id, action: 'accept', content: { address: '1 Main St', express: true } },
    );
    try {
      assert.equal(p.session.protocolVersion, '2026-07-28');
      assertProbeFirst(p.session);
      assert.equal(await p.text('one_liner', { topic: 'snakes' }), 'model by-hand says: Short line.');
      assert.equal(await p.text('ship', { item: 'book' }), 'book ships to 1 Main St (express)');
      declining = true;
      assert.equal(await p.text('ship', { item: 'lamp' }), 'lamp not shipped: the user chose decline');
    } finally {
      await p.stop();
    }
  });
});

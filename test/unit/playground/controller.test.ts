// The playground host (PlaygroundController) against real fixture servers, without a webview: what it posts is what
// the webview would show.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession } from '../../../client/src/servers/session';
import { TEXT_LIMIT } from '../../../client/src/playground/controller';
import { nodeServer, playgroundOn, tsServer } from './helpers';

const sessions: McpSession[] = [];
after(() => Promise.all(sessions.map((s) => s.stop())));

async function controllerFor(spec: ConstructorParameters<typeof McpSession>[0]) {
  const session = new McpSession(spec);
  sessions.push(session);
  await session.start();
  return { ...playgroundOn(session), session };
}

test('a 20 MB result reaches the webview cut to a readable size, with its real size; the session stays usable', async () => {
  const { c, posted } = await controllerFor(nodeServer('misbehaving.mjs', 'huge-result'));
  const view = await c.call('1', 'huge', {}, false, false);
  assert.equal(view?.kind, 'result');
  if (view?.kind !== 'result') return;
  const first = view.content[0];
  assert.equal(first.type === 'text' && first.text.length, TEXT_LIMIT);
  assert.equal(first.type === 'text' && first.truncatedFrom, 20 * 1024 * 1024);
  assert.ok(view.rawResponse.length < 300_000, 'the raw view is cut too');
  assert.ok(JSON.stringify(posted).length < 3_000_000, 'nothing near 20 MB is posted to the webview');
  const ok = await c.call('2', 'ok', {}, false, false);
  assert.equal(ok?.kind, 'result');
});

test('arguments breaking the inputSchema are not sent unless forced; history keeps the last arguments', async () => {
  const { c, posted, store } = await controllerFor(tsServer('well-behaved.ts'));
  assert.equal(await c.call('1', 'add_numbers', { a: 'x' }, false, false), undefined);
  const v = posted.find((m) => m.type === 'validation');
  assert.deepEqual(v?.type === 'validation' && v.violations.map((x) => `${x.path} ${x.message}`).sort(), ['/a must be number', '/b is required']);
  assert.equal(
    posted.some((m) => m.type === 'callStarted'),
    false,
  );
  const forced = await c.call('2', 'add_numbers', { a: 'x' }, true, false);
  assert.ok(forced?.kind === 'error' || (forced?.kind === 'result' && forced.isError), 'the server refuses it itself');
  await c.call('3', 'add_numbers', { a: 1, b: 2 }, false, false);
  const stored = store.get('toolsmith.playground/id') as { lastArgs: Record<string, unknown>; calls: { tool: string; ok: boolean }[] };
  assert.deepEqual(stored.lastArgs.add_numbers, { a: 1, b: 2 });
  assert.deepEqual(
    stored.calls.map((x) => x.ok),
    [true, false],
  );
  const r = posted.filter((m) => m.type === 'result').pop();
  assert.ok(r?.type === 'result' && r.result.kind === 'result');
  if (r?.type === 'result' && r.result.kind === 'result') {
    assert.deepEqual(r.result.structuredContent, { sum: 3 });
    assert.deepEqual(r.result.structuredViolations, []);
  }
});

test('a tool error comes with what the server wrote on stderr during the call; a clean call carries none', async () => {
  const { c } = await controllerFor(nodeServer('misbehaving.mjs', 'noisy'));
  const failed = await c.call('1', 'fail_noisy', {}, false, false);
  assert.ok(failed?.kind === 'result' && failed.isError);
  assert.deepEqual(failed.stderr, ['Traceback (most recent call last):', "KeyError: 'customer_id'"]);
  assert.equal(failed.tool, 'fail_noisy');
  assert.ok(Math.abs(failed.at - Date.now()) < 5000, 'the time it was produced');
  const ok = await c.call('2', 'ok', {}, false, false);
  assert.equal(ok?.kind === 'result' && ok.stderr, undefined);
});

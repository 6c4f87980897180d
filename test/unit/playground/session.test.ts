// Sessions against real fixture servers (TypeScript through tsx, Python in the project venv), including
// the misbehaving ones of TESTING.md §6: every fault ends in a clear message, nothing hangs, restart works.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { McpSession, type CallOutcome } from '../../../client/src/servers/session';
import { tsServer, nodeServer, pyServer, venvPython } from './helpers';

const sessions: McpSession[] = [];
function session(spec: ConstructorParameters<typeof McpSession>[0], opts?: ConstructorParameters<typeof McpSession>[1]): McpSession {
  const s = new McpSession(spec, opts);
  sessions.push(s);
  return s;
}
after(async () => {
  await Promise.all(sessions.map((s) => s.stop()));
});

function text(outcome: CallOutcome): string {
  assert.equal(outcome.kind, 'result', outcome.kind === 'error' ? outcome.error.message : '');
  if (outcome.kind !== 'result') return '';
  return outcome.result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

describe('well-behaved TypeScript server', () => {
  const s = session(tsServer('well-behaved.ts'));
  before(() => s.start());

  test('starts, reports name, version, protocol version and tools', () => {
    assert.equal(s.status, 'running');
    assert.deepEqual(s.serverInfo, { name: 'fixture-well-behaved', version: '1.2.3' });
    assert.match(s.protocolVersion ?? '', /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(s.tools.map((t) => t.name).sort(), ['add_numbers', 'count_slowly', 'delete_item', 'echo_text', 'fail_politely', 'rich_result']);
    assert.ok(
      s.stderrTail.some((l) => l.includes('ready on stdio')),
      'stderr is captured',
    );
  });

  test('calls a tool and keeps the raw request and response', async () => {
    const out = await s.callTool('echo_text', { text: 'héllo' });
    assert.equal(text(out), 'héllo');
    assert.ok(out.request && 'method' in out.request && out.request.method === 'tools/call');
    assert.ok(out.response && 'result' in out.response);
    assert.ok(out.durationMs > 0);
  });

  test('a tool error (isError) is a result, not a protocol error', async () => {
    const out = await s.callTool('fail_politely', { reason: 'nope' });
    assert.equal(out.kind, 'result');
    assert.equal(out.kind === 'result' && out.result.isError, true);
  });

  test('an unknown tool is reported by the server (tool error, or JSON-RPC error)', async () => {
    const out = await s.callTool('no_such_tool', {});
    if (out.kind === 'result') assert.equal(out.result.isError, true);
    else assert.equal(out.error.kind, 'protocol-error');
  });

  test('progress notifications and log messages reach the caller', async () => {
    const progress: number[] = [];
    const logs: unknown[] = [];
    const onLog = (p: { data: unknown }) => logs.push(p.data);
    s.on('log', onLog);
    const out = await s.callTool('count_slowly', { n: 4, delayMs: 5 }, { onProgress: (p) => progress.push(p.progress) });
    s.off('log', onLog);
    assert.equal(text(out), 'counted to 4');
    // Every notification, even those read in the same stdout chunk as the response (the bare SDK client drops those).
    assert.deepEqual(progress, [1, 2, 3, 4]);
    assert.ok(logs.includes('counted 4'), `logs: ${JSON.stringify(logs)}`);
  });

  test('cancel sends notifications/cancelled and settles at once', async () => {
    const ac = new AbortController();
    const pending = s.callTool('count_slowly', { n: 50, delayMs: 100 }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 150);
    const out = await pending;
    assert.equal(out.kind, 'error');
    assert.equal(out.kind === 'error' && out.error.kind, 'cancelled');
    assert.ok(out.durationMs < 2000);
    // The session stays usable.
    assert.equal(text(await s.callTool('echo_text', { text: 'still here' })), 'still here');
  });

  test('resources are read and prompts are got', async () => {
    const resources = await s.listResources();
    assert.deepEqual(
      resources.map((r) => r.uri),
      ['fixture://notes/readme'],
    );
    const read = await s.readResource('fixture://notes/readme');
    assert.equal((read.contents[0] as { text: string }).text, 'hello from the readme resource');
    const prompts = await s.listPrompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['review_code'],
    );
    const got = await s.getPrompt('review_code', { language: 'Rust' });
    assert.match(JSON.stringify(got.messages), /review this Rust code/);
  });

  test('restart gives a fresh, working process', async () => {
    const pid = s.pid;
    await s.restart();
    assert.equal(s.status, 'running');
    assert.notEqual(s.pid, pid);
    assert.equal(text(await s.callTool('echo_text', { text: 'again' })), 'again');
  });
});

describe('well-behaved Python server (mcp 2.x in the project venv)', () => {
  before(() => venvPython());

  test('starts, lists tools with $defs schemas, calls with progress and logs', async () => {
    const s = session(pyServer('well_behaved.py'));
    await s.start();
    assert.equal(s.serverInfo?.name, 'py-fixture');
    assert.deepEqual(s.tools.map((t) => t.name).sort(), ['greet', 'long_job', 'ship']);
    const ship = s.tools.find((t) => t.name === 'ship')!;
    assert.ok(JSON.stringify(ship.inputSchema).includes('$defs') || JSON.stringify(ship.inputSchema).includes('$ref'), 'pydantic model parameter uses $defs/$ref');
    assert.equal(text(await s.callTool('greet', { name: 'Ada', times: 2 })), 'Hello, Ada! Hello, Ada!');
    const progress: number[] = [];
    const logs: unknown[] = [];
    s.on('log', (p) => logs.push(p.data));
    assert.equal(text(await s.callTool('long_job', { steps: 3 }, { onProgress: (p) => progress.push(p.progress) })), 'done 3');
    assert.deepEqual(progress, [1, 2, 3]);
    assert.ok(
      logs.some((d) => String(d).includes('python step 3')),
      JSON.stringify(logs),
    );
    await s.stop();
    assert.equal(s.status, 'stopped');
  });
});

describe('misbehaving servers', () => {
  test('exits at start (TS): says so, with the stderr tail', async () => {
    const s = session(nodeServer('misbehaving.mjs', 'exit-at-start'));
    await assert.rejects(s.start(), (e: Error & { kind?: string }) => {
      assert.equal(e.kind, 'exited-at-start');
      assert.match(e.message, /exited during start-up/);
      assert.match(e.message, /missing configuration file settings\.toml/);
      return true;
    });
    assert.equal(s.status, 'failed');
  });

  test('exits at start (Python): the traceback reaches the message', async () => {
    const s = session(pyServer('misbehaving.py', 'exit-at-start'));
    await assert.rejects(s.start(), /DATABASE_URL is not set/);
  });

  test('a command that does not exist', async () => {
    const s = session({ command: 'definitely-not-a-command-xyz', args: [] });
    await assert.rejects(s.start(), /command not found/);
  });

  test('never answers initialize: bounded wait, clear message, process stopped', async () => {
    // The 2026 probe (server/discover, on a sibling process) waits first: its bound is set short here too, or the
    // default 5 s probe plus start-up on a loaded machine broke a 6 s bound one run in three.
    const s = session(nodeServer('misbehaving.mjs', 'no-initialize'), { initializeTimeoutMs: 800, probeTimeoutMs: 500 });
    const t0 = Date.now();
    await assert.rejects(s.start(), /did not answer "initialize" within 1 s/);
    assert.ok(Date.now() - t0 < 4000, `${Date.now() - t0} ms`);
    assert.equal(s.status, 'failed');
  });

  test('junk on stdout: a warning about stdout, and the calls still work', async () => {
    const s = session(nodeServer('misbehaving.mjs', 'junk-stdout'));
    const warnings: string[] = [];
    s.on('warning', (w) => warnings.push(w));
    await s.start();
    assert.equal(text(await s.callTool('ok', {})), 'fine');
    assert.ok(
      warnings.some((w) => /not JSON-RPC/.test(w) && /stderr/.test(w)),
      warnings.join('\n'),
    );
    await s.stop();
  });

  test('junk on stdout (Python print before run)', async () => {
    const s = session(pyServer('misbehaving.py', 'junk-stdout'));
    const warnings: string[] = [];
    s.on('warning', (w) => warnings.push(w));
    await s.start();
    assert.equal(text(await s.callTool('ok', {})), 'fine');
    assert.ok(
      warnings.some((w) => /not JSON-RPC/.test(w)),
      warnings.join('\n'),
    );
    await s.stop();
  });

  for (const [label, spec] of [
    ['TS', () => nodeServer('misbehaving.mjs', 'crash-mid-call')],
    ['Python', () => pyServer('misbehaving.py', 'crash-mid-call')],
  ] as const) {
    test(`crashes mid-call (${label}): the call ends with the exit and stderr; restart works`, async () => {
      const s = session(spec());
      await s.start();
      const out = await s.callTool('crash', {});
      assert.equal(out.kind, 'error');
      if (out.kind !== 'error') return;
      assert.equal(out.error.kind, 'crashed');
      assert.match(out.error.message, /stopped during the call \((exit code (70|9)|process ended)\)/);
      assert.match(out.error.message, /panic: index out of range|segfault-ish/);
      assert.equal(s.status, 'crashed');
      const again = await s.callTool('ok', {});
      assert.equal(again.kind === 'error' && again.error.kind, 'not-running');
      await s.restart();
      assert.equal(text(await s.callTool('ok', {})), 'fine');
    });
  }

  for (const [label, spec] of [
    ['TS', () => nodeServer('misbehaving.mjs', 'hang')],
    ['Python', () => pyServer('misbehaving.py', 'hang')],
  ] as const) {
    test(`hangs in a tool (${label}): the timeout cancels it, the session stays usable`, async () => {
      const s = session(spec());
      await s.start();
      const out = await s.callTool('hang', {}, { timeoutMs: 700 });
      assert.equal(out.kind === 'error' && out.error.kind, 'timeout');
      assert.match(out.kind === 'error' ? out.error.message : '', /No answer within 1 s/);
      assert.equal(text(await s.callTool('ok', {})), 'fine');
    });
  }

  test('a 20 MB result arrives whole', async () => {
    const s = session(nodeServer('misbehaving.mjs', 'huge-result'));
    await s.start();
    const out = await s.callTool('huge', {}, { timeoutMs: 30_000 });
    assert.equal(out.kind, 'result', out.kind === 'error' ? out.error.message : '');
    if (out.kind !== 'result') return;
    const first = out.result.content[0];
    assert.equal(first.type === 'text' && first.text.length, 20 * 1024 * 1024);
    assert.ok(out.responseBytes > 20 * 1024 * 1024);
    assert.equal(text(await s.callTool('ok', {})), 'fine');
  });

  test('structuredContent breaking its outputSchema is still delivered (the playground shows the violations)', async () => {
    const s = session(nodeServer('misbehaving.mjs', 'bad-structured'));
    await s.start();
    const out = await s.callTool('get_user', {});
    assert.equal(out.kind, 'result');
    assert.deepEqual(out.kind === 'result' && out.result.structuredContent, { id: 'seven', email: 'not-an-email' });
  });

  test('progress and logs from a raw server', async () => {
    const s = session(nodeServer('misbehaving.mjs', 'progress-logs'));
    await s.start();
    const progress: string[] = [];
    const logs: unknown[] = [];
    s.on('log', (p) => logs.push(p));
    const out = await s.callTool('work', {}, { onProgress: (p) => progress.push(`${p.progress}/${p.total} ${p.message}`) });
    assert.equal(text(out), 'worked');
    assert.deepEqual(progress, ['1/3 phase 1', '2/3 phase 2', '3/3 phase 3']);
    assert.deepEqual(logs[2], { level: 'warning', logger: 'worker', data: { phase: 3 } });
  });

  test('a progress notification after its result: on the timeline, not a warning in the log', async () => {
    const s = session(nodeServer('misbehaving.mjs', 'noisy'));
    const warnings: string[] = [];
    s.on('warning', (w) => warnings.push(w));
    await s.start();
    const out = await s.callTool('work', {}, { onProgress: () => undefined });
    assert.equal(text(out), 'worked');
    for (let i = 0; i < 50 && !s.timeline.entries.some((e) => e.method === 'notifications/progress'); i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(
      s.timeline.entries.some((e) => e.method === 'notifications/progress' && e.direction === 'in'),
      'the late notification is on the timeline',
    );
    assert.deepEqual(warnings, [], 'the SDK\'s "unknown token" bookkeeping is not the server\'s fault');
  });

  test('secret env values never reach stderr lines or messages', async () => {
    const s = session({ ...nodeServer('misbehaving.mjs', 'exit-at-start'), env: { API_TOKEN: 'settings.toml' } });
    const lines: string[] = [];
    s.on('stderr', (l) => lines.push(l));
    await assert.rejects(s.start(), (e: Error) => {
      assert.ok(!e.message.includes('settings.toml'), e.message);
      assert.match(e.message, /\*\*\*\*/);
      return true;
    });
    assert.ok(lines.length > 0 && lines.every((l) => !l.includes('settings.toml')));
  });
});

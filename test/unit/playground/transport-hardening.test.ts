// What a server sends cannot stall the extension host or hold memory (issue 17): stdout framing linear in size,
// stderr bounded with \r progress, notification floods coalesced before the webview, replies to unknown ids and a
// missing working directory named for what they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StderrLines, StdioFramer } from '../../../client/src/servers/framing';
import { McpSession } from '../../../client/src/servers/session';
import { playgroundOn } from './helpers';

test('stdout: one 100 MB message is framed in linear time (the SDK ReadBuffer took 77 s)', () => {
  const text = 'x'.repeat(100 * 1024 * 1024);
  const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } })}\n`);
  const framer = new StdioFramer(256 * 1024 * 1024, () => assert.fail('not junk'));
  const t0 = performance.now();
  for (let i = 0; i < line.length; i += 64 * 1024) framer.append(line.subarray(i, i + 64 * 1024));
  const msg = framer.readMessage() as unknown as { id: number; result: { content: { text: string }[] } };
  const ms = performance.now() - t0;
  assert.equal(msg.id, 1);
  assert.equal(msg.result.content[0].text.length, text.length);
  assert.equal(framer.readMessage(), null);
  assert.ok(ms < 15_000, `framing 100 MB took ${Math.round(ms)} ms`);
});

test('stdout: a line that is not JSON-RPC is named, the next message still read', () => {
  const junk: string[] = [];
  const framer = new StdioFramer(1024, (l, why) => junk.push(`${why}: ${l}`));
  framer.append(Buffer.from('Server listening on stdio\n{"jsonrpc":"2.0","id":3,"result":{}}\n{"not":"rpc"}\n'));
  assert.deepEqual(framer.readMessage(), { jsonrpc: '2.0', id: 3, result: {} });
  assert.deepEqual(junk, ['not JSON: Server listening on stdio', 'JSON, but not a JSON-RPC message: {"not":"rpc"}']);
  assert.throws(() => framer.append(Buffer.alloc(2048, 0x61)), /exceeded/);
});

test('stderr: 30 MB of \\r progress is not held; the line shown is what the terminal would show', () => {
  const lines = new StderrLines(16 * 1024);
  const out: string[] = [];
  for (let i = 0; i < 30 * 1024; i++) out.push(...lines.push(`downloading ${String(i).padStart(1000, '.')}\r`));
  assert.equal(out.length, 0, 'no line before the newline');
  const held = (lines as unknown as { partial: string }).partial.length;
  assert.ok(held < 16 * 1024, `${held} chars held`);
  out.push(...lines.push('done\n'));
  assert.deepEqual(out, ['done']);
  // A 30 MB line without any newline: head and tail kept, bounded.
  const big = new StderrLines(16 * 1024);
  for (let i = 0; i < 30; i++) big.push('y'.repeat(1024 * 1024));
  const [cut] = big.push('END\n');
  assert.ok(cut.length < 17 * 1024 && cut.endsWith('END') && /line cut/.test(cut), `${cut.length} chars`);
  // CRLF is a plain line end.
  assert.deepEqual(new StderrLines().push('a\r\nb\r\n'), ['a', 'b']);
});

test('notification floods are coalesced before the webview', async () => {
  const s = new McpSession({ command: 'unused', args: [] });
  const { c, posted } = playgroundOn(s);
  for (let i = 0; i < 100_000; i++) s.emit('log', { level: 'info', data: `line ${i}` });
  await new Promise((r) => setTimeout(r, 120));
  const logs = posted.filter((m) => m.type === 'log');
  assert.ok(logs.length <= 201, `${logs.length} log posts for 100,000 notifications`);
  assert.ok(
    logs.some((m) => m.type === 'log' && /99,800 more log lines/.test(m.entry.text)),
    'says how many were left out',
  );
  c.dispose();
});

/** A raw JSON-RPC server in plain Node: answers initialize, and a tools/call with a stray reply to id 999 first. */
function strayReplyServer(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-stray-')), 'server.mjs');
  fs.writeFileSync(
    file,
    `import * as readline from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
readline.createInterface({ input: process.stdin }).on('line', (l) => {
  const m = JSON.parse(l);
  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stray', version: '1' } } });
  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'ok', inputSchema: { type: 'object' } }] } });
  else if (m.method === 'tools/call') { send({ jsonrpc: '2.0', id: 999, result: {} }); send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } }); }
  else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`,
  );
  return file;
}

test('a reply to an unknown id is not blamed on "not JSON-RPC"', async () => {
  const s = new McpSession({ command: process.execPath, args: [strayReplyServer()] }, { probeTimeoutMs: 2000 });
  const warnings: string[] = [];
  s.on('warning', (w) => warnings.push(w));
  await s.start();
  const r = await s.callTool('ok', {});
  assert.equal(r.kind, 'result');
  await new Promise((res) => setTimeout(res, 50));
  await s.stop();
  assert.ok(!warnings.some((w) => /not JSON-RPC/.test(w)), warnings.join('\n'));
  assert.ok(
    warnings.some((w) => /request id 999/.test(w) && /never sent or has stopped waiting/.test(w)),
    warnings.join('\n'),
  );
});

test('a working directory that does not exist is reported as such, not as "command not found"', async () => {
  const s = new McpSession({ command: process.execPath, args: ['-e', ''], cwd: '/no/such/dir/toolsmith' });
  await assert.rejects(s.start(), (e: Error) => /working directory \/no\/such\/dir\/toolsmith does not exist/.test(e.message) && !/command not found/.test(e.message));
});

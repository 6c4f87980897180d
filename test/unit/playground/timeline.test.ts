// The timeline's bounds and pairing, on messages built by hand (the session feeds it from the transport; the protocol
// test against server-everything proves that part).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Timeline } from '../../../client/src/servers/timeline';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

const req = (id: number, method = 'tools/call', params: Record<string, unknown> = {}): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, params });
const res = (id: number, result: Record<string, unknown> = {}): JSONRPCMessage => ({ jsonrpc: '2.0', id, result });

test('the last maxEntries messages are kept, the dropped ones counted; pairing still works past the cap', () => {
  const t = new Timeline(undefined, 100, 1000);
  for (let i = 1; i <= 150; i++) t.record('out', { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: i } });
  assert.equal(t.entries.length, 100);
  assert.equal(t.dropped, 50);
  assert.equal(t.entries[0].seq, 51);
  t.record('out', req(7), 1000);
  const answer = t.record('in', res(7), 1250);
  assert.equal(answer.durationMs, 250);
  assert.equal(answer.method, 'tools/call', 'the response names the method it answers');
  assert.equal(t.entries.find((e) => e.kind === 'request')?.answeredBy, answer.seq);
});

test('a big message keeps its head only, its size recorded, and cannot be replayed; a small one keeps its params', () => {
  const t = new Timeline(undefined, 10, 1000);
  const big = t.record('out', req(1, 'tools/call', { name: 'x', arguments: { blob: 'y'.repeat(5000) } }));
  assert.equal(big.text.length, 1000);
  assert.ok(big.cut);
  assert.ok(big.chars > 5000);
  assert.equal(big.params, undefined);
  const small = t.record('out', req(2, 'tools/call', { name: 'x', arguments: { a: 1 } }));
  assert.deepEqual(small.params, { name: 'x', arguments: { a: 1 } });
  assert.equal(small.cut, undefined);
});

test('server → client requests pair with our replies; text is masked before it is stored', () => {
  const t = new Timeline((s) => s.split('hunter22').join('****'));
  t.record('in', req(0, 'sampling/createMessage', { messages: [] }), 10);
  const reply = t.record('out', res(0, { content: { type: 'text', text: 'password hunter22' } }), 40);
  assert.equal(reply.method, 'sampling/createMessage');
  assert.equal(reply.durationMs, 30);
  assert.ok(!reply.text.includes('hunter22') && reply.text.includes('****'));
  // Same id, other direction: a client request 0 is not answered by the server's request's reply.
  t.record('out', req(0, 'ping'), 50);
  const pong = t.record('in', res(0), 60);
  assert.equal(pong.method, 'ping');
  assert.equal(pong.durationMs, 10);
});

test('a reset (new connection) forgets open requests: a reused id is not paired with the old one', () => {
  const t = new Timeline();
  t.record('out', req(1), 0);
  t.reset();
  const r = t.record('in', res(1), 500);
  assert.equal(r.durationMs, undefined);
});

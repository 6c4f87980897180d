import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { diffJson, compareContracts, jsonEqual, versionSatisfies } from '../../../common/contract-diff';
import { liveContracts } from './sdk-contracts';

const range = { start: { line: 4, character: 2 }, end: { line: 4, character: 9 } };

async function contractWith(max: number, description: string) {
  const [tool] = await liveContracts((s) =>
    s.registerTool('search_docs', { description, inputSchema: { query: z.string().max(max).describe('Words'), page: z.number().int().optional() } }, async () => ({ content: [] })),
  );
  return tool;
}

test('identical contracts with a different key order are the same', async () => {
  const a = await contractWith(100, 'Search the docs.');
  const reordered = Object.fromEntries(Object.entries(a).reverse());
  assert.ok(jsonEqual(a, reordered));
  assert.deepEqual(diffJson(a, reordered), []);
  assert.equal(compareContracts({ toolName: 'search_docs', predicted: a, live: reordered, unresolved: [] }).status, 'same');
});

test('the diff names each changed field by its contract path', async () => {
  const predicted = await contractWith(100, 'Search the docs.');
  const live = await contractWith(200, 'Search the documentation.');
  const d = diffJson(predicted, live);
  assert.deepEqual(
    d.map((x) => [x.path, x.kind, x.predicted, x.live]),
    [
      ['description', 'changed', '"Search the docs."', '"Search the documentation."'],
      ['inputSchema.properties.query.maxLength', 'changed', '100', '200'],
    ],
  );
  // Added / removed fields and whole-array changes (required order matters).
  const d2 = diffJson({ a: 1, required: ['x', 'y'] }, { b: 2, required: ['y', 'x'] });
  assert.deepEqual(
    d2.map((x) => [x.path, x.kind]),
    [
      ['a', 'removed'],
      ['required', 'changed'],
      ['b', 'added'],
    ],
  );
});

test('a source saved after the server started: stale, with a restart action', async () => {
  const predicted = await contractWith(100, 'Search the docs.');
  const live = await contractWith(100, 'Old text.');
  const diff = compareContracts({ toolName: 'search_docs', predicted, live, unresolved: [], stale: { message: 'server.ts was saved after the server started.' } });
  assert.equal(diff.status, 'different');
  assert.equal(diff.reasons[0].kind, 'stale');
  assert.ok(diff.reasons[0].kind === 'stale' && diff.reasons[0].action === 'restart');
  assert.match(diff.reasons[0].message, /stale code.*Restart/);
});

test('a difference under an unresolved part is attributed to it and points at its source', async () => {
  const predicted = await contractWith(100, 'Search the docs.');
  const { description: _drop, ...withoutDescription } = predicted;
  const live = predicted;
  const diff = compareContracts({
    toolName: 'search_docs',
    predicted: withoutDescription,
    live,
    unresolved: [
      { part: 'description', reason: 'built at run time', uri: 'file:///w/server.ts', range },
      { part: 'inputSchema.properties.other', reason: 'not involved', uri: 'file:///w/server.ts', range },
    ],
  });
  assert.equal(diff.differences.length, 1);
  assert.equal(diff.differences[0].kind, 'added');
  assert.equal(diff.differences[0].unresolved, 'description: built at run time');
  assert.deepEqual(
    diff.reasons.map((r) => r.kind),
    ['unresolved'],
  );
  assert.ok(diff.reasons[0].kind === 'unresolved' && diff.reasons[0].range.start.line === 4);
});

test('an SDK version outside the declared range is named; no reason found is reported as our bug', async () => {
  const predicted = await contractWith(100, 'a');
  const live = await contractWith(100, 'b');
  const mismatch = compareContracts({ toolName: 'search_docs', predicted, live, unresolved: [], sdk: { packageName: '@modelcontextprotocol/sdk', predicted: '^1.32.0', installed: '1.20.1' } });
  assert.deepEqual(
    mismatch.reasons.map((r) => r.kind),
    ['sdk-version'],
  );
  assert.match(mismatch.reasons[0].message, /1\.32\.0.*1\.20\.1/);
  const inRange = compareContracts({ toolName: 'search_docs', predicted, live, unresolved: [], sdk: { packageName: '@modelcontextprotocol/sdk', predicted: '^1.32.0', installed: '1.32.2' } });
  assert.deepEqual(
    inRange.reasons.map((r) => r.kind),
    ['unexplained'],
  );
  assert.match(inRange.reasons[0].message, /Toolsmith bug/);
});

test('a tool the running server does not publish', async () => {
  const predicted = await contractWith(100, 'a');
  const diff = compareContracts({ toolName: 'search_docs', predicted, live: undefined, unresolved: [], stale: { message: 'x.' } });
  assert.equal(diff.status, 'missing-live');
  assert.equal(diff.reasons[0].kind, 'stale');
});

test('version ranges', () => {
  assert.ok(versionSatisfies('^1.32.0', '1.32.2'));
  assert.ok(!versionSatisfies('^1.32.0', '2.0.0'));
  assert.ok(versionSatisfies('~=2.3.0', '2.3.4'));
  assert.ok(!versionSatisfies('==2.3.0', '2.3.1'));
  assert.ok(versionSatisfies('>=2.0', '2.3.0'));
});

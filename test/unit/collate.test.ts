// compareLikeLocale (server/src/cli/collate.ts) must order exactly as localeCompare: the CLI sorts files and findings
// with it, and a different order would be a different output.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compareLikeLocale } from '../../server/src/cli/collate';

const ALPHABET = [...'_-,;:!?.\'"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz', 'A', 'Z', ' ', '\t', 'é', 'e\u0301', 'ß', '\u0000', 'ǆ', '日'];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

test('compareLikeLocale orders every pair as localeCompare does', () => {
  const r = rng(7);
  const word = (len: number) => Array.from({ length: len }, () => ALPHABET[Math.floor(r() * ALPHABET.length)]).join('');
  let fastPath = 0;
  for (let i = 0; i < 50_000; i++) {
    // A shared prefix, then each its own tail: the pairs differ at every position and character class.
    const prefix = word(Math.floor(r() * 6));
    const a = prefix + word(Math.floor(r() * 4));
    const b = prefix + word(Math.floor(r() * 4));
    const want = Math.sign(a.localeCompare(b));
    assert.equal(Math.sign(compareLikeLocale(a, b)), want, `${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    if (/^[\x20-\x7e]*$/.test(a + b)) fastPath++;
  }
  assert.ok(fastPath > 1000, 'the pairs reach the table');
});

test('compareLikeLocale sorts real file paths and rule ids as localeCompare does', () => {
  const names = [
    'server.py',
    'server_utils.py',
    '__init__.py',
    'Server.py',
    'a-b.ts',
    'a_b.ts',
    'a.b.ts',
    'a0.ts',
    'a10.ts',
    'a9.ts',
    'corpus/mcp_server_git/server.py',
    'corpus/mcp_server_fetch/server.py',
    'corpus/mcp-alchemy/x.py',
  ];
  const ids = ['param-description-missing', 'param-untyped', 'description-missing', 'description-placeholder', 'tool-name-verb-mixed', 'tool-name-collides'];
  for (const list of [names, ids])
    assert.deepEqual(
      [...list].sort(compareLikeLocale),
      [...list].sort((a, b) => a.localeCompare(b)),
    );
});

// The Python front-end parses through parsePython (server/src/analysis/python/parse.ts): a new text of a file it
// parsed before is parsed incrementally from the old tree. What would go wrong for a user: a tree that differs from a
// full parse (wrong tools, spans or findings after some edit). Every edit below, of the kinds typing makes (a
// character, a newline and indentation, a deleted range, a pasted block, a quote that opens a string), must give
// exactly the tree a fresh parse gives.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Tree } from '@lezer/common';
import { parser } from '@lezer/python';
import { parsePython } from '../../../server/src/analysis/python/parse';

function nodes(tree: Tree): string {
  const out: string[] = [];
  tree.iterate({ enter: (n) => void out.push(`${n.type.id}:${n.from}-${n.to}`) });
  return out.join(' ');
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SNIPPETS = ['x', ' ', '\n', '\n    ', '"', "'''", '(', ')', ':', '#', 'def f(a: int) -> str:\n    return "a"\n', '@mcp.tool()\n', '\t', ''];

const dir = path.resolve(__dirname, '../../fixtures/py');
const files = fs
  .readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.py'))
  .sort()
  .slice(0, 6)
  .map((f) => path.join(dir, f));

test('incremental Python parse: every edit gives the tree of a full parse', () => {
  assert.ok(files.length >= 3, `fixtures found: ${files.length}`);
  const r = rng(13);
  let edits = 0;
  for (const file of files) {
    let text = fs.readFileSync(file, 'utf8');
    const key = `${file}#incremental-test`;
    parsePython(key, text);
    for (let i = 0; i < 40; i++) {
      const at = Math.floor(r() * (text.length + 1));
      const del = r() < 0.3 ? Math.floor(r() * 30) : 0;
      const ins = SNIPPETS[Math.floor(r() * SNIPPETS.length)];
      text = text.slice(0, at) + ins + text.slice(Math.min(text.length, at + del));
      assert.equal(nodes(parsePython(key, text)), nodes(parser.parse(text)), `${path.basename(file)}, edit ${i}: at ${at}, deleted ${del}, inserted ${JSON.stringify(ins)}`);
      edits++;
    }
  }
  assert.ok(edits >= 120);
});

test('incremental Python parse: the same text again is the same tree (no second parse)', () => {
  const text = fs.readFileSync(files[0], 'utf8');
  const a = parsePython(`${files[0]}#same`, text);
  assert.equal(parsePython(`${files[0]}#same`, text), a);
  // Another file with the same text is its own entry, and a full parse of it matches.
  assert.equal(nodes(parsePython(`${files[0]}#other`, text)), nodes(a));
});

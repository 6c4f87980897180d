/**
 * The bundles inline third-party code; its notices must ship with them. Every package a bundle's source map names is
 * listed in dist/THIRD-PARTY-NOTICES.txt with its license text, and the .vsix allow-list carries the file.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');

function sourceMaps(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceMaps(path.join(dir, e.name)) : e.name.endsWith('.js.map') ? [path.join(dir, e.name)] : []));
}

test('every package bundled into dist/ is named in THIRD-PARTY-NOTICES.txt with its license text, and the .vsix ships the file', () => {
  const notices = fs.readFileSync(path.join(DIST, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
  const bundled = new Set<string>();
  const maps = sourceMaps(DIST);
  assert.ok(maps.length >= 6, 'the development build writes source maps for every bundle');
  for (const map of maps) {
    for (const source of (JSON.parse(fs.readFileSync(map, 'utf8')) as { sources: string[] }).sources) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
      // A package not installed is a path from a bundled package's own source map (the MCP SDK 2.x maps its dist back
      // to its monorepo-internal @modelcontextprotocol/core-internal): its code is that installed package's, listed.
      if (m && fs.existsSync(path.join(ROOT, 'node_modules', m[1], 'package.json'))) bundled.add(m[1]);
    }
  }
  assert.ok(bundled.has('typescript') && bundled.has('zod') && bundled.has('@modelcontextprotocol/sdk') && bundled.has('@modelcontextprotocol/client'), 'the big ones are bundled');
  const sections = new Map(
    notices
      .split(/^={78}\n/m)
      .slice(1)
      .map((s) => {
        const [head, ...rest] = s.split('\n');
        return [head.split(' ')[0], rest.join('\n')] as const;
      }),
  );
  for (const name of bundled) {
    assert.ok(sections.has(name), `${name} is listed`);
    assert.ok((sections.get(name) ?? '').replace(/^-+\n/, '').trim().length > 20, `${name} carries its license text`);
  }
  assert.match(sections.get('typescript') ?? '', /Apache License/);
  const files = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
  assert.ok(files.includes('dist/THIRD-PARTY-NOTICES.txt'), 'package.json "files" ships the notices');
});

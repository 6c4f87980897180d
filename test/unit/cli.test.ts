import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const cli = path.resolve(__dirname, '../../dist/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

test('cli: --version prints the package version and exits 0', () => {
  const r = run('--version');
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trim(), (JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version);
});

test('cli: --help lists both commands', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /toolsmith check/);
  assert.match(r.stdout, /toolsmith contract/);
});

test('cli: usage errors exit 2 with a clear message', () => {
  const unknown = run('frobnicate');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  const missing = run('contract', '/nonexistent/server.ts');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read/);
  const badFormat = run('check', '--format', 'xml', '.');
  assert.equal(badFormat.status, 2);
  assert.match(badFormat.stderr, /unknown format "xml"/);
});

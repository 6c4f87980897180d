// The packaged extension ships dist/ without node_modules: the client bundle (which carries the preview, the SDK
// Client, the tokenizer and jsonc-parser) must load on its own, with only `vscode` provided by the host.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

test('dist/client.js loads outside the repository (no node_modules), vscode stubbed', () => {
  const bundle = path.resolve(__dirname, '../../../dist/client.js');
  assert.ok(fs.existsSync(bundle), 'build first (node esbuild.mjs)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-bundle-'));
  fs.copyFileSync(bundle, path.join(dir, 'client.js'));
  const script = `
    const Module = require('module'); const load = Module._load;
    const stub = new Proxy(function () {}, { get: () => stub, apply: () => stub, construct: () => stub });
    Module._load = function (request) { return request === 'vscode' ? stub : load.apply(this, arguments); };
    const m = require(${JSON.stringify(path.join(dir, 'client.js'))});
    if (typeof m.activate !== 'function') throw new Error('no activate export');
  `;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 0, r.stderr);
});

test('token counting works from the packaged files: client.js requires dist/tokenizer.js, which counts on its own', () => {
  const dist = path.resolve(__dirname, '../../../dist');
  const client = fs.readFileSync(path.join(dist, 'client.js'), 'utf8');
  assert.match(client, /require\("\.\/tokenizer\.js"\)/, 'the client loads the tokenizer file with a plain require');
  assert.doesNotMatch(client, /import\("\.\/tokenizer\.js"\)/, 'a dynamic import of a CommonJS file would hand back module.exports as default');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-tokenizer-'));
  fs.copyFileSync(path.join(dist, 'tokenizer.js'), path.join(dir, 'tokenizer.js'));
  const script = `
    const { createO200kEncoder } = require('./tokenizer.js');
    process.stdout.write(String(createO200kEncoder().encode('Search the helpdesk tickets', [], []).length));
  `;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) >= 4 && Number(r.stdout) <= 8, `a short sentence is a handful of tokens, got ${r.stdout}`);
});

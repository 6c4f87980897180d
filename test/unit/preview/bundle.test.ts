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

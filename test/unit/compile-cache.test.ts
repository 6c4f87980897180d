// The CLI loads its TypeScript front-end bundle (dist/cli-typescript.js) with a V8 code cache in the user's cache
// directory (server/src/cli/compile-cache.ts). What a user would notice if it went wrong: a different contract, a
// crash on a damaged or stale cache file, or no cache at all (every run as slow as the first). Uses dist/ (build first).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist', 'cli.js');
const server = path.join(root, 'examples', 'helpdesk-ts', 'src', 'server.ts');

function contract(env: Record<string, string>) {
  const r = spawnSync(process.execPath, [cli, 'contract', server, '--json'], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const cacheFiles = (dir: string) => {
  const d = path.join(dir, 'compile-cache');
  return fs.existsSync(d) ? fs.readdirSync(d).filter((f) => f.endsWith('.bin')) : [];
};

test('compile cache: written on the first run, used by the next, same contract as without it', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-cc-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const plain = contract({ TOOLSMITH_COMPILE_CACHE: '0', TOOLSMITH_CACHE_DIR: dir });
  assert.deepEqual(cacheFiles(dir), [], 'TOOLSMITH_COMPILE_CACHE=0 still wrote a cache');
  assert.ok(JSON.parse(plain), 'no JSON contract');

  const first = contract({ TOOLSMITH_CACHE_DIR: dir });
  const files = cacheFiles(dir);
  assert.equal(files.length, 1, `cache files after the first run: ${files.join(', ')}`);
  assert.match(files[0], /^cli-typescript-[0-9a-f]{16}\.bin$/);
  const written = fs.statSync(path.join(dir, 'compile-cache', files[0]));
  assert.ok(written.size > 100_000, `a code cache of ${written.size} bytes holds nearly nothing`);

  const second = contract({ TOOLSMITH_CACHE_DIR: dir });
  assert.equal(first, plain);
  assert.equal(second, plain);
  // Accepted by V8, so not written again.
  assert.equal(fs.statSync(path.join(dir, 'compile-cache', files[0])).mtimeMs, written.mtimeMs, 'the cache was rejected and rewritten by a run of the same bundle');
});

test('compile cache: a damaged cache file is ignored and replaced, never a crash or another contract', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-cc-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const plain = contract({ TOOLSMITH_COMPILE_CACHE: '0', TOOLSMITH_CACHE_DIR: dir });
  contract({ TOOLSMITH_CACHE_DIR: dir });
  const [file] = cacheFiles(dir);
  const full = path.join(dir, 'compile-cache', file);
  const good = fs.readFileSync(full);
  fs.writeFileSync(full, Buffer.concat([good.subarray(0, 64), Buffer.alloc(4096, 0x5a)]));
  assert.equal(contract({ TOOLSMITH_CACHE_DIR: dir }), plain);
  assert.ok(fs.statSync(full).size > 100_000, 'the damaged cache was not replaced');
  assert.equal(contract({ TOOLSMITH_CACHE_DIR: dir }), plain);
});

test('compile cache: an unwritable cache directory only costs speed', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-cc-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // A file where the directory should be: mkdir fails whatever the user's rights (root included).
  const blocked = path.join(dir, 'blocked');
  fs.writeFileSync(blocked, '');
  const plain = contract({ TOOLSMITH_COMPILE_CACHE: '0' });
  assert.equal(contract({ TOOLSMITH_CACHE_DIR: blocked }), plain);
});

/**
 * Contract fidelity (TESTING.md §3), Python: every fixture server under test/fixtures/py/fidelity is started for
 * real with the pinned frameworks of the project venv (mcp 2.3.0, fastmcp 4.2.3), asked for tools/list by the TS
 * SDK's own Client over stdio, and compared tool by tool (deep-equal, key order ignored) with
 * `node dist/cli.js contract <file> --json` (./compare.ts). Servers: every `sdk_*.py` / `fast_*.py` fixture.
 * The removed 1.x import (`from mcp.server.fastmcp import FastMCP`) is proven the same way against the newest mcp 1.x
 * (.cache/venv-mcp1, test/python-requirements-mcp1.txt) with the `v1_*.py` servers of test/fixtures/py/fidelity-mcp1,
 * whose requirements.txt pins that version.
 */
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, compareTools, liveTools, predictedTools, root, type FileTools } from './compare';
import { mapLimit } from '../util/pool';

const fixtures = path.join(root, 'test/fixtures/py/fidelity');
const fixturesMcp1 = path.join(root, 'test/fixtures/py/fidelity-mcp1');
let python = '';
let pythonMcp1 = '';

before(async () => {
  // ensure-venv.mjs is ESM; the test runs as CJS through tsx.
  const mod = (await import(path.join(root, 'scripts/ensure-venv.mjs'))) as { ensureVenv: () => string; ensureVenvMcp1: () => string };
  python = mod.ensureVenv();
  assert.ok(fs.existsSync(python), `the project venv python is missing at ${python}`);
  pythonMcp1 = mod.ensureVenvMcp1();
  assert.ok(fs.existsSync(pythonMcp1), `the mcp 1.x venv python is missing at ${pythonMcp1}`);
  // The fixture folders declare their Python (.python-version): the SDK publishes `__doc__`, which 3.13+ dedents.
  for (const [dir, interpreter] of [
    [fixtures, python],
    [fixturesMcp1, pythonMcp1],
  ]) {
    const declared = fs.readFileSync(path.join(dir, '.python-version'), 'utf8').trim();
    const actual = spawnSync(interpreter, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).stdout.trim();
    assert.equal(actual, declared, `${path.relative(root, dir)}/.python-version says ${declared} but the venv runs Python ${actual}: update the file`);
  }
  assert.ok(fs.existsSync(cli), 'dist/cli.js is missing: run node scripts/test-layer.mjs fidelity (it builds first)');
});

function servers(): string[] {
  return fs
    .readdirSync(fixtures)
    .filter((f) => /^(sdk|fast)_.*\.py$/.test(f) && !f.includes('_v1_'))
    .sort()
    .map((f) => path.join(fixtures, f));
}

/** The unresolved parts the CLI reports for a file (text output: `  unresolved <part>: <reason>`). */
function unresolvedOf(file: string): string[] {
  const r = spawnSync(process.execPath, [cli, 'contract', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, `toolsmith contract failed on ${file}: ${r.stderr}`);
  return r.stdout
    .split('\n')
    .filter((l) => /^\s*unresolved /.test(l))
    .map((l) => l.trim());
}

/** Starts the servers two at a time (the machine is shared) and pairs each one's tools/list with the prediction. */
async function liveAndPredicted(files: string[], interpreter: string): Promise<FileTools[]> {
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', FASTMCP_SHOW_SERVER_BANNER: 'false' } as Record<string, string>;
  return mapLimit(files, 2, async (file) => ({ file, live: await liveTools(file, { command: interpreter, args: [file], cwd: path.dirname(file), env }), predicted: predictedTools(file) }));
}

test('static contracts equal the live tools/list of the real Python frameworks', { timeout: 600_000 }, async () => {
  const files = servers();
  assert.ok(files.length >= 12, `expected at least 12 fixture servers, found ${files.length}`);
  const results = await liveAndPredicted(files, python);
  const { exact, total, failures } = compareTools(results, { order: false });
  console.log(`fidelity: ${exact}/${total} tools exact (${files.length} Python servers)`);
  assert.ok(total >= 60, `expected at least 60 tools, found ${total}`);
  assert.deepEqual(failures, [], failures.join('\n'));
  // Composed servers: the parent's own tools first, then each mounted server's, in mount order.
  const composed = results.filter((r) => /^fast_compose_/.test(path.basename(r.file)));
  assert.ok(composed.length >= 1, 'expected a fast_compose_*.py fixture');
  const ordered = compareTools(composed, { order: true });
  assert.deepEqual(ordered.failures, [], ordered.failures.join('\n'));
  // Tool versions (fastmcp 3.x+): the highest version listed once, at the place of its name's first registration.
  const versioned = results.filter((r) => path.basename(r.file) === 'fast_tool_versions.py');
  assert.equal(versioned.length, 1, 'expected the fast_tool_versions.py fixture');
  assert.ok(
    versioned[0].live.some((t) => t.name === 'greet'),
    'the versioned tool is listed live',
  );
  const inOrder = compareTools(versioned, { order: true });
  assert.deepEqual(inOrder.failures, [], inOrder.failures.join('\n'));
});

test('mcp 1.x: the removed `mcp.server.fastmcp` import, predicted for the pinned 1.30.0, equals its live tools/list', { timeout: 600_000 }, async () => {
  const files = fs
    .readdirSync(fixturesMcp1)
    .filter((f) => /^v1_.*\.py$/.test(f))
    .sort()
    .map((f) => path.join(fixturesMcp1, f));
  assert.ok(files.length >= 6, `expected at least 6 mcp 1.x fixture servers, found ${files.length}`);
  const { exact, total, failures } = compareTools(await liveAndPredicted(files, pythonMcp1), { order: false });
  console.log(`fidelity mcp 1.x: ${exact}/${total} tools exact (${files.length} servers, mcp 1.30.0)`);
  assert.ok(total >= 30, `expected at least 30 tools, found ${total}`);
  assert.deepEqual(failures, [], failures.join('\n'));
  // Proven for the pinned version: the preview shows these contracts as exact, not as unverified predictions.
  for (const file of files)
    assert.deepEqual(
      unresolvedOf(file).filter((u) => /unresolved contract:/.test(u)),
      [],
      path.basename(file),
    );
});

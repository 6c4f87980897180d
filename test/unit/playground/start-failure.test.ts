// A failed start says its likely cause: each case is a real process started by a real McpSession (the path the
// toast and the Servers tree read), its stderr classified by sessionFailure — a missing npm module (CommonJS and
// ESM), a Python without the SDK, a script path read from the wrong folder, a missing cwd, a command not found.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { McpSession, type LaunchSpec } from '../../../client/src/servers/session';
import { classifyStartFailure, sessionFailure, startFailureMessage, type StartFailure } from '../../../client/src/servers/startFailure';
import { root } from './helpers';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-start-failure-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
fs.writeFileSync(path.join(tmp, 'cjs-server.js'), "require('left-pad-not-installed');\n");
fs.writeFileSync(path.join(tmp, 'esm-server.mjs'), "import { z } from 'zod-not-installed';\nconsole.log(z);\n");

async function failedStart(spec: LaunchSpec): Promise<{ failure: StartFailure; session: McpSession }> {
  const session = new McpSession(spec, { initializeTimeoutMs: 10_000 });
  await assert.rejects(session.start());
  const failure = sessionFailure(session, (d) => fs.existsSync(d));
  assert.ok(failure, `a failed session has a failure: ${session.lastError?.message}`);
  return { failure, session };
}

test('a CommonJS require of a module that is not installed: missing module, named, with npm install in its folder', async () => {
  const { failure } = await failedStart({ command: process.execPath, args: ['cjs-server.js'], cwd: tmp });
  assert.equal(failure.cause, 'missing-module');
  assert.match(failure.summary, /"left-pad-not-installed" is missing: run npm install in /);
  assert.match(failure.evidence.join('\n'), /Cannot find module 'left-pad-not-installed'/);
  const toast = startFailureMessage('helpdesk', failure);
  assert.match(toast, /^helpdesk did not start: the npm module "left-pad-not-installed" is missing/);
  assert.doesNotMatch(toast, /\s+at /, 'no stack frames in the toast');
});

test('an ESM import of a package that is not installed (ERR_MODULE_NOT_FOUND): missing module', async () => {
  const { failure } = await failedStart({ command: process.execPath, args: [path.join(tmp, 'esm-server.mjs')], cwd: tmp });
  assert.equal(failure.cause, 'missing-module');
  assert.match(failure.summary, /"zod-not-installed"/);
});

test('a Python without the MCP SDK (the system python3, not the venv): wrong Python, names the module', async (t) => {
  const probe = await import('node:child_process').then((cp) => cp.spawnSync('python3', ['-c', 'import mcp'], { encoding: 'utf8' }));
  if (probe.status === 0) return t.skip('this python3 has the mcp package: it cannot show the failure');
  const { failure } = await failedStart({ command: 'python3', args: [path.join(root, 'examples', 'docs-py', 'server.py')], cwd: root });
  assert.equal(failure.cause, 'wrong-python');
  assert.match(failure.summary, /python3 cannot import "mcp"/);
  assert.match(failure.summary, /venv/);
  assert.deepEqual(failure.evidence, ["ModuleNotFoundError: No module named 'mcp'"]);
});

test('a relative script read from the wrong working folder: the script does not exist, fix the path or cwd', async () => {
  const { failure } = await failedStart({ command: process.execPath, args: ['cjs-server.js'], cwd: root });
  assert.equal(failure.cause, 'missing-file');
  assert.match(failure.summary, /the script cjs-server\.js does not exist/);
  assert.match(failure.summary, /cwd/);
  const py = await failedStart({ command: 'python3', args: ['server.py'], cwd: tmp });
  assert.equal(py.failure.cause, 'missing-file');
  assert.match(py.failure.summary, /server\.py does not exist/);
});

test('a working folder that does not exist: wrong cwd (spawn reports it as ENOENT, like a missing command)', async () => {
  const { failure } = await failedStart({ command: process.execPath, args: ['server.js'], cwd: path.join(tmp, 'no-such-folder') });
  assert.equal(failure.cause, 'wrong-cwd');
  assert.match(failure.summary, /no-such-folder does not exist/);
});

test('a command that is not installed: command not found, named', async () => {
  const { failure } = await failedStart({ command: 'toolsmith-no-such-command', args: [], cwd: tmp });
  assert.equal(failure.cause, 'command-not-found');
  assert.match(failure.summary, /"toolsmith-no-such-command" was not found/);
  const viaShell = await failedStart({ command: 'sh', args: ['-c', 'toolsmith-no-such-command'], cwd: tmp });
  assert.equal(viaShell.failure.cause, 'command-not-found');
  assert.match(viaShell.failure.summary, /toolsmith-no-such-command/);
});

test('what it cannot tell it does not guess: unknown, with the last stderr lines', () => {
  const failure = classifyStartFailure({ errorKind: 'exited-at-start', message: 'exited', stderr: ['config error: port 0 refused', '    at main (x.js:1:1)'], command: 'node', args: ['x.js'] });
  assert.equal(failure.cause, 'unknown');
  assert.deepEqual(failure.evidence, ['config error: port 0 refused']);
  assert.equal(
    sessionFailure(undefined, () => true),
    undefined,
  );
});

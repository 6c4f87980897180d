// The in-editor integration suite (test/integration/suite.ts: mocha + the vscode API) inside code-server, as part of
// `npm test`; the same suite runs under @vscode/test-electron where a desktop VS Code exists (npm run test:integration:electron).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

test('the in-editor suite passes inside code-server (diagnostics, a quick fix, commands, the Servers view)', { timeout: 12 * 60_000 }, () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'test/integration/run-code-server.ts'], { cwd: root, encoding: 'utf8', timeout: 11 * 60_000 });
  const output = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, `the suite failed (exit ${r.status}):\n${output.slice(-4000)}`);
  assert.match(r.stdout, /integration suite passed in code-server/);
});

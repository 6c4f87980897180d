// The server manager: nothing is launched in an untrusted workspace or for an unconfirmed candidate;
// trusted, it resolves the launch and runs the real server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { ServerManager, LaunchRefused } from '../../../client/src/servers/manager';
import type { ServerConfig } from '../../../client/src/servers/discovery';
import { McpSession } from '../../../client/src/servers/session';
import { root, fixtures } from './helpers';

function config(over: Partial<ServerConfig> = {}): ServerConfig {
  return {
    id: 'setting:fixture',
    name: 'fixture',
    origin: 'setting',
    command: process.execPath,
    args: ['--import', 'tsx', '${workspaceFolder}/test/fixtures/servers/ts/well-behaved.ts'],
    env: { FIXTURE_TOKEN: 'sekrit-value' },
    inputs: [],
    watchRoot: root,
    ...over,
  };
}

function manager(trusted: { value: boolean }, resolved: string[]) {
  return new ServerManager({
    isTrusted: () => trusted.value,
    resolveContext: (c) => {
      resolved.push(c.id);
      return { workspaceFolder: root, env: process.env, promptInput: async () => undefined, readText: async () => undefined };
    },
    createSession: (spec, options) => new McpSession(spec, options),
  });
}

test('an untrusted workspace launches nothing: refused before resolving or spawning', async () => {
  const trusted = { value: false };
  const resolved: string[] = [];
  const m = manager(trusted, resolved);
  m.setDiscovery({ servers: [config()], skipped: [], problems: [] }, []);
  await assert.rejects(m.start('setting:fixture'), (e: LaunchRefused) => e.reason === 'untrusted' && /not trusted/.test(e.message));
  assert.deepEqual(resolved, [], 'no ${input:} prompt, no resolution');
  assert.equal(m.existingSession('setting:fixture'), undefined, 'no session, so no process');
  // Once trust is granted the same server starts.
  trusted.value = true;
  const s = await m.start('setting:fixture');
  try {
    assert.equal(s.status, 'running');
    assert.equal(s.serverInfo?.name, 'fixture-well-behaved');
    assert.equal(s.spec.args[2], path.join(fixtures, 'ts', 'well-behaved.ts'));
    const before = s.pid;
    await m.restart('setting:fixture');
    assert.notEqual(s.pid, before);
    assert.equal(s.status, 'running');
  } finally {
    await m.stopAll();
  }
});

test('a detected candidate runs only once confirmed', async () => {
  const m = manager({ value: true }, []);
  const candidate = config({ id: 'detected:x.ts', origin: 'detected', detected: { sourceFile: '/w/x.ts', language: 'typescript', confirmed: false } });
  m.setDiscovery({ servers: [], skipped: [], problems: [] }, [candidate]);
  await assert.rejects(m.start('detected:x.ts'), (e: LaunchRefused) => e.reason === 'unconfirmed');
  assert.equal(m.existingSession('detected:x.ts'), undefined);
});

// The preview's Restart (panel.ts compare(restart) -> PreviewServers.start(config, true) -> playground startServer ->
// ServerManager.restart) must refuse in an untrusted workspace like every other start: the manager is the one place
// that checks, before it stops the running process or resolves anything. A restart refused leaves the session alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { LaunchRefused, ServerManager } from '../../../client/src/servers/manager';
import type { ServerConfig } from '../../../client/src/servers/discovery';
import type { McpSession } from '../../../client/src/servers/session';

test('a restart in an untrusted workspace is refused before the running server is stopped or relaunched', async () => {
  const events: string[] = [];
  const session = Object.assign(new EventEmitter(), {
    running: false,
    spec: undefined,
    start: async () => {
      events.push('start');
      session.running = true;
    },
    stop: async () => {
      events.push('stop');
      session.running = false;
    },
  });
  const trusted = { value: true };
  const resolved: string[] = [];
  const m = new ServerManager({
    isTrusted: () => trusted.value,
    resolveContext: (c) => {
      resolved.push(c.id);
      return { workspaceFolder: '/w', env: {}, promptInput: async () => undefined, readText: async () => undefined };
    },
    createSession: () => session as unknown as McpSession,
  });
  const config: ServerConfig = {
    id: 'source:/w/server.ts',
    name: 'server.ts',
    origin: 'source',
    file: '/w/server.ts',
    command: 'node',
    args: ['/w/server.ts'],
    env: {},
    cwd: '/w',
    inputs: [],
    watchRoot: '/w',
  };
  m.setDiscovery({ servers: [config], skipped: [], problems: [] }, []);
  await m.start(config.id);
  assert.deepEqual(events, ['start']);
  trusted.value = false;
  await assert.rejects(m.restart(config.id), (e: LaunchRefused) => e instanceof LaunchRefused && e.reason === 'untrusted');
  assert.deepEqual(events, ['start'], 'not stopped, not started again');
  assert.deepEqual(resolved, [config.id], 'the launch was not resolved again (no ${input:} prompt)');
  assert.equal(session.running, true);
});

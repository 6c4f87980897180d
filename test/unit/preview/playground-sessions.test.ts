// A server the playground already runs (client/src/servers/manager.ts) is the preview's live source: no second
// process; going stale after a save is detected; the panel's restart goes through the playground's manager.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServerManager } from '../../../client/src/servers/manager';
import type { ServerConfig } from '../../../client/src/servers/discovery';
import { LiveSessions, playgroundSessions } from '../../../client/src/preview/sessions';
import { compareWithLive } from '../../../client/src/preview/live';
import { resolveLaunch, type LaunchSpec } from '../../../client/src/preview/launch';

const root = path.resolve(__dirname, '../../..');

test('the playground session is used, goes stale after a save, and restarts through the manager', { timeout: 90_000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-preview-pg-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  const file = path.join(dir, 'notes-server.mjs');
  fs.copyFileSync(path.join(__dirname, 'fixtures', 'notes-server.mjs'), file);
  const manager = new ServerManager({ isTrusted: () => true, resolve: async (c) => ({ command: c.command, args: c.args, cwd: c.cwd }) });
  const config: ServerConfig = { id: 'mcp.json:notes', name: 'notes', origin: '.vscode/mcp.json', command: process.execPath, args: ['notes-server.mjs'], env: {}, cwd: dir, inputs: [], watchRoot: dir };
  manager.setDiscovery({ servers: [config], skipped: [], problems: [] }, []);
  const sessions = new LiveSessions();
  sessions.external = playgroundSessions(manager);
  try {
    assert.equal(sessions.running(file), undefined, 'not running yet');
    const pg = await manager.start(config.id);
    const live = sessions.running(file);
    assert.ok(live, 'the preview sees the playground session');
    assert.equal(live.owner, 'playground');
    const spec = resolveLaunch(file) as LaunchSpec;
    // start() returns the running playground session instead of spawning another server.
    assert.equal((await sessions.start(file, spec)).owner, 'playground');
    const predicted = (await live.listTools()).find((t) => t.name === 'search_notes');
    await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("'Search the notes by keyword.", "'Search every note by keyword."));
    const fresh = { ...predicted!, description: String(predicted!.description).replace('Search the notes', 'Search every note') };
    const stale = compareWithLive({ toolName: 'search_notes', predicted: fresh, liveTools: await live.listTools(), unresolved: [], session: live, sourceFiles: [file], unsaved: false, framework: 'ts-sdk', spec });
    assert.deepEqual(stale.differences.map((d) => d.path), ['description']);
    assert.equal(stale.reasons[0].kind, 'stale');
    const restarted = await sessions.restart(file, spec);
    assert.equal(restarted.owner, 'playground');
    assert.equal(manager.existingSession(config.id), pg, 'the same playground session, restarted');
    const after = compareWithLive({ toolName: 'search_notes', predicted: fresh, liveTools: await restarted.listTools(), unresolved: [], session: restarted, sourceFiles: [file], unsaved: false, framework: 'ts-sdk', spec });
    assert.equal(after.status, 'same');
  } finally {
    await manager.stopAll();
    await sessions.disposeAll();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The preview's live comparison reads the server manager's sessions (client/src/servers/manager.ts), the ones the
// playground runs: a server configured with ${workspaceFolder} in its arguments is recognised as running the file
// (variables resolved as at launch), no second process is started, going stale after a save is detected, and a
// restart goes through the manager. A file no server runs is started through the manager too, and listed.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServerManager } from '../../../client/src/servers/manager';
import type { ServerConfig } from '../../../client/src/servers/discovery';
import { McpSession } from '../../../client/src/servers/session';
import { compareWithLive } from '../../../client/src/preview/live';
import { resolveLaunch, type SourceLaunch } from '../../../client/src/preview/launch';
import type { JsonSchema } from '../../../server/src/analysis/model';

const root = path.resolve(__dirname, '../../..');

/** A workspace folder with the notes fixture server, and a manager on it that counts the sessions it creates. */
function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-preview-pg-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  const file = path.join(dir, 'notes-server.mjs');
  fs.copyFileSync(path.join(__dirname, 'fixtures', 'notes-server.mjs'), file);
  const created: McpSession[] = [];
  const prompted: string[] = [];
  const manager = new ServerManager({
    isTrusted: () => true,
    resolveContext: () => ({
      workspaceFolder: dir,
      env: process.env,
      readText: async () => undefined,
      promptInput: async (input) => {
        prompted.push(input.id);
        return 'given';
      },
    }),
    createSession: (spec, options) => {
      const s = new McpSession(spec, options);
      created.push(s);
      return s;
    },
  });
  const config = (name: string, args: string[], cwd?: string): ServerConfig => ({
    id: `.vscode/mcp.json:${name}`,
    name,
    origin: '.vscode/mcp.json',
    command: process.execPath,
    args,
    env: {},
    cwd,
    inputs: [],
    watchRoot: dir,
  });
  const cleanup = async () => {
    await manager.stopAll();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { dir, file, manager, created, prompted, config, cleanup };
}

const toolsOf = async (s: McpSession) => (await s.listTools()) as unknown as JsonSchema[];

test('a server whose mcp.json args say ${workspaceFolder}/… is the one the preview compares with: one process', { timeout: 90_000 }, async () => {
  const w = workspace();
  const notes = w.config('notes', ['${workspaceFolder}/notes-server.mjs']);
  const other = w.config('other', ['${input:script}']);
  w.manager.setDiscovery({ servers: [other, notes], skipped: [], problems: [] }, []);
  try {
    assert.equal((await w.manager.configForFile(w.file))?.id, notes.id, 'recognised before it runs');
    assert.deepEqual(w.prompted, [], 'telling which server runs the file never prompts for an ${input:}');
    const started = await w.manager.start(notes.id);
    // What the panel does next: the running session of the server that runs the file, not a new one.
    const found = await w.manager.configForFile(w.file);
    const session = found && w.manager.existingSession(found.id);
    assert.equal(session, started);
    assert.equal(session?.running, true);
    assert.ok((await toolsOf(session)).some((t) => t.name === 'search_notes'));
    assert.equal(w.created.length, 1, 'one session, one server process');
  } finally {
    await w.cleanup();
  }
});

test('the playground session goes stale after a save, and restarts through the manager', { timeout: 90_000 }, async () => {
  const w = workspace();
  const notes = w.config('notes', ['notes-server.mjs'], w.dir);
  w.manager.setDiscovery({ servers: [notes], skipped: [], problems: [] }, []);
  try {
    const pg = await w.manager.start(notes.id);
    const spec = resolveLaunch(w.file) as SourceLaunch;
    const live = () => ({ startedAt: pg.startedAt!, entryFile: w.file });
    const predicted = (await toolsOf(pg)).find((t) => t.name === 'search_notes');
    await new Promise((r) => setTimeout(r, 20));
    fs.writeFileSync(w.file, fs.readFileSync(w.file, 'utf8').replace("'Search the notes by keyword.", "'Search every note by keyword."));
    const fresh = { ...predicted!, description: String(predicted!.description).replace('Search the notes', 'Search every note') };
    const stale = compareWithLive({
      toolName: 'search_notes',
      predicted: fresh,
      liveTools: await toolsOf(pg),
      unresolved: [],
      session: live(),
      sourceFiles: [w.file],
      unsaved: false,
      framework: 'ts-sdk',
      spec,
    });
    assert.deepEqual(
      stale.differences.map((d) => d.path),
      ['description'],
    );
    assert.equal(stale.reasons[0].kind, 'stale');
    const restarted = await w.manager.restart(notes.id);
    assert.equal(restarted, pg, 'the same playground session, restarted');
    const after = compareWithLive({
      toolName: 'search_notes',
      predicted: fresh,
      liveTools: await toolsOf(restarted),
      unresolved: [],
      session: live(),
      sourceFiles: [w.file],
      unsaved: false,
      framework: 'ts-sdk',
      spec,
    });
    assert.equal(after.status, 'same');
    assert.equal(w.created.length, 1);
  } finally {
    await w.cleanup();
  }
});

test('a file no server runs is started through the manager from its source launch, and stays listed', { timeout: 90_000 }, async () => {
  const w = workspace();
  w.manager.setDiscovery({ servers: [], skipped: [], problems: [] }, []);
  try {
    assert.equal(await w.manager.configForFile(w.file), undefined);
    const spec = resolveLaunch(w.file) as SourceLaunch;
    const c = w.manager.addSourceServer(w.file, spec);
    assert.equal(w.manager.addSourceServer(w.file, spec), c, 'asked twice, listed once');
    const s = await w.manager.start(c.id);
    assert.ok((await toolsOf(s)).some((t) => t.name === 'search_notes'));
    // A rediscovery (a save of mcp.json, say) keeps it, and its session runs on.
    w.manager.setDiscovery({ servers: [], skipped: [], problems: [] }, []);
    await w.manager.prune();
    assert.equal((await w.manager.configForFile(w.file))?.id, c.id);
    assert.equal(w.manager.existingSession(c.id)?.running, true);
  } finally {
    await w.cleanup();
  }
});

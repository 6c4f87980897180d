// Live comparison against real servers: start a fixture server, edit its source after start (the running build is
// now stale), and check that the diff names the changed fields and offers a restart; after the restart they match.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareWithLive } from '../../../client/src/preview/live';
import { resolveLaunch, type SourceLaunch } from '../../../client/src/preview/launch';
import { McpSession } from '../../../client/src/servers/session';
import { analyzeFile } from '../../../server/src/service';
import { createFileHost } from '../../../server/src/host';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import type { JsonSchema } from '../../../server/src/analysis/model';

const root = path.resolve(__dirname, '../../..');
const fixtures = path.join(__dirname, 'fixtures');
const venvPython = path.join(root, '.cache', 'venv', 'bin', 'python');

function workspaceWith(file: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-preview-'));
  fs.copyFileSync(path.join(fixtures, file), path.join(dir, file));
  // The TS fixture imports the SDK and zod: resolve them from the repository's node_modules.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

function launch(file: string): SourceLaunch {
  const spec = resolveLaunch(file, { workspaceRoot: path.dirname(file), pythonPath: file.endsWith('.py') ? venvPython : undefined });
  if ('error' in spec) throw new Error(spec.error);
  return spec;
}

/** A session (the one McpSession the server manager hands out), with what the comparison reads of it. */
interface Running {
  startedAt: number;
  entryFile: string;
  listTools(): Promise<JsonSchema[]>;
  close(): Promise<void>;
}
async function startSession(spec: SourceLaunch): Promise<Running> {
  const s = new McpSession(spec);
  await s.start();
  // The SDK's Tool objects are JSON values.
  return { startedAt: s.startedAt!, entryFile: spec.entryFile, listTools: async () => (await s.listTools()) as unknown as JsonSchema[], close: () => s.stop() };
}

async function withSession<T>(spec: SourceLaunch, fn: (s: Running) => Promise<T>): Promise<T> {
  const s = await startSession(spec);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Edits the file after the server started; waits so the new mtime is strictly later than the start time. */
async function edit(file: string, from: string | RegExp, to: string) {
  await new Promise((r) => setTimeout(r, 20));
  const text = fs.readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  assert.notEqual(next, text, 'the edit must change the file');
  fs.writeFileSync(file, next);
}

const cases = [
  {
    language: 'TypeScript',
    file: 'notes-server.mjs',
    framework: 'ts-sdk' as const,
    edits: [
      ["'Search the notes by keyword.", "'Search every note by keyword."],
      ['.max(50).default(10)', '.max(100).default(10)'],
    ],
  },
  {
    language: 'Python',
    file: 'notes_server.py',
    framework: 'mcp' as const,
    edits: [
      ['"""Search the notes by keyword.', '"""Search every note by keyword.'],
      ['ge=1, le=50', 'ge=1, le=100'],
    ],
  },
];

for (const c of cases) {
  test(`${c.language}: a server running stale code — the diff names the changed fields and offers restart`, { timeout: 90_000 }, async () => {
    if (c.framework !== 'ts-sdk') assert.ok(fs.existsSync(venvPython), `the project venv is missing (${venvPython}): run node scripts/ensure-venv.mjs`);
    const dir = workspaceWith(c.file);
    const file = path.join(dir, c.file);
    const spec = launch(file);
    const running = await startSession(spec);
    try {
      for (const [from, to] of c.edits) await edit(file, from, to);
      const staleTools = await running.listTools();
      // The prediction for the edited source is what a fresh server publishes (fidelity tests prove the analyser
      // predicts exactly that; this test is about the diff, not the analyser).
      const fresh = await withSession(spec, (s) => s.listTools());
      const predicted = fresh.find((t) => t.name === 'search_notes');
      const diff = compareWithLive({
        toolName: 'search_notes',
        predicted,
        liveTools: staleTools,
        unresolved: [],
        session: running,
        sourceFiles: [file],
        unsaved: false,
        framework: c.framework,
        spec,
        workspaceRoot: dir,
      });
      assert.equal(diff.status, 'different');
      assert.deepEqual(diff.differences.map((d) => d.path).sort(), ['description', 'inputSchema.properties.limit.maximum']);
      const max = diff.differences.find((d) => d.path.endsWith('maximum'))!;
      assert.deepEqual([max.predicted, max.live], ['100', '50']);
      assert.equal(diff.reasons[0].kind, 'stale');
      assert.ok(diff.reasons[0].kind === 'stale' && diff.reasons[0].action === 'restart');
      assert.match(diff.reasons[0].message, new RegExp(`${c.file.replace('.', '\\.')} was saved at .* after the server started`));
    } finally {
      await running.close();
    }
    // After the restart the live contract matches and nothing is stale.
    await withSession(spec, async (restarted) => {
      const fresh = await restarted.listTools();
      const diff = compareWithLive({
        toolName: 'search_notes',
        predicted: fresh.find((t) => t.name === 'search_notes'),
        liveTools: fresh,
        unresolved: [],
        session: restarted,
        sourceFiles: [file],
        unsaved: false,
        framework: c.framework,
        spec,
      });
      assert.equal(diff.status, 'same');
      assert.deepEqual(diff.reasons, []);
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

test('the installed SDK version is read where the server runs', async () => {
  const ts = launch(path.join(fixtures, 'notes-server.mjs'));
  const py = launch(path.join(fixtures, 'notes_server.py'));
  const { installedSdkVersion } = await import('../../../client/src/preview/launch');
  assert.equal(installedSdkVersion(ts, '@modelcontextprotocol/sdk'), JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')).version);
  assert.match(installedSdkVersion(py, 'mcp') ?? '', /^2\.3\./);
});

for (const c of [
  { file: 'notes-server.mjs', framework: 'ts-sdk' as const, from: '.max(50).default(10)', to: '.max(100).default(10)' },
  { file: 'notes_server.py', framework: 'mcp' as const, from: 'ge=1, le=50', to: 'ge=1, le=100' },
]) {
  test(`with the analyser (${c.file}): the static prediction vs a stale live server`, { timeout: 90_000 }, async () => {
    const dir = workspaceWith(c.file);
    const file = path.join(dir, c.file);
    const predictedOf = (): JsonSchema | undefined =>
      analyzeFile(file, fs.readFileSync(file, 'utf8'), createFileHost(), DEFAULT_SETTINGS).result.tools.find((x) => x.name.value === 'search_notes')?.contract;
    const spec = launch(file);
    await withSession(spec, async (running) => {
      // Before the edit the prediction is exact.
      const before = compareWithLive({
        toolName: 'search_notes',
        predicted: predictedOf(),
        liveTools: await running.listTools(),
        unresolved: [],
        session: running,
        sourceFiles: [file],
        unsaved: false,
        framework: c.framework,
        spec,
      });
      assert.equal(before.status, 'same', JSON.stringify(before.differences));
      await edit(file, c.from, c.to);
      const diff = compareWithLive({
        toolName: 'search_notes',
        predicted: predictedOf(),
        liveTools: await running.listTools(),
        unresolved: [],
        session: running,
        sourceFiles: [file],
        unsaved: false,
        framework: c.framework,
        spec,
      });
      assert.deepEqual(
        diff.differences.map((d) => [d.path, d.predicted, d.live]),
        [['inputSchema.properties.limit.maximum', '100', '50']],
      );
      assert.equal(diff.reasons[0].kind, 'stale');
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });
}

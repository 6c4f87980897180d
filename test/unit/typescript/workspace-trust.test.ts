/**
 * The trust switch (contract/typescript/trust.ts, libraries.ts): a workspace's own SDK and zod are loaded — its code
 * run — only when the workspace is trusted. The workspace here installs copies that leave a marker file when loaded
 * (and then fail), so each case proves whether workspace code ran: never untrusted (the analysis in this thread, the
 * CLI with --untrusted, an analysis worker's job of an untrusted workspace), and only then with trust.
 */
import { afterEach, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeSource } from '../../../server/src/analysis/analyze';
import { createFileHost } from '../../../server/src/host';
import { loadedWorkspaceFiles, setWorkspaceTrust, workspaceTrusted } from '../../../server/src/contract/typescript/trust';
import { DocumentAnalyzer } from '../../../server/src/lsp/analysisWorker';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import { trappedWorkspace, trappedWorkspaceV2 } from '../../util/trapped-workspace';

const root = path.resolve(__dirname, '../../..');
const cli = path.join(root, 'dist/cli.js');

/** A workspace whose installed SDK and zod write `marker` when any of their modules is loaded. */
function workspace(): { dir: string; file: string; marker: string } {
  return trappedWorkspace(fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-trust-')), 'server.registerTool("t", { description: "d", inputSchema: { a: z.string() } }, async () => ({ content: [] }));');
}

const made: string[] = [];
afterEach(() => {
  setWorkspaceTrust(false);
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

test('untrusted (the default of a thread): the analysis converts with the bundled copies and runs no workspace code', () => {
  const ws = workspace();
  made.push(ws.dir);
  assert.equal(workspaceTrusted(), false);
  const result = analyzeSource(ws.file, fs.readFileSync(ws.file, 'utf8'), createFileHost());
  assert.equal(fs.existsSync(ws.marker), false, 'workspace code ran in an untrusted analysis');
  assert.deepEqual(
    [...loadedWorkspaceFiles()].filter((f) => f.startsWith(ws.dir)),
    [],
  );
  const rows = result.files[0].converters ?? [];
  assert.deepEqual(
    rows.map((r) => [r.library, r.source]),
    [
      ['@modelcontextprotocol/sdk', 'bundled'],
      ['zod', 'bundled'],
    ],
  );
  assert.match(rows[0].reason ?? '', /not trusted \(the workspace has 1\.32\.2\)/);
  assert.ok(result.tools[0].contract.inputSchema, 'the contract is still predicted (bundled copies)');
  // ...but not as exact: the bundled zod 4.6 converts differently from the workspace's zod 4.0.
  assert.match(
    result.tools[0].unresolved.map((u) => `${u.part}: ${u.reason}`).join('\n'),
    /contract: converted with the bundled zod 4\.6\.\d+ because the workspace is not trusted; the workspace has zod 4\.0\.17/,
  );
});

test('trusted: the workspace copies are loaded (here they fail, and the bundled ones are used, saying why)', () => {
  const ws = workspace();
  made.push(ws.dir);
  setWorkspaceTrust(true);
  const result = analyzeSource(ws.file, fs.readFileSync(ws.file, 'utf8'), createFileHost());
  assert.equal(fs.existsSync(ws.marker), true, 'a trusted analysis did not load the workspace copies');
  const rows = result.files[0].converters ?? [];
  assert.equal(rows[0].source, 'bundled');
  assert.match(rows[0].reason ?? '', /could not be loaded \(workspace code ran\)/);
});

test('an analysis worker loads workspace code only for a job of a trusted workspace', () => {
  const ws = workspace();
  made.push(ws.dir);
  const analyzer = new DocumentAnalyzer();
  const job = { uri: `file://${ws.file}`, file: ws.file, version: 1, text: fs.readFileSync(ws.file, 'utf8'), settings: DEFAULT_SETTINGS, settingsGeneration: 1, epoch: 0 };
  analyzer.analyze({ ...job, workspaceTrusted: false });
  analyzer.analyze({ ...job, version: 2 });
  assert.equal(fs.existsSync(ws.marker), false, 'an untrusted job (or one that does not say) ran workspace code');
  analyzer.analyze({ ...job, version: 3, settingsGeneration: 2, workspaceTrusted: true });
  assert.equal(fs.existsSync(ws.marker), true);
});

test('the CLI trusts its workspace unless --untrusted', { skip: !fs.existsSync(cli) && 'dist/cli.js is not built' }, () => {
  const ws = workspace();
  made.push(ws.dir);
  const untrusted = spawnSync(process.execPath, [cli, 'contract', ws.file, '--json', '--untrusted'], { encoding: 'utf8' });
  assert.equal(untrusted.status, 0, untrusted.stderr);
  assert.equal(fs.existsSync(ws.marker), false, 'toolsmith contract --untrusted ran workspace code');
  const rows = (JSON.parse(untrusted.stdout) as { converters: { source: string; reason?: string }[] }).converters;
  assert.ok(rows.length === 2 && rows.every((r) => r.source === 'bundled' && /not trusted/.test(r.reason ?? '')), JSON.stringify(rows));
  const trusted = spawnSync(process.execPath, [cli, 'contract', ws.file, '--json'], { encoding: 'utf8' });
  assert.equal(trusted.status, 0, trusted.stderr);
  assert.equal(fs.existsSync(ws.marker), true, 'toolsmith contract did not load the workspace copies');
  fs.rmSync(ws.marker);
  const check = spawnSync(process.execPath, [cli, 'check', ws.file, '--untrusted'], { encoding: 'utf8' });
  assert.notEqual(check.status, 2, check.stderr);
  assert.equal(fs.existsSync(ws.marker), false, 'toolsmith check --untrusted ran workspace code');
  spawnSync(process.execPath, [cli, 'check', ws.file], { encoding: 'utf8' });
  assert.equal(fs.existsSync(ws.marker), true, 'toolsmith check did not load the workspace copies');
});

// ---- v2: @modelcontextprotocol/server with zod, ArkType and Valibot ----

/** A v2 workspace whose installed SDK, zod, ArkType, Valibot and @valibot/to-json-schema write `marker` when loaded. */
function workspaceV2(): { dir: string; file: string; marker: string } {
  return trappedWorkspaceV2(
    fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-trust-v2-')),
    [
      'server.registerTool("zod_tool", { description: "d", inputSchema: { a: z.string() } }, async () => ({ content: [] }));',
      'server.registerTool("ark_tool", { description: "d", inputSchema: type({ a: "string" }) }, async () => ({ content: [] }));',
      'server.registerTool("valibot_tool", { description: "d", inputSchema: toStandardJsonSchema(v.object({ a: v.string() })) }, async () => ({ content: [] }));',
    ].join('\n'),
  );
}

const V2_LIBRARIES = ['@modelcontextprotocol/server', 'zod', 'arktype', 'valibot', '@valibot/to-json-schema'];

test('v2, untrusted: zod, ArkType and Valibot schemas are rebuilt with the bundled copies, no workspace code runs, and the rows say why', () => {
  const ws = workspaceV2();
  made.push(ws.dir);
  const result = analyzeSource(ws.file, fs.readFileSync(ws.file, 'utf8'), createFileHost());
  assert.equal(fs.existsSync(ws.marker), false, 'workspace code ran in an untrusted v2 analysis');
  assert.deepEqual(
    [...loadedWorkspaceFiles()].filter((f) => f.startsWith(ws.dir)),
    [],
  );
  const rows = result.files[0].converters ?? [];
  assert.deepEqual(
    rows.map((r) => [r.library, r.source]),
    V2_LIBRARIES.map((l) => [l, 'bundled']),
  );
  assert.match(rows[0].reason ?? '', /not trusted \(the workspace has 2\.0\.0\)/);
  assert.match(rows[2].reason ?? '', /not trusted \(the workspace has 2\.1\.29\)/);
  assert.deepEqual(
    result.tools.map((t) => [t.name.value, t.framework, Object.keys((t.contract.inputSchema as { properties?: object }).properties ?? {})]),
    [
      ['zod_tool', 'ts-sdk-v2', ['a']],
      ['ark_tool', 'ts-sdk-v2', ['a']],
      ['valibot_tool', 'ts-sdk-v2', ['a']],
    ],
  );
  // Not exact: the workspace's zod 4.0, ArkType 2.1 and Valibot 1.2 are other minors than the bundled ones.
  for (const tool of result.tools) {
    assert.match(
      tool.unresolved.map((u) => `${u.part}: ${u.reason}`).join('\n'),
      /contract: converted with the bundled schema libraries because the workspace is not trusted; the workspace has zod 4\.0\.17/,
    );
  }
});

test('v2, trusted: the workspace copies are loaded (here they fail, and the bundled ones are used, saying why)', () => {
  const ws = workspaceV2();
  made.push(ws.dir);
  setWorkspaceTrust(true);
  const result = analyzeSource(ws.file, fs.readFileSync(ws.file, 'utf8'), createFileHost());
  assert.match(fs.readFileSync(ws.marker, 'utf8'), /src-Trap1234\.cjs/, "the SDK's schema chunk was not loaded");
  const rows = result.files[0].converters ?? [];
  assert.ok(rows.length === 5 && rows.every((r) => r.source === 'bundled' && /could not be loaded \(workspace code ran\)/.test(r.reason ?? '')), JSON.stringify(rows));
});

test("v2, trusted: the workspace's own standardSchemaToJsonSchema publishes the schema", () => {
  // An SDK release other than the bundled one, whose schema chunk answers with what it was given: the prediction is its answer.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-trust-v2-own-'));
  made.push(dir);
  const sdk = path.join(dir, 'node_modules/@modelcontextprotocol/server');
  fs.mkdirSync(path.join(sdk, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(sdk, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/server', version: '2.3.1' }));
  fs.writeFileSync(
    path.join(sdk, 'dist/src-Own5678.cjs'),
    [
      'exports.normalizeRawShapeSchema = (s) => (s === undefined ? undefined : { "~standard": { vendor: "own", validate: () => ({}) }, fields: Object.keys(s) });',
      'exports.standardSchemaToJsonSchema = (s, io) => ({ type: "object", description: `${io} by the workspace SDK`, required: s.fields });',
    ].join('\n'),
  );
  const file = path.join(dir, 'server.ts');
  fs.writeFileSync(
    file,
    'import { McpServer } from "@modelcontextprotocol/server";\nimport * as z from "zod";\nconst server = new McpServer({ name: "s", version: "1" });\nserver.registerTool("t", { description: "d", inputSchema: { a: z.string(), b: z.number() } }, async () => ({ content: [] }));\n',
  );
  setWorkspaceTrust(true);
  const result = analyzeSource(file, fs.readFileSync(file, 'utf8'), createFileHost());
  assert.deepEqual(result.tools[0].contract.inputSchema, { type: 'object', description: 'input by the workspace SDK', required: ['a', 'b'] });
  assert.deepEqual(
    result.files[0].converters?.map((r) => [r.library, r.version, r.source]),
    [
      ['@modelcontextprotocol/server', '2.3.1', 'workspace'],
      ['zod', (JSON.parse(fs.readFileSync(path.join(root, 'node_modules/zod/package.json'), 'utf8')) as { version: string }).version, 'bundled'],
    ],
  );
  setWorkspaceTrust(false);
  const untrusted = analyzeSource(file, fs.readFileSync(file, 'utf8'), createFileHost());
  assert.deepEqual((untrusted.tools[0].contract.inputSchema as { required?: string[] }).required, ['a', 'b']);
  assert.equal((untrusted.tools[0].contract.inputSchema as { description?: string }).description, undefined, 'untrusted, the workspace SDK ran');
});

test('v2: an analysis worker loads workspace code only for a job of a trusted workspace', () => {
  const ws = workspaceV2();
  made.push(ws.dir);
  const analyzer = new DocumentAnalyzer();
  const job = { uri: `file://${ws.file}`, file: ws.file, version: 1, text: fs.readFileSync(ws.file, 'utf8'), settings: DEFAULT_SETTINGS, settingsGeneration: 1, epoch: 0 };
  analyzer.analyze({ ...job, workspaceTrusted: false });
  analyzer.analyze({ ...job, version: 2 });
  assert.equal(fs.existsSync(ws.marker), false, 'an untrusted v2 job (or one that does not say) ran workspace code');
  analyzer.analyze({ ...job, version: 3, settingsGeneration: 2, workspaceTrusted: true });
  assert.equal(fs.existsSync(ws.marker), true);
});

test('v2: the CLI trusts its workspace unless --untrusted', { skip: !fs.existsSync(cli) && 'dist/cli.js is not built' }, () => {
  const ws = workspaceV2();
  made.push(ws.dir);
  const untrusted = spawnSync(process.execPath, [cli, 'contract', ws.file, '--json', '--untrusted'], { encoding: 'utf8' });
  assert.equal(untrusted.status, 0, untrusted.stderr);
  assert.equal(fs.existsSync(ws.marker), false, 'toolsmith contract --untrusted ran workspace code');
  const rows = (JSON.parse(untrusted.stdout) as { converters: { library: string; source: string; reason?: string }[] }).converters;
  assert.deepEqual(
    rows.map((r) => r.library),
    V2_LIBRARIES,
  );
  assert.ok(
    rows.every((r) => r.source === 'bundled' && /not trusted/.test(r.reason ?? '')),
    JSON.stringify(rows),
  );
  const trusted = spawnSync(process.execPath, [cli, 'contract', ws.file, '--json'], { encoding: 'utf8' });
  assert.equal(trusted.status, 0, trusted.stderr);
  assert.equal(fs.existsSync(ws.marker), true, 'toolsmith contract did not load the workspace copies');
});

// The Servers tree as a person reads it at the default side-bar width: rows named first (the server's name, the
// tool's name), details in the description; a stopped server always shows a "Start server" row (not a hover-only
// icon); a failed one its cause. Tools come from a real fixture server's tools/list. Also the .vscode/mcp.json the
// view writes from detected servers: read back by discovery, it launches what the candidate launched.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Ajv } from 'ajv';
import { McpSession } from '../../../client/src/servers/session';
import { candidateConfigs, discoverConfigured, detectCandidate, resolveLaunch, type ServerConfig, type WorkspaceReader } from '../../../client/src/servers/discovery';
import { serverActions, serverText, toolText } from '../../../client/src/servers/treeModel';
import { mcpJsonFromDetected } from '../../../client/src/servers/mcpJson';
import { sessionFailure } from '../../../client/src/servers/startFailure';
import { firstCallTool, sampleArguments, sourceFileOf } from '../../../client/src/onboarding/model';
import { root, tsServer } from './helpers';

const sessions: McpSession[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-tree-labels-'));
after(async () => {
  await Promise.all(sessions.map((s) => s.stop()));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const config = (name: string, extra: Partial<ServerConfig> = {}): ServerConfig => ({
  id: `setting:${name}`,
  name,
  origin: 'setting',
  command: 'node',
  args: [],
  env: {},
  inputs: [],
  watchRoot: root,
  ...extra,
});

/** The text of a row as the tree shows it: label, then description. */
const row = (t: { label: string; description?: string }) => `${t.label}  ${t.description ?? ''}`.trim();

test('a stopped server: its name, "stopped", and a visible Start server row under it', () => {
  const c = config('helpdesk');
  assert.equal(row(serverText(c, undefined)), 'helpdesk  stopped');
  assert.deepEqual(
    serverActions(c, undefined, true).map((a) => [a.label, a.action]),
    [['Start server', 'start']],
  );
  assert.deepEqual(serverActions(c, undefined, false), [], 'Restricted Mode: nothing to start');
  const detected = config('helpdesk-ts/src/server.ts', { origin: 'detected', detected: { sourceFile: path.join(root, 'helpdesk-ts/src/server.ts'), language: 'typescript', confirmed: false } });
  assert.equal(row(serverText(detected, undefined)), 'server.ts  detected · helpdesk-ts/src', 'the file name first, its folder after');
  assert.deepEqual(
    serverActions(detected, undefined, true).map((a) => a.label),
    ['Confirm and start'],
  );
});

test('a running server: no Start row; its tools by name with the risk level as description, title in the tooltip', async () => {
  const c = config('fixture');
  const s = new McpSession(tsServer('well-behaved.ts'));
  sessions.push(s);
  await s.start();
  assert.match(row(serverText(c, s)), /^fixture {2}running · fixture-well-behaved 1\.2\.3$/);
  assert.deepEqual(serverActions(c, s, true), []);
  const rows = s.tools.map((t) => toolText(t));
  for (const [i, t] of s.tools.entries()) {
    assert.equal(rows[i].label, t.name, 'the name the model calls comes first');
    assert.ok(rows[i].description!.length <= 20, `short description: ${rows[i].description}`);
    if (t.title) assert.match(rows[i].tooltip, new RegExp(t.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  }
  // The arguments the walkthrough's first call sends satisfy the tool's own input schema.
  const tool = firstCallTool(s.tools)!;
  const valid = new Ajv({ strict: false }).compile(tool.inputSchema);
  assert.ok(valid(sampleArguments(tool.inputSchema)), JSON.stringify(valid.errors));
});

test('a failed server: the cause in its description, a Failed row to the log, then Start again', async () => {
  fs.writeFileSync(path.join(tmp, 'server.js'), "require('not-installed-module');\n");
  const c = config('broken', { cwd: tmp });
  const s = new McpSession({ command: process.execPath, args: ['server.js'], cwd: tmp });
  await assert.rejects(s.start());
  const failure = sessionFailure(s, (d) => fs.existsSync(d));
  assert.equal(row(serverText(c, s, failure)), 'broken  failed · missing module');
  assert.deepEqual(
    serverActions(c, s, true, failure).map((a) => [a.label, a.action]),
    [
      ['Failed: missing module', 'showLog'],
      ['Start again', 'start'],
    ],
  );
});

test('Create .vscode/mcp.json: the detected servers, read back by discovery, launch what their candidates launched', async () => {
  const ws = path.join(tmp, 'ws');
  fs.mkdirSync(path.join(ws, 'api', 'src'), { recursive: true });
  const src = path.join(ws, 'api', 'src', 'server.mjs');
  fs.writeFileSync(
    src,
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';\nconst server = new McpServer({ name: 'a', version: '1' });\nawait server.connect(new StdioServerTransport());\n",
  );
  const reader: WorkspaceReader = { root: ws, readText: async (p) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined), exists: async (p) => fs.existsSync(p) };
  const lang = detectCandidate(src, fs.readFileSync(src, 'utf8'));
  assert.equal(lang, 'typescript');
  const candidates = await candidateConfigs(reader, [{ file: src, language: lang }], [], new Set());
  assert.equal(candidates.length, 1);
  const text = mcpJsonFromDetected(ws, candidates);
  assert.match(text, /\$\{workspaceFolder\}\/api\/src\/server\.mjs/, 'portable paths');
  fs.mkdirSync(path.join(ws, '.vscode'));
  fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), text);
  const found = await discoverConfigured(reader, undefined);
  assert.deepEqual(
    found.servers.map((x) => x.name),
    ['api'],
  );
  const ctx = { workspaceFolder: ws, env: process.env, promptInput: async () => undefined, readText: reader.readText };
  const [fromFile, fromCandidate] = [await resolveLaunch(found.servers[0], ctx), await resolveLaunch(candidates[0], ctx)];
  assert.deepEqual([fromFile.command, fromFile.args, fromFile.cwd], [fromCandidate.command, fromCandidate.args, fromCandidate.cwd]);
  // And the walkthrough finds the file the configured server runs.
  assert.equal(sourceFileOf(found.servers[0], ws), src);
  // Nothing detected: a commented skeleton that discovery reads as an empty server list, not as a problem.
  fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), mcpJsonFromDetected(ws, []));
  const empty = await discoverConfigured(reader, undefined);
  assert.deepEqual([empty.servers.length, empty.problems], [0, []]);
});

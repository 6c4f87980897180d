/**
 * The v1 -> v2 migration rule (ts-sdk-v1-import) on published v1 servers from the real-world corpus
 * (test/corpus/packages.json, installed by scripts/ensure-corpus.mjs): every quick fix it offers is applied to a
 * copy of the package, whose node_modules has no @modelcontextprotocol/sdk at all — only @modelcontextprotocol/server
 * 2.4.0 and zod 4 from this repository — and the migrated server is started and asked for its tools with
 * @modelcontextprotocol/client. What stays manual is asserted as the finding's message.
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { analyzeFile } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { DEFAULT_SETTINGS } from '../../common/settings';
import type { Finding, Fix } from '../../server/src/rules/types';
import { root } from './compare';

interface Corpus {
  readManifest(): { name: string; version: string; registry: string }[];
  locate(pkg: { name: string; version: string; registry: string }): { dir: string; root: string };
  ensureCorpus(names?: string[]): string[];
}

const PACKAGES = ['@modelcontextprotocol/server-sequential-thinking', '@modelcontextprotocol/server-memory'];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-migrate-'));
const copies = new Map<string, string>();

/**
 * A copy of the package whose node_modules links every dependency of the installed one except the v1 SDK and its
 * zod, and links @modelcontextprotocol/server (2.4.0) and zod 4 from this repository.
 */
function copyForV2(name: string, installed: { dir: string; root: string }): string {
  const dest = path.join(scratch, name.replace('/', '+'));
  fs.cpSync(installed.root, dest, { recursive: true, filter: (src) => !path.relative(installed.root, src).split(path.sep).includes('node_modules') });
  const nm = path.join(dest, 'node_modules');
  fs.mkdirSync(path.join(nm, '@modelcontextprotocol'), { recursive: true });
  const deps = path.join(installed.dir, 'node_modules');
  for (const entry of fs.readdirSync(deps)) {
    if (entry === '@modelcontextprotocol' || entry === 'zod' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(deps, entry), path.join(nm, entry));
  }
  fs.symlinkSync(path.join(root, 'node_modules/@modelcontextprotocol/server'), path.join(nm, '@modelcontextprotocol/server'));
  fs.symlinkSync(path.join(root, 'node_modules/zod'), path.join(nm, 'zod'));
  return dest;
}

function jsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? (e.name === 'node_modules' ? [] : jsFiles(path.join(dir, e.name))) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []));
}

function findingsOf(file: string): Finding[] {
  return analyzeFile(file, fs.readFileSync(file, 'utf8'), createFileHost(), { ...DEFAULT_SETTINGS, preset: 'strict' }).findings;
}

/** Applies every edit of `fixes` on disk, file by file, from the end so that offsets stay valid. */
function applyFixes(fixes: Fix[]): void {
  const byFile = new Map<string, { start: number; end: number; newText: string }[]>();
  for (const e of fixes.flatMap((f) => f.edits)) {
    const list = byFile.get(e.span.file) ?? [];
    list.push({ start: e.span.start, end: e.span.end, newText: e.newText });
    byFile.set(e.span.file, list);
  }
  for (const [file, edits] of byFile) {
    let text = fs.readFileSync(file, 'utf8');
    for (const e of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, e.start) + e.newText + text.slice(e.end);
    fs.writeFileSync(file, text);
  }
}

/** The fixes of the migration: ts-sdk-v1-import's (imports, package.json) and deprecated-server-tool's (registerTool). */
function migrate(dir: string): Finding[] {
  const left: Finding[] = [];
  for (const file of jsFiles(path.join(dir, 'dist'))) {
    const findings = findingsOf(file).filter((f) => f.ruleId === 'ts-sdk-v1-import' || f.ruleId === 'deprecated-server-tool');
    applyFixes(findings.flatMap((f) => f.fixes));
    left.push(...findings.filter((f) => f.fixes.length === 0));
  }
  return left;
}

before(async () => {
  const corpus = (await import(path.join(root, 'scripts/ensure-corpus.mjs'))) as Corpus;
  const failures = corpus.ensureCorpus(PACKAGES);
  assert.deepEqual(failures, [], 'the corpus packages could not be installed');
  for (const pkg of corpus.readManifest().filter((p) => PACKAGES.includes(p.name))) copies.set(pkg.name, copyForV2(pkg.name, corpus.locate(pkg)));
});

after(() => fs.rmSync(scratch, { recursive: true, force: true }));

test('server-sequential-thinking (published, SDK 1.x): the fixes migrate it, and it serves its tool on @modelcontextprotocol/server 2.4.0', async () => {
  const dir = copies.get(PACKAGES[0])!;
  const before = fs.readFileSync(path.join(dir, 'dist/index.js'), 'utf8');
  const reported = findingsOf(path.join(dir, 'dist/index.js')).filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.equal(reported.length, 2, 'one finding per v1 import');
  assert.deepEqual(
    reported.flatMap((f) => f.fixes.map((x) => x.title)),
    [
      'Import from @modelcontextprotocol/server',
      'Add @modelcontextprotocol/server ^2.4.0 to package.json (keeping @modelcontextprotocol/sdk until nothing imports it)',
      'Import from @modelcontextprotocol/server/stdio',
    ],
  );
  const left = migrate(dir);
  assert.deepEqual(left, [], 'nothing left for a manual step');
  const after = fs.readFileSync(path.join(dir, 'dist/index.js'), 'utf8');
  assert.doesNotMatch(after, /@modelcontextprotocol\/sdk/);
  // Only the two module specifiers changed: comments, layout and line endings are the original's.
  assert.equal(
    after.replace('"@modelcontextprotocol/server"', '"@modelcontextprotocol/sdk/server/mcp.js"').replace('"@modelcontextprotocol/server/stdio"', '"@modelcontextprotocol/sdk/server/stdio.js"'),
    before,
  );
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(manifest.dependencies['@modelcontextprotocol/server'], '^2.4.0');
  assert.ok(manifest.dependencies['@modelcontextprotocol/sdk'], 'the v1 entry is kept (staged migration)');
  assert.ok(!fs.existsSync(path.join(dir, 'node_modules/@modelcontextprotocol/sdk')), 'the copy cannot fall back to v1');

  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(dir, 'dist/index.js')], cwd: dir, stderr: 'pipe' });
  const client = new Client({ name: 'toolsmith-migration', version: '1.0.0' });
  await client.connect(transport);
  try {
    assert.equal(client.getServerVersion()?.name, 'sequential-thinking-server');
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['sequentialthinking'],
    );
    // v2's contract: JSON Schema 2020-12 (v1 published draft-07).
    assert.equal(tools[0].inputSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
    const r = await client.callTool({ name: 'sequentialthinking', arguments: { thought: 'Is the migration done?', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 } });
    assert.ok(!r.isError, JSON.stringify(r));
    assert.equal((r.structuredContent as { thoughtNumber?: number }).thoughtNumber, 1);
  } finally {
    await client.close();
  }
});

test('server-memory (published, SDK 1.x): its types.js schema import is manual, so no import of the file gets a fix (it would not start half-migrated)', () => {
  const dir = copies.get(PACKAGES[1])!;
  const before = fs.readFileSync(path.join(dir, 'dist/index.js'), 'utf8');
  const reported = findingsOf(path.join(dir, 'dist/index.js')).filter((f) => f.ruleId === 'ts-sdk-v1-import');
  assert.equal(reported.length, 3, reported.map((f) => f.message).join('\n'));
  assert.deepEqual(
    reported.flatMap((f) => f.fixes),
    [],
  );
  const manual = reported.filter((f) => /This import needs a manual step/.test(f.message));
  assert.equal(manual.length, 1);
  assert.match(manual[0].message, /SubscribeRequestSchema moved to @modelcontextprotocol\/core, and setRequestHandler\/setNotificationHandler now take the method string/);
  for (const f of reported.filter((x) => x !== manual[0])) assert.match(f.message, /No fix is offered while another import of this file needs a manual step/);
  migrate(dir);
  assert.equal(fs.readFileSync(path.join(dir, 'dist/index.js'), 'utf8'), before);
});

/** A v1 server written here (JavaScript, ESM) in a scratch package whose node_modules has only server 2.4.0 and zod 4. */
function v1Package(name: string, source: string): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), `{\n  "name": "${name}",\n  "type": "module",\n  "dependencies": {\n    "@modelcontextprotocol/sdk": "^1.32.2",\n    "zod": "^4.3.0"\n  }\n}\n`);
  fs.writeFileSync(path.join(dir, 'dist/index.js'), source);
  fs.mkdirSync(path.join(dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules/@modelcontextprotocol/server'), path.join(dir, 'node_modules/@modelcontextprotocol/server'));
  fs.symlinkSync(path.join(root, 'node_modules/zod'), path.join(dir, 'node_modules/zod'));
  return dir;
}

async function connected<T>(dir: string, use: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(dir, 'dist/index.js')], cwd: dir, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'toolsmith-migration', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`the migrated server did not start: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  }
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

test('a v1 server with a resource template: the ResourceTemplate class of server/mcp.js keeps its name (only the types.js type is renamed), and the migrated server serves it on 2.4.0', async () => {
  const dir = v1Package(
    'notes-v1',
    [
      'import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";',
      'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";',
      'import { z } from "zod";',
      'const server = new McpServer({ name: "notes", version: "1.0.0" });',
      'server.registerResource("note", new ResourceTemplate("note://{id}", { list: undefined }), { description: "One note by its id." }, async (uri) => ({ contents: [{ uri: uri.href, text: "n" }] }));',
      'server.registerTool("get_note", { description: "Returns the note with this id.", inputSchema: { id: z.string() } }, async ({ id }) => ({ content: [{ type: "text", text: id }] }));',
      'await server.connect(new StdioServerTransport());',
      '',
    ].join('\n'),
  );
  const file = path.join(dir, 'dist/index.js');
  const mcpImport = findingsOf(file).find((f) => f.ruleId === 'ts-sdk-v1-import' && /server\/mcp\.js/.test(f.message));
  assert.ok(mcpImport, 'no finding on the server/mcp.js import');
  assert.equal(mcpImport.fixes[0].title, 'Import from @modelcontextprotocol/server');
  assert.deepEqual(migrate(dir), [], 'nothing left for a manual step');
  assert.match(fs.readFileSync(file, 'utf8'), /^import \{ McpServer, ResourceTemplate \} from "@modelcontextprotocol\/server";/);
  await connected(dir, async (client) => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => [t.name, t.uriTemplate]),
      [['note', 'note://{id}']],
    );
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      ['get_note'],
    );
  });
});

test('types.js: the ResourceTemplate type is imported as ResourceTemplateType (the v2 name of the wire type)', () => {
  const dir = v1Package(
    'types-v1',
    ['import { ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";', 'export const t = /** @type {ResourceTemplate | undefined} */ (undefined);', ''].join('\n'),
  );
  const f = findingsOf(path.join(dir, 'dist/index.js')).find((x) => x.ruleId === 'ts-sdk-v1-import');
  assert.equal(f?.fixes[0].title, 'Import from @modelcontextprotocol/server (ResourceTemplateType as ResourceTemplate)');
});

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

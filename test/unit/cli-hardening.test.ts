/**
 * What a checked-out repository can hold that must neither hang, exhaust, nor pass silently through the bundled CLI
 * or the language server's file host: FIFOs and devices under source names, oversized files, parser-breaking
 * nesting, a UTF-8 byte order mark, lone-CR line endings. Each case is a CI user's command with a time limit.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createFileHost } from '../../server/src/host';
import { readSourceFile, readSourceFileSync } from '../../server/src/sourceFile';
import { LineIndex } from '../../server/src/positions';

const cli = path.resolve(__dirname, '../../dist/cli.js');
const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } });

const dirs: string[] = [];
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-hardening-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}
after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** `check --format json` over a project: the findings of one of its files as rule@line:column, sorted. */
function findingsByFile(dir: string): (name: string) => string[] {
  const rows = JSON.parse(run(dir, 'check', '.', '--format', 'json').stdout) as { file: string; ruleId: string; line: number; column: number }[];
  return (name) =>
    rows
      .filter((f) => f.file.endsWith(name))
      .map((f) => `${f.ruleId}@${f.line}:${f.column}`)
      .sort();
}

// FastMCP tools with known findings: description-missing (an error) and a readOnlyHint its name contradicts (safe fix).
const PY = [
  'from fastmcp import FastMCP',
  '',
  'mcp = FastMCP("notes")',
  '',
  '@mcp.tool',
  'def get_note(note_id: str) -> str:',
  '    return note_id',
  '',
  '@mcp.tool(annotations={"readOnlyHint": True})',
  'def delete_note(note_id: str) -> str:',
  '    """Delete one note for good. Use when the user asks to remove it. Returns the id of the deleted note."""',
  '    return note_id',
  '',
];

test('a FIFO named x.ts is refused at once, named, exit 2 (it hung for good before)', () => {
  const dir = project({ 'ok.py': PY.join('\n') });
  execFileSync('mkfifo', [path.join(dir, 'x.ts')]);
  const explicit = run(dir, 'check', 'x.ts');
  assert.equal(explicit.error, undefined, 'the CLI returned within its time limit');
  assert.equal(explicit.status, 2);
  assert.match(explicit.stderr, /skipped .*x\.ts: a FIFO, not a regular file/);
  const contract = run(dir, 'contract', 'x.ts');
  assert.equal(contract.status, 2);
  assert.match(contract.stderr, /cannot read x\.ts: a FIFO/);
  // The file host the language server reads through answers "absent" instead of blocking.
  assert.equal(createFileHost().readFile(path.join(dir, 'x.ts')), undefined);
});

test('a symlink x.ts -> /dev/zero is refused, not read forever', async () => {
  const dir = project({});
  fs.symlinkSync('/dev/zero', path.join(dir, 'x.ts'));
  const r = run(dir, 'check', 'x.ts');
  assert.equal(r.error, undefined, 'the CLI returned within its time limit');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /skipped .*x\.ts: a device, not a regular file/);
  const read = await readSourceFile(path.join(dir, 'x.ts'));
  assert.equal(read.ok, false);
  // A symlink to a regular source file is still read (repositories link shared modules).
  fs.writeFileSync(path.join(dir, 'real.py'), PY.join('\n'));
  fs.symlinkSync(path.join(dir, 'real.py'), path.join(dir, 'link.py'));
  assert.deepEqual(readSourceFileSync(path.join(dir, 'link.py')), { ok: true, text: PY.join('\n'), bom: false });
});

test('a file over the size limit is skipped with its size and the way to raise the limit; --max-file-size reads it', () => {
  const big = PY.join('\n') + `\n# ${'x'.repeat(1.5 * 1024 * 1024)}\n`;
  const dir = project({ 'big.py': big });
  const r = run(dir, 'check', '.');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /skipped .*big\.py: 1\.5 MiB, larger than the 1 MiB limit \(raise it with --max-file-size\)/);
  const raised = run(dir, 'check', '.', '--max-file-size', '2', '--format', 'json');
  assert.equal(raised.status, 1, raised.stderr);
  assert.ok((JSON.parse(raised.stdout) as { ruleId: string }[]).some((f) => f.ruleId === 'description-missing'));
  assert.equal(run(dir, 'check', '--max-file-size', 'lots').status, 2);
});

test('TypeScript nested 5,000 levels deep overflows the parser: exit 2 naming the file, not "internal error" and exit 0', () => {
  const deep = `const x = ${'['.repeat(5000)}${']'.repeat(5000)};\n`;
  const dir = project({ 'deep.ts': deep, 'ok.py': PY.join('\n') });
  const r = run(dir, 'check', '.', '--format', 'json');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /could not analyse .*deep\.ts: internal error/);
  // The other file's findings are still reported.
  assert.ok((JSON.parse(r.stdout) as { file: string }[]).some((f) => f.file.endsWith('ok.py')));
});

test('a Python file with a UTF-8 BOM is analysed like the same file without one, and --fix keeps the BOM', () => {
  const dir = project({ 'bom.py': `\uFEFF${PY.join('\n')}`, 'plain.py': PY.join('\n') });
  const contract = run(dir, 'contract', 'bom.py', '--json');
  assert.equal(contract.status, 0, contract.stderr);
  // The same contract; only the files named differ (`servers` says where each server is built).
  const withoutFiles = (stdout: string) => {
    const { servers, ...rest } = JSON.parse(stdout) as { servers: { file: string; entry: string }[] };
    return { ...rest, servers: servers.map(({ file, entry, ...s }) => ({ ...s, file: path.basename(file, '.py') === path.basename(entry, '.py') })) };
  };
  assert.deepEqual(withoutFiles(contract.stdout), withoutFiles(run(dir, 'contract', 'plain.py', '--json').stdout));
  assert.equal((JSON.parse(contract.stdout) as { tools: unknown[] }).tools.length, 2);
  const of = findingsByFile(dir);
  assert.ok(of('bom.py').length > 0, 'findings in the BOM file');
  assert.deepEqual(of('bom.py'), of('plain.py'));
  run(dir, 'check', 'bom.py', '--fix');
  const after = fs.readFileSync(path.join(dir, 'bom.py'), 'utf8');
  assert.equal(after.charCodeAt(0), 0xfeff, 'the BOM is written back');
  assert.notEqual(after, `\uFEFF${PY.join('\n')}`, 'a fix was applied');
});

test('lone-CR line endings put findings on their own lines, not all on line 1', () => {
  const dir = project({ 'cr.py': PY.join('\r'), 'lf.py': PY.join('\n') });
  const of = findingsByFile(dir);
  assert.ok(
    of('lf.py').some((f) => !f.endsWith('@1:1')),
    'the LF file has findings past line 1',
  );
  assert.deepEqual(of('cr.py'), of('lf.py'));
  const index = new LineIndex('a\rb\r\nc\nd');
  assert.deepEqual(
    [0, 2, 5, 7].map((o) => index.position(o)),
    [
      { line: 0, character: 0 },
      { line: 1, character: 0 },
      { line: 2, character: 0 },
      { line: 3, character: 0 },
    ],
  );
  assert.equal(index.offset(0, 99), 1, 'line 0 ends before its lone \\r');
  assert.equal(index.offset(1, 99), 3, 'line 1 ends before its \\r\\n');
});

test('--fix never counts or half-applies a fix whose edits lie outside the checked paths, and says so', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-hardening-'));
  dirs.push(dir);
  fs.cpSync(path.resolve(__dirname, '../fixtures/ts/multi-helpers'), dir, { recursive: true });
  const orders = fs.readFileSync(path.join(dir, 'tools', 'orders.ts'), 'utf8');
  const onlyMain = run(dir, 'check', 'main.ts', '--fix');
  assert.doesNotMatch(onlyMain.stderr, /in 0 files/);
  assert.match(onlyMain.stderr, /not applied "Rewrite as registerTool.*": it edits tools\/orders\.ts, outside the checked paths/);
  assert.equal(fs.readFileSync(path.join(dir, 'tools', 'orders.ts'), 'utf8'), orders, 'the outside file is untouched');
  const whole = run(dir, 'check', '.', '--fix');
  assert.match(whole.stderr, /applied \d+ fix(es)? in [1-9]\d* files?/);
  assert.notEqual(fs.readFileSync(path.join(dir, 'tools', 'orders.ts'), 'utf8'), orders, 'checked together, the fix is applied');
});

test('--fix in a CRLF file inserts CRLF lines: no line ending is mixed in', () => {
  // error-returned-as-success's fix inserts an import line and rewrites a return.
  const lines = [
    'from fastmcp import FastMCP',
    '',
    'mcp = FastMCP("notes")',
    '',
    '@mcp.tool',
    'def get_note(note_id: str) -> dict:',
    '    """Read one note by its id. Use when the user asks for a note. Returns its text."""',
    '    if not note_id:',
    '        return {"error": "note_id is empty: pass the id of an existing note"}',
    '    return {"text": note_id}',
    '',
  ];
  const dir = project({ 'crlf.py': lines.join('\r\n') });
  const r = run(dir, 'check', 'crlf.py', '--fix');
  assert.match(r.stderr, /applied \d+ fix/);
  const after = fs.readFileSync(path.join(dir, 'crlf.py'), 'utf8');
  assert.notEqual(after, lines.join('\r\n'), 'a fix was applied');
  assert.match(after, /ToolError/);
  assert.equal(after.replace(/\r\n/g, '').includes('\n'), false, 'no bare LF');
  assert.equal(after.replace(/\r\n/g, '').includes('\r'), false, 'no bare CR');
});

// Deprecated server.tool calls with comments between their arguments (one with a description, schema and annotations).
const COMMENTED_SERVER_TOOL = [
  'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
  'import { z } from "zod";',
  '',
  'const server = new McpServer({ name: "sdk-use", version: "1.0.0" });',
  '',
  'server.tool(',
  '  "get_time",',
  '  // what the model reads',
  '  "Gets the current server time. Use when the user asks what time it is. Returns an ISO timestamp.",',
  '  /* the zone, validated */ { timezone: z.string().max(40).describe("IANA zone, e.g. Europe/Paris") }, // trailing, note',
  '  { readOnlyHint: true, openWorldHint: false },',
  '  async ({ timezone }) => ({ content: [{ type: "text", text: `${timezone}: ${new Date().toISOString()}` }] })',
  ');',
  '',
  'server.tool("ping", async () => ({ content: [{ type: "text", text: "pong" }] }));',
  '',
].join('\n');

test('the safe server.tool -> registerTool rewrite keeps the comments between the arguments, and the contract', () => {
  const dir = project({ 'tools.ts': COMMENTED_SERVER_TOOL });
  const before = run(dir, 'contract', 'tools.ts', '--json').stdout;
  const r = run(dir, 'check', 'tools.ts', '--fix');
  assert.match(r.stderr, /applied 2 fixes in 1 file/);
  const after = fs.readFileSync(path.join(dir, 'tools.ts'), 'utf8');
  assert.equal((after.match(/registerTool\(/g) ?? []).length, 2, 'both calls rewritten');
  assert.doesNotMatch(after, /\.tool\(/);
  for (const comment of ['// what the model reads', '/* the zone, validated */', '// trailing, note']) assert.ok(after.includes(comment), `${comment} kept`);
  assert.equal(run(dir, 'contract', 'tools.ts', '--json').stdout, before, 'the same contract after the rewrite');
});

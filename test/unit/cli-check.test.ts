/**
 * `toolsmith check` as a CI user runs it: the bundled CLI on files in a temporary project, every output format,
 * settings files, --fix and exit codes.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { writeTree } from '../util/tree';

const cli = path.resolve(__dirname, '../../dist/cli.js');
const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

// A tool whose readOnlyHint contradicts its name (warning, safe fix) and one whose outputSchema is never honoured (error).
const FLAWED = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'tickets', version: '1.0.0' });

server.registerTool('delete_ticket', {
  description: 'Delete a ticket permanently. Use when the user explicitly asks to remove one. Returns a confirmation message.',
  inputSchema: { ticket_id: z.string().max(64).describe('Identifier of the ticket to delete') },
  annotations: { readOnlyHint: true },
}, async ({ ticket_id }) => ({ content: [{ type: 'text', text: \`deleted \${ticket_id}\` }] }));

server.registerTool('get_ticket_status', {
  description: 'Read the status of one ticket. Use when the user asks where a ticket stands. Returns its status.',
  inputSchema: { ticket_id: z.string().max(64).describe('Identifier of the ticket') },
  outputSchema: { status: z.string() },
  annotations: { readOnlyHint: true, openWorldHint: false },
}, async ({ ticket_id }) => ({ content: [{ type: 'text', text: \`open \${ticket_id}\` }] }));
`;

const CLEAN = `export function add(a: number, b: number): number {
  return a + b;
}
`;

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-cli-'));
  dirs.push(dir);
  writeTree(dir, files);
  return dir;
}

/** 1-based line/column of the first occurrence of `needle` (and of its end). */
function locate(text: string, needle: string, from = 0) {
  const start = text.indexOf(needle, from);
  assert.ok(start >= 0, `fixture contains ${needle}`);
  const pos = (o: number) => {
    const before = text.slice(0, o).split('\n');
    return { line: before.length, column: before.at(-1)!.length + 1 };
  };
  const s = pos(start);
  const e = pos(start + needle.length);
  return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column };
}

interface Row {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  ruleId: string;
  severity: string;
  message: string;
  tool: string | null;
  fixes: { title: string; safe: boolean; edits: unknown[] }[];
}

/** The parts of a SARIF 2.1.0 log the tests read (the schema validates the whole). */
interface SarifLog {
  version: string;
  runs: { results: unknown[]; tool: { driver: { rules: unknown[] } } }[];
}

test('check --format json: one object per finding with 1-based positions, rule, severity, tool and fixes', () => {
  const dir = project({ 'src/server.ts': FLAWED });
  const r = run(dir, 'check', '--format', 'json');
  assert.equal(r.status, 1, `error-level finding => exit 1\n${r.stderr}`);
  const rows = JSON.parse(r.stdout) as Row[];
  for (const row of rows) {
    assert.deepEqual(Object.keys(row).sort(), ['column', 'endColumn', 'endLine', 'file', 'fixes', 'line', 'message', 'ruleId', 'severity', 'tool'].sort());
    assert.ok(['error', 'warning', 'info'].includes(row.severity));
    assert.ok(row.line >= 1 && row.column >= 1);
    assert.equal(row.file, path.join(dir, 'src/server.ts'));
  }
  const contradiction = rows.find((x) => x.ruleId === 'annotation-contradicts-name');
  assert.ok(contradiction, 'annotation-contradicts-name reported');
  assert.deepEqual({ line: contradiction.line, column: contradiction.column, endLine: contradiction.endLine, endColumn: contradiction.endColumn }, locate(FLAWED, 'readOnlyHint: true'));
  assert.equal(contradiction.severity, 'warning');
  assert.equal(contradiction.tool, 'delete_ticket');
  assert.ok(
    contradiction.fixes.some((f) => f.safe),
    'it carries a safe fix',
  );
  const missing = rows.find((x) => x.ruleId === 'output-schema-without-structured-content');
  assert.ok(missing, 'output-schema-without-structured-content reported');
  assert.equal(missing.severity, 'error');
  assert.equal(missing.tool, 'get_ticket_status');
});

test('check --format sarif: a SARIF 2.1.0 log that validates against the schema and matches the json findings', () => {
  const dir = project({ 'src/server.ts': FLAWED, 'src/clean.ts': CLEAN });
  const sarifRun = run(dir, 'check', '--format=sarif', 'src');
  assert.equal(sarifRun.status, 1);
  const log = JSON.parse(sarifRun.stdout);
  const schema = JSON.parse(fs.readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
  // The schema's language pattern is not valid in unicode mode; its draft-04 dialect needs ajv-draft-04.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile<SarifLog>(schema);
  assert.ok(validate(log), `SARIF is valid:\n${JSON.stringify(validate.errors, null, 2)}`);
  assert.equal(log.version, '2.1.0');
  const rows = JSON.parse(run(dir, 'check', '--format', 'json', 'src').stdout) as Row[];
  const results = log.runs[0].results as {
    ruleId: string;
    ruleIndex: number;
    level: string;
    locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: Record<string, number> } }[];
  }[];
  assert.equal(results.length, rows.length);
  const rules = log.runs[0].tool.driver.rules as { id: string; helpUri: string }[];
  results.forEach((res, i) => {
    const row = rows[i];
    assert.equal(res.ruleId, row.ruleId);
    assert.equal(rules[res.ruleIndex].id, res.ruleId, 'ruleIndex points at the rule');
    assert.match(rules[res.ruleIndex].helpUri, new RegExp(`/docs/rules/${res.ruleId}\\.md$`));
    assert.equal(res.level, { error: 'error', warning: 'warning', info: 'note' }[row.severity]);
    const loc = res.locations[0].physicalLocation;
    assert.deepEqual(loc.artifactLocation, { uri: 'src/server.ts', uriBaseId: 'SRCROOT' });
    assert.deepEqual(loc.region, { startLine: row.line, startColumn: row.column, endLine: row.endLine, endColumn: row.endColumn });
  });
  // A clean project is a valid, empty log and exit 0.
  const clean = project({ 'a.ts': CLEAN });
  const empty = run(clean, 'check', '--format', 'sarif');
  assert.equal(empty.status, 0);
  const emptyLog = JSON.parse(empty.stdout);
  assert.ok(validate(emptyLog));
  assert.deepEqual(emptyLog.runs[0].results, []);
});

test('check (stylish): a header per file, aligned line:col, severity, message and rule, then a summary', () => {
  const dir = project({ 'src/server.ts': FLAWED });
  const r = run(dir, 'check');
  assert.equal(r.status, 1);
  assert.doesNotMatch(r.stdout, /\x1b\[/, 'no colour codes when not printing to a terminal');
  const lines = r.stdout.split('\n');
  assert.ok(lines.includes(path.join('src', 'server.ts')), 'relative file header');
  const at = locate(FLAWED, 'readOnlyHint: true');
  const row = lines.find((l) => l.includes('annotation-contradicts-name'));
  assert.ok(row, 'the finding is listed');
  assert.match(row, new RegExp(`^\\s+${at.line}:${at.column}\\s+warning\\s+\\S.*\\s+annotation-contradicts-name$`));
  const json = JSON.parse(run(dir, 'check', '-f', 'json').stdout) as Row[];
  const errors = json.filter((x) => x.severity === 'error').length;
  const warnings = json.filter((x) => x.severity === 'warning').length;
  assert.match(r.stdout, new RegExp(`✖ ${json.length} problems? \\(${errors} errors?, ${warnings} warnings?, ${json.length - errors - warnings} info\\)`));
  assert.match(r.stdout, /potentially fixable with the `--fix` option/);
  const clean = project({ 'a.ts': CLEAN, 'b.py': 'def f():\n    return 1\n' });
  const ok = run(clean, 'check');
  assert.equal(ok.status, 0);
  assert.equal(ok.stdout, '');
});

test('check --fix applies safe fixes, writes the file, and reports only what is left', () => {
  const dir = project({ 'server.ts': FLAWED });
  const before = JSON.parse(run(dir, 'check', '--format', 'json').stdout) as Row[];
  const fixable = before.filter((x) => x.fixes.some((f) => f.safe));
  assert.ok(fixable.length >= 1);
  const r = run(dir, 'check', '--fix', '--format', 'json');
  assert.match(r.stderr, /applied \d+ fix(es)? in 1 file/);
  const after = JSON.parse(r.stdout) as Row[];
  assert.equal(after.filter((x) => x.ruleId === 'annotation-contradicts-name').length, 0, 'the fixed finding is gone');
  assert.ok(
    after.some((x) => x.ruleId === 'output-schema-without-structured-content'),
    'the unfixable error remains',
  );
  assert.equal(r.status, 1);
  const text = fs.readFileSync(path.join(dir, 'server.ts'), 'utf8');
  assert.notEqual(text, FLAWED, 'the file was written');
  assert.match(text.slice(text.indexOf("'delete_ticket'"), text.indexOf("'get_ticket_status'")), /readOnlyHint: false/);
  // The fixed file still parses: its two tools are still found.
  const contract = run(dir, 'contract', 'server.ts', '--json');
  assert.equal(contract.status, 0);
  assert.deepEqual(
    (JSON.parse(contract.stdout).tools as { name: string }[]).map((t) => t.name),
    ['delete_ticket', 'get_ticket_status'],
  );
  // Idempotent: a second --fix changes nothing.
  run(dir, 'check', '--fix');
  assert.equal(fs.readFileSync(path.join(dir, 'server.ts'), 'utf8'), text);
});

test('settings: .toolsmithrc.json and the package.json "toolsmith" key change severities; bad JSON is exit 2', () => {
  const off = project({ 'server.ts': FLAWED, '.toolsmithrc.json': JSON.stringify({ rules: { 'output-schema-without-structured-content': 'off', 'annotation-contradicts-name': 'error' } }) });
  const rows = JSON.parse(run(off, 'check', '--format', 'json').stdout) as Row[];
  assert.equal(rows.filter((x) => x.ruleId === 'output-schema-without-structured-content').length, 0);
  assert.equal(rows.find((x) => x.ruleId === 'annotation-contradicts-name')?.severity, 'error');
  const pkg = project({ 'server.ts': FLAWED, 'package.json': JSON.stringify({ name: 'x', toolsmith: { rules: { 'output-schema-without-structured-content': 'info' } } }) });
  const r = run(pkg, 'check', '--format', 'json');
  assert.equal(r.status, 0, 'no error left once the only error rule is lowered to info');
  assert.equal((JSON.parse(r.stdout) as Row[]).find((x) => x.ruleId === 'output-schema-without-structured-content')?.severity, 'info');
  const bad = project({ 'server.ts': FLAWED, '.toolsmithrc.json': '{ rules: ' });
  const b = run(bad, 'check');
  assert.equal(b.status, 2);
  assert.match(b.stderr, /\.toolsmithrc\.json is not valid JSON/);
});

test('check: usage and I/O errors exit 2 with a clear message', () => {
  const dir = project({ 'README.md': '# hi\n', 'a.ts': CLEAN });
  const missing = run(dir, 'check', 'nope');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*nope: no such file or directory/);
  const notSource = run(dir, 'check', 'README.md');
  assert.equal(notSource.status, 2);
  assert.match(notSource.stderr, /README\.md is neither a TypeScript\/JavaScript nor a Python file/);
  const noValue = run(dir, 'check', '--format');
  assert.equal(noValue.status, 2);
  assert.match(noValue.stderr, /--format needs a value/);
  const unknown = run(dir, 'check', '--frobnicate');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown option --frobnicate/);
});

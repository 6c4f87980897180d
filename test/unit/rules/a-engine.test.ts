import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Src, tool, param, result, ctxFor, check } from './builders';
import { runRules, fixAll, applyEdits, RULES, isSuppressed } from '../../../server/src/rules';
import { CATALOG_A } from '../../../server/src/rules/catalog-a';
import type { Rule } from '../../../server/src/rules/types';
import { toolNameVague } from '../../../server/src/rules/tool-name-vague';
import { toolNameDuplicate } from '../../../server/src/rules/tool-name-duplicate';
import { normalizeSettings } from '../../../common/settings';

// RULES.md, sections Naming / Description / Parameters: id -> default severity, and language scope.
const SPEC: Record<string, [string, string[]]> = {
  'tool-name-invalid': ['error', ['typescript', 'python']],
  'tool-name-not-portable': ['info', ['typescript', 'python']],
  'tool-name-vague': ['warning', ['typescript', 'python']],
  'tool-name-not-verb-object': ['info', ['typescript', 'python']],
  'tool-name-duplicate': ['error', ['typescript', 'python']],
  'tool-name-style-mixed': ['info', ['typescript', 'python']],
  'description-missing': ['error', ['typescript', 'python']],
  'description-too-short': ['warning', ['typescript', 'python']],
  'description-no-usage-guidance': ['info', ['typescript', 'python']],
  'description-no-return-info': ['info', ['typescript', 'python']],
  'description-too-long': ['info', ['typescript', 'python']],
  'description-placeholder': ['warning', ['typescript', 'python']],
  'description-hidden-instructions': ['error', ['typescript', 'python']],
  'param-description-missing': ['warning', ['typescript', 'python']],
  'docstring-args-not-in-schema': ['warning', ['python']],
  'docstring-args-mismatch': ['warning', ['python']],
  'param-enum-in-description': ['info', ['typescript', 'python']],
  'param-unbounded-string': ['info', ['typescript', 'python']],
  'param-unbounded-number': ['info', ['typescript', 'python']],
  'param-number-should-be-integer': ['info', ['typescript', 'python']],
  'param-untyped': ['warning', ['typescript', 'python']],
  'param-format-hint-missing': ['info', ['typescript', 'python']],
  'param-default-mismatch': ['error', ['typescript', 'python']],
  'param-nested-too-deep': ['info', ['typescript', 'python']],
  'param-too-many': ['info', ['typescript', 'python']],
  'param-name-ambiguous': ['info', ['typescript', 'python']],
  'param-idempotency-key-exposed': ['info', ['typescript', 'python']],
  'param-private-name': ['error', ['python']],
};

test('catalogue A: every rule of RULES.md Naming/Description/Parameters, with its id, severity and languages', () => {
  assert.deepEqual(CATALOG_A.map((r) => r.id).sort(), Object.keys(SPEC).sort());
  for (const r of CATALOG_A) {
    assert.equal(r.defaultSeverity, SPEC[r.id][0], r.id);
    assert.deepEqual([...r.languages].sort(), [...SPEC[r.id][1]].sort(), r.id);
    assert.ok(r.summary.length > 10, r.id);
  }
  const ids = RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'rule ids are unique across both catalogues');
});

const TS = `server.registerTool("process", { description: "x" }, h);
// toolsmith-disable-next-line tool-name-vague
server.registerTool("handle", { description: "y" }, h);
server.registerTool("run", { description: "z" }, h); // toolsmith-disable-line tool-name-vague
// toolsmith-disable-next-line some-other-rule
server.registerTool("execute", {}, h);
`;

test('engine: severity override and off from settings', () => {
  const src = new Src(TS);
  const tools = [tool(src, { name: 'process', description: 'x' })];
  assert.equal(check(src, tools, [toolNameVague])[0].severity, 'warning');
  assert.equal(check(src, tools, [toolNameVague], { rules: { 'tool-name-vague': 'error' } })[0].severity, 'error');
  assert.equal(check(src, tools, [toolNameVague], { rules: { 'tool-name-vague': 'off' } }).length, 0);
});

test('engine: TS suppression comments silence only the named rule on the next (or same) line', () => {
  const src = new Src(TS);
  const tools = ['process', 'handle', 'run', 'execute'].map((n) => tool(src, { name: n }));
  const found = check(src, tools, [toolNameVague]).map((f) => f.tool);
  assert.deepEqual(found, ['process', 'execute']);
});

test('engine: Python "# toolsmith: disable=<id>" on the line or alone on the line above', () => {
  const src = new Src(`@mcp.tool()
def process(): ...
# toolsmith: disable=tool-name-vague
@mcp.tool(name="handle")
def a(): ...
@mcp.tool(name="run")  # toolsmith: disable=tool-name-vague,param-untyped
def b(): ...
@mcp.tool(name="execute")  # toolsmith: disable=param-untyped
def c(): ...
`);
  const tools = [
    tool(src, { name: 'process', nameLiteral: 'process' }),
    tool(src, { name: 'handle' }),
    tool(src, { name: 'run' }),
    tool(src, { name: 'execute' }),
  ];
  assert.deepEqual(check(src, tools, [toolNameVague]).map((f) => f.tool), ['process', 'execute']);
  assert.equal(isSuppressed({ ruleId: 'tool-name-vague', span: src.span('"run"') }, ctxFor(src)), true);
});

test('engine: a rule that throws is reported once, skipped for the file, and the other rules still run', () => {
  const src = new Src(TS);
  const tools = ['process', 'handle'].map((n) => tool(src, { name: n }));
  let calls = 0;
  const boom: Rule = {
    id: 'boom-test',
    defaultSeverity: 'error',
    languages: ['typescript'],
    summary: 'throws on the second tool',
    checkTool(t) {
      calls++;
      if (t.name.value === 'handle') throw new Error('kaboom');
      return [{ span: t.name.span, message: 'partial', tool: t.name.value ?? null, fixes: [] }];
    },
  };
  const errors: string[] = [];
  const findings = runRules(result(src, tools), ctxFor(src), (id, e) => errors.push(`${id}: ${(e as Error).message}`), [boom, toolNameVague]);
  assert.deepEqual(errors, ['boom-test: kaboom']);
  assert.equal(calls, 2);
  assert.equal(findings.filter((f) => f.ruleId === 'boom-test').length, 0, 'partial findings of a failed rule are dropped for that file');
  assert.deepEqual(findings.map((f) => f.ruleId), ['tool-name-vague']);
  // Same failure on the next keystroke: not logged again.
  runRules(result(src, tools), ctxFor(src), (id) => errors.push(id), [boom]);
  assert.equal(errors.length, 1);
});

test('engine: server-level rules see tools grouped per server id', () => {
  const src = new Src(`a.registerTool("get_user", {}, h);
b.registerTool("get_user", {}, h);
a.registerTool("get_user", {}, h);`);
  const t1 = tool(src, { name: 'get_user', server: 'a' });
  const t2 = { ...tool(src, { name: 'get_user', server: 'b' }), name: { value: 'get_user', span: src.span('"get_user"', 1) } };
  const t3 = { ...tool(src, { name: 'get_user', server: 'a' }), name: { value: 'get_user', span: src.span('"get_user"', 2) } };
  t2.registration = { ...t2.registration, span: t2.name.span };
  t3.registration = { ...t3.registration, span: t3.name.span };
  const found = check(src, [t1, t2, t3], [toolNameDuplicate]);
  assert.equal(found.length, 1);
  assert.equal(found[0].span.start, src.span('"get_user"', 2).start);
  assert.match(found[0].message, /first on line 1/);
});

test('fixAll: first safe fix per finding, no overlaps, identical edits once, unsafe fixes left out', () => {
  const file = '/ws/x.py';
  const text = 'abcdefghij';
  const f = (start: number, end: number, newText: string, safe = true, ruleId = 'r') => ({
    ruleId,
    severity: 'info' as const,
    message: '',
    tool: null,
    span: { file, start, end },
    fixes: [{ title: 't', safe, edits: [{ span: { file, start, end }, newText }, { span: { file, start: 0, end: 0 }, newText: 'IMPORT;' }] }],
  });
  const { fixes, edits } = fixAll([f(1, 3, 'X'), f(2, 4, 'Y'), f(5, 6, 'Z'), f(7, 8, 'U', false)]);
  assert.equal(fixes.length, 2, 'the overlapping second fix waits for the next pass');
  assert.equal(applyEdits(text, edits), 'IMPORT;aXdeZghij');
  assert.equal(edits.filter((e) => e.newText === 'IMPORT;').length, 1);
});

test('settings: naming style and thresholds reach the rules', () => {
  const s = normalizeSettings({ naming: { style: 'domain.verb' }, thresholds: { descriptionMinLength: 5 } });
  assert.equal(s.naming.style, 'domain.verb');
  assert.equal(s.thresholds.descriptionMinLength, 5);
  const src = new Src('server.registerTool("tickets.search", { description: "Short" }, h)');
  const t = tool(src, { name: 'tickets.search', description: 'Short' });
  const ids = (settings?: Record<string, unknown>) => check(src, [t], CATALOG_A, settings).map((x) => x.ruleId);
  assert.ok(ids().includes('tool-name-not-portable'));
  assert.ok(ids().includes('description-too-short'));
  assert.ok(!ids({ naming: { style: 'domain.verb' } }).includes('tool-name-not-portable'));
  assert.ok(!ids({ naming: { style: 'domain.verb' } }).includes('tool-name-not-verb-object'));
  assert.ok(!ids({ thresholds: { descriptionMinLength: 5 } }).includes('description-too-short'));
  void param;
});

test('docs: every rule A has docs/rules/<id>.md with its severity, examples and how to suppress it', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  for (const r of CATALOG_A) {
    const file = path.resolve(__dirname, '../../../docs/rules', `${r.id}.md`);
    assert.ok(fs.existsSync(file), `${r.id}.md exists`);
    const md = fs.readFileSync(file, 'utf8');
    assert.match(md, new RegExp(`^# ${r.id}\\n`), r.id);
    assert.match(md, new RegExp(`Default severity: \\*\\*${r.defaultSeverity}\\*\\*`), r.id);
    assert.match(md, /## Why it matters/, r.id);
    if (r.languages.includes('typescript')) assert.match(md, /```ts\n/, `${r.id}: a TypeScript example`);
    if (r.languages.includes('python')) assert.match(md, /```python\n/, `${r.id}: a Python example`);
    assert.ok(md.includes(`# toolsmith: disable=${r.id}`) && md.includes(`"toolsmith.rules": { "${r.id}": "off" }`), `${r.id}: suppression`);
    if (r.languages.includes('typescript')) assert.ok(md.includes(`// toolsmith-disable-next-line ${r.id}`), r.id);
  }
});

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Src, tool, param, result, ctxFor, check } from './builders';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runRules, fixAll, applyEdits, RULES, isSuppressed } from '../../../server/src/rules';
import { RULE_AREAS } from '../../../server/src/rules/catalog';
import { analyse } from './harness';
import type { Rule } from '../../../server/src/rules/types';
import { toolNameVague } from '../../../server/src/rules/tool-name-vague';
import { toolNameDuplicate } from '../../../server/src/rules/tool-name-duplicate';
import { normalizeSettings } from '../../../common/settings';
import { finding } from '../../../server/src/rules/util/finding';

test('catalogue: every rule in exactly one area, with a unique id, a summary and its languages', () => {
  const ids = RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'rule ids are unique');
  assert.deepEqual(
    RULE_AREAS.flatMap((a) => a.rules),
    [...RULES],
    'RULES is the areas, in order',
  );
  for (const r of RULES) {
    assert.match(r.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, r.id);
    assert.ok(r.summary.length > 10, `${r.id}: a summary`);
    assert.ok(r.languages.length > 0, `${r.id}: languages`);
    assert.ok(r.checkTool !== undefined || r.checkPrompt !== undefined || r.checkResource !== undefined || r.checkServer !== undefined || r.checkFile !== undefined, `${r.id}: a check`);
  }
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
  const tools = [tool(src, { name: 'process', nameLiteral: 'process' }), tool(src, { name: 'handle' }), tool(src, { name: 'run' }), tool(src, { name: 'execute' })];
  assert.deepEqual(
    check(src, tools, [toolNameVague]).map((f) => f.tool),
    ['process', 'execute'],
  );
  assert.equal(isSuppressed({ ruleId: 'tool-name-vague', span: src.span('"run"') }, ctxFor(src)), true);
});

const boom = (onTool: string): Rule => ({
  id: 'boom-test',
  defaultSeverity: 'error',
  languages: ['typescript'],
  summary: `throws on ${onTool}`,
  checkTool(t) {
    if (t.name.value === onTool) throw new Error('kaboom');
    return [finding(t, t.name.span, 'partial')];
  },
});

test('engine: a rule that throws is reported on every run, skipped for the file, and the other rules still run', () => {
  const src = new Src(TS);
  const tools = ['process', 'handle'].map((n) => tool(src, { name: n }));
  const errors: string[] = [];
  const findings = runRules(result(src, tools), ctxFor(src), (id, e) => errors.push(`${id}: ${(e as Error).message}`), [boom('handle'), toolNameVague]);
  assert.deepEqual(errors, ['boom-test: kaboom']);
  assert.equal(findings.filter((f) => f.ruleId === 'boom-test').length, 0, 'partial findings of a failed rule are dropped for that file');
  assert.deepEqual(
    findings.map((f) => f.ruleId),
    ['tool-name-vague'],
  );
  // The next keystroke fails the same way: reported again (the logs of the server and the CLI keep each message once).
  runRules(result(src, tools), ctxFor(src), (id) => errors.push(id), [boom('handle')]);
  assert.equal(errors.length, 2);
});

test('harness: a rule that throws fails the test that runs it', () => {
  const file = path.resolve(__dirname, '../../fixtures/rules/ts/a-naming.ts');
  const text = fs.readFileSync(file, 'utf8');
  const first = analyse(file, text).result.tools[0].name.value!;
  assert.throws(() => analyse(file, text, undefined, [boom(first), toolNameVague]), /rule boom-test threw on .*a-naming\.ts: Error: kaboom/);
  assert.doesNotThrow(() => analyse(file, text, undefined, [boom('no such tool'), toolNameVague]));
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
    fixes: [
      {
        title: 't',
        safe,
        edits: [
          { span: { file, start, end }, newText },
          { span: { file, start: 0, end: 0 }, newText: 'IMPORT;' },
        ],
      },
    ],
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
  const ids = (settings?: Record<string, unknown>) => check(src, [t], RULES, settings).map((x) => x.ruleId);
  assert.ok(ids().includes('tool-name-not-portable'));
  assert.ok(ids().includes('description-too-short'));
  assert.ok(!ids({ naming: { style: 'domain.verb' } }).includes('tool-name-not-portable'));
  assert.ok(!ids({ naming: { style: 'domain.verb' } }).includes('tool-name-not-verb-object'));
  assert.ok(!ids({ thresholds: { descriptionMinLength: 5 } }).includes('description-too-short'));
  void param;
});

const LANGUAGES: Record<string, string> = { 'typescript,python': 'TypeScript and Python', typescript: 'TypeScript only', python: 'Python only' };

test('docs: every rule has docs/rules/<id>.md with its severity, languages, why, examples and how to suppress it', () => {
  const dir = path.resolve(__dirname, '../../../docs/rules');
  assert.deepEqual(fs.readdirSync(dir).sort(), RULES.map((r) => `${r.id}.md`).sort(), 'one page per rule, no page without a rule');
  for (const r of RULES) {
    const md = fs.readFileSync(path.join(dir, `${r.id}.md`), 'utf8');
    assert.match(md, new RegExp(`^# ${r.id}\\n`), r.id);
    const languages = LANGUAGES[[...r.languages].sort().reverse().join(',')];
    assert.ok(md.includes(`Default severity: **${r.defaultSeverity}** · ${languages}`), `${r.id}: severity ${r.defaultSeverity}, ${languages}`);
    const preset = r.preset === 'strict' ? 'Preset: **strict** only' : r.preset === 'opt-in' ? 'Preset: **opt-in** only' : 'Preset: **recommended**';
    assert.ok(md.includes(preset), `${r.id}: which preset it is in`);
    assert.match(md, /## What it checks/, r.id);
    assert.match(md, /## Why it matters/, r.id);
    if (r.languages.includes('typescript')) assert.match(md, /```ts\n/, `${r.id}: a TypeScript example`);
    if (r.languages.includes('python')) assert.match(md, /```python\n/, `${r.id}: a Python example`);
    assert.ok(md.includes(`"toolsmith.rules": { "${r.id}": "off" }`), `${r.id}: how to turn it off`);
    if (r.languages.includes('python')) assert.ok(md.includes(`# toolsmith: disable=${r.id}`), `${r.id}: Python suppression`);
    if (r.languages.includes('typescript')) assert.ok(md.includes(`// toolsmith-disable-next-line ${r.id}`), `${r.id}: TypeScript suppression`);
  }
});

test('docs: the README "Presets" section lists exactly the strict-only and the opt-in rules', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Presets'), readme.indexOf('## CLI'));
  const listedAfter = (marker: string) => {
    const from = section.slice(section.indexOf(marker));
    const end = Math.min(...['\n\n', '\n- '].map((e) => from.indexOf(e)).filter((i) => i >= 0));
    return [...from.slice(0, end).matchAll(/\[`([a-z0-9-]+)`\]/g)].map((m) => m[1]);
  };
  assert.deepEqual(
    listedAfter('**`strict`**'),
    RULES.filter((r) => r.preset === 'strict').map((r) => r.id),
  );
  assert.deepEqual(
    listedAfter('**opt-in**'),
    RULES.filter((r) => r.preset === 'opt-in').map((r) => r.id),
  );
});

test('docs: the README "Rules" table lists the areas and their rules in catalogue order', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  const rows = readme
    .slice(readme.indexOf('| Area | Rules |'))
    .split('\n')
    .slice(2)
    .filter((l) => l.startsWith('| '));
  const table = rows.map((row) => {
    const [title, rules] = row
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim());
    return { title, ids: [...rules.matchAll(/\[`([a-z0-9-]+)`\]\(docs\/rules\/\1\.md\)/g)].map((m) => m[1]) };
  });
  assert.deepEqual(
    table,
    RULE_AREAS.map((a) => ({ title: a.title, ids: a.rules.map((r) => r.id) })),
  );
});

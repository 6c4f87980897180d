/**
 * Rules A over annotated source fixtures, through the real pipeline (front-end -> rules): every marked finding is
 * reported at its exact span, nothing unmarked fires, clean files raise no warning/error, and every quick fix,
 * applied and re-analysed, removes its finding and leaves a file that still parses.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { A_IDS, analyse, describeFinding, fixtureFiles, parseMarks, pyParseErrors } from './a-harness';
import { matches, tsSyntaxErrors } from './marks';
import { applyEdits, fixAll } from '../../../server/src/rules';
import type { Finding } from '../../../server/src/rules/types';

const files = fixtureFiles();
const counts = new Map<string, { fires: number; fixes: number; files: Set<string> }>();
const pyChecks: { label: string; text: string }[] = [];

test('rules A fixtures exist for both languages', () => {
  assert.ok(files.some((f) => f.endsWith('.ts')) && files.some((f) => f.endsWith('.py')), 'TS and Python fixtures');
});

for (const file of files) {
  const rel = path.relative(process.cwd(), file);
  const text = fs.readFileSync(file, 'utf8');
  const { clean, marks, settings } = parseMarks(text);
  const py = file.endsWith('.py');

  test(`${rel}: findings are exactly the marked ones`, () => {
    const a = analyse(file, text, settings);
    assert.ok(a.result.tools.length > 0, 'the front-end finds the tools of the fixture');
    assert.deepEqual(a.result.files.flatMap((f) => f.syntaxErrors), [], 'the fixture itself parses');
    const findings = a.findings.filter((f) => f.span.file === file);
    if (clean) {
      const loud = findings.filter((f) => f.severity !== 'info');
      assert.deepEqual(loud.map((f) => describeFinding(text, f)), [], 'a clean fixture has no warning or error');
    }
    const mine = findings.filter((f) => A_IDS.has(f.ruleId));
    const missing = marks.filter((m) => !mine.some((f) => matches(text, f, m)));
    const extra = mine.filter((f) => !marks.some((m) => matches(text, f, m)));
    assert.deepEqual(
      { missing: missing.map((m) => `${m.ruleId} at ${m.line + 1}:${m.col ?? '?'}-${m.endCol ?? '?'}`), extra: extra.map((f) => describeFinding(text, f)) },
      { missing: [], extra: [] },
    );
    for (const m of marks) {
      const f = mine.find((x) => matches(text, x, m))!;
      const c = counts.get(m.ruleId) ?? { fires: 0, fixes: 0, files: new Set<string>() };
      c.fires++;
      c.files.add(py ? 'py' : 'ts');
      if (m.fix) {
        assert.ok(f.fixes.length > 0, `${m.ruleId} at line ${m.line + 1} offers a quick fix`);
        c.fixes++;
      }
      counts.set(m.ruleId, c);
      assert.match(f.message, /.{60,}/, `${m.ruleId}: the message explains what, why and what instead`);
    }
  });

  for (const m of marks.filter((x) => x.fix)) {
    test(`${rel}: fix for ${m.ruleId} at line ${m.line + 1} removes the finding and the file still parses`, () => {
      const before = analyse(file, text, settings);
      const f = before.findings.find((x) => matches(text, x, m))!;
      const after = applyEdits(text, f.fixes[0].edits, file);
      assert.notEqual(after, text, 'the fix changes the file');
      const again = analyse(file, after, settings);
      assert.deepEqual(again.result.files.flatMap((x) => x.syntaxErrors.map((e) => e.message)), [], 'no syntax error after the fix');
      if (!py) assert.deepEqual(tsSyntaxErrors(after, file), [], 'TypeScript still parses');
      else pyChecks.push({ label: `${rel} ${m.ruleId}@${m.line + 1}`, text: after });
      // The finding is gone: the same rule no longer reports on the same (shifted) line of the same tool.
      const start = mapOffset(f, f.span.start);
      const same = (x: Finding) => x.ruleId === m.ruleId && x.span.start === start;
      const left = again.findings.filter(same);
      if (m.ruleId === 'param-description-missing' && f.message.includes('has no description')) {
        // `.describe("")` / Field(description="") is a stub to type into: what remains is the prompt to fill it.
        assert.ok(left.every((x) => x.message.includes('has an empty description')), left.map((x) => x.message).join('\n'));
      } else {
        assert.deepEqual(left.map((x) => describeFinding(after, x)), []);
      }
      assert.ok(again.findings.filter((x) => x.ruleId === m.ruleId).length < before.findings.filter((x) => x.ruleId === m.ruleId).length || m.ruleId === 'param-description-missing');
    });
  }

  test(`${rel}: fixAll applies the safe fixes in one pass and the file still parses`, () => {
    const before = analyse(file, text, settings);
    const { fixes, edits } = fixAll(before.findings.filter((f) => f.span.file === file));
    const after = applyEdits(text, edits, file);
    const again = analyse(file, after, settings);
    assert.deepEqual(again.result.files.flatMap((x) => x.syntaxErrors.map((e) => e.message)), []);
    if (!py) assert.deepEqual(tsSyntaxErrors(after, file), []);
    else pyChecks.push({ label: `${rel} fixAll`, text: after });
    const safeBefore = before.findings.filter((f) => f.fixes.some((x) => x.safe)).length;
    const safeAfter = again.findings.filter((f) => f.fixes.some((x) => x.safe)).length;
    if (fixes.length > 0) assert.ok(safeAfter < safeBefore, `fixAll reduced the findings with a safe fix (${safeBefore} -> ${safeAfter})`);
  });
}

/** Where an offset of the original text lands after the finding's own fix (edits before it shift it). */
function mapOffset(f: Finding, offset: number): number {
  let shift = 0;
  for (const e of f.fixes[0].edits) if (e.span.end <= offset && !(e.span.start === e.span.end && e.span.start === offset)) shift += e.newText.length - (e.span.end - e.span.start);
  return offset + shift;
}

test('every fixed Python text parses with CPython', () => {
  const errors = pyParseErrors(pyChecks.map((c) => c.text));
  const bad = pyChecks.map((c, i) => (errors[i] ? `${c.label}: ${errors[i]}` : null)).filter(Boolean);
  assert.deepEqual(bad, []);
  assert.ok(pyChecks.length > 0, 'some Python fixes were checked');
});

test('coverage: every rule A fires in a fixture (both languages where it applies); report', () => {
  const rows = [...A_IDS].sort().map((id) => {
    const c = counts.get(id);
    return `${id.padEnd(32)} fires ${String(c?.fires ?? 0).padStart(3)}  fixes ${String(c?.fixes ?? 0).padStart(3)}  ${[...(c?.files ?? [])].sort().join('+')}`;
  });
  console.log('rules A fixture coverage:\n' + rows.join('\n'));
  const missing = [...A_IDS].filter((id) => !counts.has(id));
  assert.deepEqual(missing, [], 'rules without a firing fixture');
});

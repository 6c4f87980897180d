/**
 * Every rule over the annotated fixtures (harness.ts), through the real front-end: each marked finding at its
 * exact span and nothing unmarked, clean files without warnings or errors, every quick fix applied and re-analysed
 * removes its finding and leaves a file that still parses (TypeScript's parser, CPython's), fixAll likewise.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyse, describeFinding, fixtureFiles, fixtureRules, matches, parseMarks, pyParseErrors, tsSyntaxErrors } from './harness';
import { applyEdits, fixAll, RULES } from '../../../server/src/rules';
import type { Finding, Fix } from '../../../server/src/rules/types';
import type { FileAnalysis } from '../../../server/src/service';

const files = fixtureFiles();
const fired = new Map<string, Set<string>>();
const fixesChecked = new Map<string, number>();
const pyChecks: { label: string; text: string }[] = [];

const syntaxErrors = (a: FileAnalysis) => a.result.files.flatMap((f) => f.syntaxErrors.map((e) => e.message));

for (const file of files) {
  const rel = path.relative(process.cwd(), file);
  const text = fs.readFileSync(file, 'utf8');
  const { clean, marks, settings } = parseMarks(text);
  const py = file.endsWith('.py');
  const covered = fixtureRules(file);
  const mine = (a: FileAnalysis) => a.findings.filter((f) => f.span.file === file && covered.has(f.ruleId));

  test(`${rel}: findings are exactly the marked ones`, () => {
    const a = analyse(file, text, settings);
    assert.ok(a.result.tools.length + (a.result.prompts?.length ?? 0) + (a.result.resources?.length ?? 0) > 0, 'the front-end finds the tools (or prompts, resources) of the fixture');
    assert.deepEqual(syntaxErrors(a), [], 'the fixture itself parses');
    if (clean) {
      const loud = a.findings.filter((f) => f.span.file === file && f.severity !== 'info');
      assert.deepEqual(
        loud.map((f) => describeFinding(text, f)),
        [],
        'a clean fixture has no warning or error',
      );
    }
    const found = mine(a);
    const missing = marks.filter((m) => !found.some((f) => matches(text, f, m)));
    const extra = found.filter((f) => !marks.some((m) => matches(text, f, m)));
    assert.deepEqual({ missing: missing.map((m) => `${m.ruleId} at ${m.line + 1}:${m.col ?? '?'}-${m.endCol ?? '?'}`), extra: extra.map((f) => describeFinding(text, f)) }, { missing: [], extra: [] });
    for (const m of marks) {
      const f = found.find((x) => matches(text, x, m))!;
      if (m.fix) assert.ok(f.fixes.length > 0, `${m.ruleId} at line ${m.line + 1} offers a quick fix`);
      assert.match(f.message, /.{60,}/, `${m.ruleId}: the message explains what, why and what instead`);
      const langs = fired.get(m.ruleId) ?? new Set<string>();
      fired.set(m.ruleId, langs.add(py ? 'py' : 'ts'));
    }
  });

  test(`${rel}: every quick fix removes its finding and the file still parses`, () => {
    const before = analyse(file, text, settings);
    for (const f of mine(before)) {
      for (const fix of f.fixes) {
        const label = `${describeFinding(text, f)}, "${fix.title}"`;
        const after = applyEdits(text, fix.edits, file);
        assert.notEqual(after, text, `${label} changes the file`);
        const again = analyse(file, after, settings);
        assert.deepEqual(syntaxErrors(again), [], `${label}: no syntax error after the fix`);
        if (py) pyChecks.push({ label, text: after });
        else assert.deepEqual(tsSyntaxErrors(after, file), [], `${label}: TypeScript still parses`);
        // Gone: one fewer of that rule on that tool, and none left where the finding was (shifted by the fix).
        const count = (a: FileAnalysis) => a.findings.filter((g) => g.ruleId === f.ruleId && g.tool === f.tool).length;
        const start = mapOffset(fix, f.span.start);
        const left = again.findings.filter((g) => g.ruleId === f.ruleId && g.span.start === start);
        if (f.ruleId === 'param-description-missing' && f.message.includes('has no description')) {
          // `.describe("")` / Field(description="") is a stub to type into: what remains is the prompt to fill it.
          assert.ok(
            left.every((g) => g.message.includes('has an empty description')),
            `${label}: ${left.map((g) => g.message).join('\n')}`,
          );
        } else {
          assert.deepEqual(
            left.map((g) => describeFinding(after, g)),
            [],
            `${label}: still reported`,
          );
          assert.ok(count(again) < count(before), `${label}: still reported`);
        }
        fixesChecked.set(f.ruleId, (fixesChecked.get(f.ruleId) ?? 0) + 1);
      }
    }
  });

  test(`${rel}: fixAll applies the safe fixes in one pass and the file still parses`, () => {
    const before = analyse(file, text, settings);
    const { fixes, edits } = fixAll(before.findings.filter((f) => f.span.file === file));
    const after = applyEdits(text, edits, file);
    const again = analyse(file, after, settings);
    assert.deepEqual(syntaxErrors(again), []);
    if (py) pyChecks.push({ label: `${rel} fixAll`, text: after });
    else assert.deepEqual(tsSyntaxErrors(after, file), []);
    const withSafeFix = (fs: Finding[]) => fs.filter((f) => f.fixes.some((x) => x.safe)).length;
    if (fixes.length > 0) assert.ok(withSafeFix(again.findings) < withSafeFix(before.findings), 'fixAll reduced the findings with a safe fix');
  });
}

/** Where an offset of the original text lands after a fix (edits before it shift it). */
function mapOffset(fix: Fix, offset: number): number {
  let shift = 0;
  for (const e of fix.edits) if (e.span.end <= offset && !(e.span.start === e.span.end && e.span.start === offset)) shift += e.newText.length - (e.span.end - e.span.start);
  return offset + shift;
}

test('every fixed Python text parses with CPython', () => {
  const errors = pyParseErrors(pyChecks.map((c) => c.text));
  assert.deepEqual(pyChecks.map((c, i) => (errors[i] ? `${c.label}: ${errors[i]}` : null)).filter(Boolean), []);
  assert.ok(pyChecks.length > 0, 'some Python fixes were checked');
});

test('coverage: every rule fires in a fixture; report', () => {
  const rows = RULES.map((r) => `${r.id.padEnd(42)} fires in ${[...(fired.get(r.id) ?? [])].sort().join('+') || '-'}  fixes checked ${fixesChecked.get(r.id) ?? 0}`);
  console.log('rules fixture coverage:\n' + rows.join('\n'));
  assert.deepEqual(
    RULES.filter((r) => !fired.has(r.id)).map((r) => r.id),
    [],
    'rules without a firing fixture',
  );
});

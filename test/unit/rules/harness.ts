/**
 * The rules test harness: runs the rules over a source text through the real front-end, fails on any rule that
 * throws, and reads the marks of the annotated fixtures under test/fixtures/rules/{ts,py}.
 *
 * Marks point at the nearest code line above them:
 *   `//      ^^^^^ rule-id` (TS) / `#      ^^^^^ rule-id` (Py): a finding of rule-id starts at the first caret
 *   (and ends after the last one when it ends on that line); ` fix` requires a quick fix.
 *   `//! rule-id` / `#! rule-id`: a finding of rule-id starts somewhere on the code line above.
 *   `//~ "exact text" rule-id` / `#~ "exact text" rule-id`: the finding covers exactly the nearest occurrence of that
 *   text above the mark (for findings inside docstrings and strings, where a marker line would change the text);
 *   `#~^ "text" rule-id`: the finding starts at that text (multi-line spans).
 * First line `// clean` / `# clean`: no warning or error at all, from any rule.
 * A line `// settings: {...}` / `# settings: {...}` among the first three gives the settings for the file.
 * The findings of the rules a fixture covers (`fixtureRules`) must be exactly the marked ones.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as ts from 'typescript';
import { analyzeSource } from '../../../server/src/analysis/analyze';
import { RULES, runRules, withEveryRule } from '../../../server/src/rules';
import { RULE_AREAS } from '../../../server/src/rules/catalog';
import type { FileAnalysis } from '../../../server/src/service';
import type { Finding, Rule } from '../../../server/src/rules/types';
import { DEFAULT_SETTINGS, normalizeSettings, type ToolsmithSettings } from '../../../common/settings';

/** Every rule on (the opt-in ones too): the rule tests check what each rule finds, whichever preset it is in. */
export const STRICT_SETTINGS: ToolsmithSettings = withEveryRule(DEFAULT_SETTINGS);

export const FIXTURES = path.resolve(__dirname, '../../fixtures/rules');

export const diskHost = {
  readFile: (p: string) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined),
  fileExists: (p: string) => fs.existsSync(p),
};

/**
 * Front-end then rules, as service.ts#analyzeFile runs them, except that a rule that throws fails the caller
 * (analyzeFile only logs it, and the language server keeps going). `rules` lets a test inject its own.
 */
export function analyse(file: string, text: string, settings: ToolsmithSettings = STRICT_SETTINGS, rules: readonly Rule[] = RULES): FileAnalysis {
  const result = analyzeSource(file, text, diskHost);
  const crashes: string[] = [];
  const findings = runRules(
    result,
    { settings, textOf: (f) => (f === file ? text : diskHost.readFile(f)) },
    (ruleId, err) => crashes.push(`rule ${ruleId} threw on ${file}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
    rules,
  );
  if (crashes.length) throw new Error(crashes.join('\n'));
  return { file, result, findings };
}

/**
 * The fixtures were written in two sets: `a-*` for the naming, description and parameter rules, `b-*` for the
 * others. Each set pins exactly the findings of its areas (and `clean` files every warning and error).
 */
const A_AREAS = new Set(['Naming', 'Description', 'Parameters']);
export function fixtureRules(file: string): Set<string> {
  const a = path.basename(file).startsWith('a-');
  return new Set(RULE_AREAS.filter((area) => A_AREAS.has(area.title) === a).flatMap((area) => area.rules.map((r) => r.id)));
}

export function fixtureFiles(): string[] {
  const out: string[] = [];
  for (const lang of ['ts', 'py']) {
    const dir = path.join(FIXTURES, lang);
    for (const f of fs.readdirSync(dir).sort()) if (/^[ab]-.*\.(ts|py)$/.test(f)) out.push(path.join(dir, f));
  }
  return out;
}

export interface Mark {
  ruleId: string;
  /** 0-based line of the code the mark points at. */
  line: number;
  col?: number;
  endCol?: number;
  fix: boolean;
  /** Exact offsets (from a `~ "text"` mark); `end` undefined for `~^`. */
  start?: number;
  end?: number;
}

export function parseMarks(text: string): { clean: boolean; marks: Mark[]; settings: ToolsmithSettings } {
  const lines = text.split('\n');
  const clean = /^\s*(\/\/|#)\s*clean\b/.test(lines[0] ?? '');
  let raw: unknown = {};
  for (const l of lines.slice(0, 3)) {
    const m = /^\s*(?:\/\/|#)\s*settings:\s*(\{.*\})\s*$/.exec(l);
    if (m) raw = JSON.parse(m[1]);
  }
  const marks: Mark[] = [];
  let lastCode = -1;
  let offset = 0;
  lines.forEach((l, i) => {
    const lineOffset = offset;
    offset += l.length + 1;
    const tilde = /^\s*(?:\/\/|#)~(\^?)\s*("(?:[^"\\]|\\.)*")\s+([a-z0-9-]+)(\s+fix)?\s*$/.exec(l);
    if (tilde) {
      const needle = JSON.parse(tilde[2]) as string;
      // Nearest occurrence above that is not itself inside a marker line.
      const isMarkLine = (at: number) => /^\s*(?:\/\/|#)(~|!|\s*\^)/.test(text.slice(text.lastIndexOf('\n', at) + 1));
      let start = text.lastIndexOf(needle, lineOffset - needle.length);
      while (start >= 0 && isMarkLine(start)) start = text.lastIndexOf(needle, start - 1);
      if (start < 0) throw new Error(`mark on line ${i + 1}: "${needle}" not found above`);
      marks.push({ ruleId: tilde[3], line: text.slice(0, start).split('\n').length - 1, fix: !!tilde[4], start, end: tilde[1] ? undefined : start + needle.length });
      return;
    }
    const caret = /^(\s*(?:\/\/|#)\s*)(\^+)\s+([a-z0-9-]+)(\s+fix)?\s*$/.exec(l);
    const bang = /^\s*(?:\/\/|#)!\s*([a-z0-9-]+)(\s+fix)?\s*$/.exec(l);
    if (caret) {
      const col = caret[1].length;
      marks.push({ ruleId: caret[3], line: lastCode, col, endCol: col + caret[2].length, fix: !!caret[4] });
    } else if (bang) marks.push({ ruleId: bang[1], line: lastCode, fix: !!bang[2] });
    else lastCode = i;
  });
  // Fixtures pin every rule's findings: every rule runs (strict and the opt-in ones) unless the fixture says otherwise.
  return { clean, marks, settings: withEveryRule(normalizeSettings({ preset: 'strict', ...(raw && typeof raw === 'object' ? raw : {}) })) };
}

/** 0-based line and column of an offset. */
export function position(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, col: offset - (before.lastIndexOf('\n') + 1) };
}

/** Whether `f` is the finding mark `m` points at. */
export function matches(text: string, f: Finding, m: Mark): boolean {
  if (f.ruleId !== m.ruleId) return false;
  if (m.start !== undefined) return f.span.start === m.start && (m.end === undefined || f.span.end === m.end);
  const s = position(text, f.span.start);
  if (s.line !== m.line) return false;
  if (m.col === undefined) return true;
  if (s.col !== m.col) return false;
  const e = position(text, f.span.end);
  return e.line !== m.line || e.col === m.endCol;
}

export function describeFinding(text: string, f: Finding): string {
  const s = position(text, f.span.start);
  const e = position(text, f.span.end);
  return `${f.ruleId} at ${s.line + 1}:${s.col}-${e.line + 1}:${e.col} ${JSON.stringify(text.slice(f.span.start, Math.min(f.span.end, f.span.start + 40)))}`;
}

/** Syntax errors of a TypeScript text (the compiler's own parser). */
export function tsSyntaxErrors(text: string, file = 'x.ts'): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const diags = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics; // internal but stable: the parser's own errors
  return diags.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Python parse errors, by the real CPython parser (`ast.parse`), for many texts in one process. */
export function pyParseErrors(texts: string[]): (string | null)[] {
  if (texts.length === 0) return [];
  const script =
    'import ast,json,sys\nout=[]\nfor t in json.load(sys.stdin):\n  try:\n    ast.parse(t); out.append(None)\n  except SyntaxError as e:\n    out.append(f"{e.msg} at line {e.lineno}")\nprint(json.dumps(out))';
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 could not check syntax: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout) as (string | null)[];
}

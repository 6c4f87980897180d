/**
 * Annotated fixtures for rules A (naming, description, parameters), same marker format as rules B:
 *   `//      ^^^^^ rule-id` (TS) / `#      ^^^^^ rule-id` (Py) on the line after the code: a finding of rule-id
 *   starts at the first caret (and ends after the last one when it ends on that line); ` fix` requires a quick fix.
 *   `//! rule-id` / `#! rule-id`: a finding of rule-id starts somewhere on the code line above.
 *   `//~ "exact text" rule-id` / `#~ "exact text" rule-id`: the finding covers exactly the nearest occurrence of that
 *   text above the mark (for findings inside docstrings and strings, where a marker line would change the text);
 *   `#~^ "text" rule-id`: the finding starts at that text (multi-line spans).
 * First line `// clean` / `# clean`: no warning or error at all, from any rule.
 * A line `// settings: {...}` / `# settings: {...}` among the first three gives the settings for the file.
 * Otherwise the rules A findings must be exactly the marked ones.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { analyzeFile, type FileAnalysis } from '../../../server/src/service';
import { normalizeSettings, type ToolsmithSettings } from '../../../common/settings';
import type { Finding } from '../../../server/src/rules/types';
import { CATALOG_A } from '../../../server/src/rules/catalog-a';
import { position } from './marks';

export const A_IDS = new Set(CATALOG_A.map((r) => r.id));
export const FIXTURES = path.resolve(__dirname, '../../fixtures/rules');

export interface Mark {
  ruleId: string;
  line: number;
  col?: number;
  endCol?: number;
  fix: boolean;
  /** Exact offsets (from a `~ "text"` mark). */
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
  return { clean, marks, settings: normalizeSettings(raw) };
}

export const diskHost = {
  readFile: (p: string) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined),
  fileExists: (p: string) => fs.existsSync(p),
};

export function analyse(file: string, text: string, settings: ToolsmithSettings): FileAnalysis {
  const logs: string[] = [];
  const a = analyzeFile(file, text, diskHost, settings, (m) => logs.push(m));
  if (a.internalError || logs.length) throw new Error(`analysis of ${file} logged: ${a.internalError ?? ''}${logs.join('\n')}`);
  return a;
}

export function describeFinding(text: string, f: Finding): string {
  const s = position(text, f.span.start);
  const e = position(text, f.span.end);
  return `${f.ruleId} at ${s.line + 1}:${s.col}-${e.line + 1}:${e.col} ${JSON.stringify(text.slice(f.span.start, Math.min(f.span.end, f.span.start + 40)))}`;
}

/** Python parse errors, by the real CPython parser (`ast.parse`), for many texts in one process. */
export function pyParseErrors(texts: string[]): (string | null)[] {
  if (texts.length === 0) return [];
  const script = 'import ast,json,sys\nout=[]\nfor t in json.load(sys.stdin):\n  try:\n    ast.parse(t); out.append(None)\n  except SyntaxError as e:\n    out.append(f"{e.msg} at line {e.lineno}")\nprint(json.dumps(out))';
  const r = spawnSync('python3', ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 could not check syntax: ${r.stderr || r.error}`);
  return JSON.parse(r.stdout) as (string | null)[];
}

export function fixtureFiles(): string[] {
  const out: string[] = [];
  for (const lang of ['ts', 'py']) {
    const dir = path.join(FIXTURES, lang);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).sort()) if (f.startsWith('a-') && /\.(ts|py)$/.test(f)) out.push(path.join(dir, f));
  }
  return out;
}

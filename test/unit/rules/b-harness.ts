/**
 * Annotated fixtures for rules B. A marker line points at the nearest code line above it:
 *   `//      ^^^^^ rule-id` (TS) / `#      ^^^^^ rule-id` (Py): a finding of rule-id starts at the first caret
 *   (and ends at the last one when the finding ends on that line); add ` fix` to require a quick fix.
 *   `//! rule-id`: a finding of rule-id starts somewhere on that line (for code at column 0).
 * A file whose first line is `// clean` / `# clean` must produce no warning or error at all (any rule).
 * Otherwise the rules B findings must be exactly the marked ones: what is not marked must not fire.
 */
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { analyzeFile, type FileAnalysis } from '../../../server/src/service';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import type { Edit } from '../../../server/src/rules/types';
import { CATALOG_B } from '../../../server/src/rules/catalog-b';

export const B_IDS = new Set(CATALOG_B.map((r) => r.id));

export interface Expectation {
  ruleId: string;
  line: number; // 0-based
  col?: number;
  endCol?: number;
  fix: boolean;
  /** `todo`: expected, but waits on a front-end fact; a miss is reported as a TODO diagnostic, not a failure. */
  todo: boolean;
}

export function expectations(text: string): { clean: boolean; marks: Expectation[] } {
  const lines = text.split('\n');
  const clean = /^\s*(\/\/|#)\s*clean\b/.test(lines[0] ?? '');
  const marks: Expectation[] = [];
  let lastCode = -1;
  lines.forEach((l, i) => {
    const caret = /^(\s*(?:\/\/|#)\s*)(\^+)\s+([a-z0-9-]+)(\s+fix)?(\s+todo)?\s*$/.exec(l);
    const bang = /^\s*(?:\/\/|#)!\s*([a-z0-9-]+)(\s+fix)?(\s+todo)?\s*$/.exec(l);
    if (caret) {
      const col = caret[1].length;
      marks.push({ ruleId: caret[3], line: lastCode, col, endCol: col + caret[2].length, fix: !!caret[4], todo: !!caret[5] });
    } else if (bang) marks.push({ ruleId: bang[1], line: lastCode, fix: !!bang[2], todo: !!bang[3] });
    else lastCode = i;
  });
  return { clean, marks };
}

export const host = {
  readFile: (p: string) => (fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined),
  fileExists: (p: string) => fs.existsSync(p),
};

export function analyse(file: string, text: string): FileAnalysis {
  return analyzeFile(file, text, host, DEFAULT_SETTINGS);
}


/** Applies one fix's edits of `file` to `text` (back to front; inserts at one offset keep their order). */
export function applyFixEdits(text: string, edits: Edit[], file: string): string {
  const mine = edits.map((e, i) => ({ e, i })).filter(({ e }) => e.span.file === file);
  mine.sort((a, b) => b.e.span.start - a.e.span.start || b.e.span.end - a.e.span.end || b.i - a.i);
  let out = text;
  for (const { e } of mine) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

/** Syntax errors of a Python text, from CPython's own parser (`ast.parse`). */
export function pySyntaxErrors(text: string): string[] {
  const r = spawnSync('python3', ['-c', 'import ast,sys\ntry:\n ast.parse(sys.stdin.read())\nexcept SyntaxError as e:\n print(e)'], { input: text, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return r.stdout.trim() ? [r.stdout.trim()] : [];
}

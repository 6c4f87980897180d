/**
 * Annotated fixtures: expectations sit in comments right under the code they mark, and are stripped before the
 * text is given to the server (so positions are those of the stripped text).
 *
 *   annotations: { readOnlyHint: true },
 *   //             ^^^^^^^^^^^^^^^^^^ warning annotation-contradicts-name
 *
 * Carets mark columns of the nearest code line above. Where carets cannot reach (column 0 or 1, a range over several
 * lines, a line inside a docstring) the explicit form counts code lines upwards (-1 = the line just above) with
 * 1-based columns, end exclusive:
 *
 *   # @-4:5..-2:47 warning docstring-args-not-in-schema
 *
 * A fixture without markers expects no diagnostic at all.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Range } from 'vscode-languageserver-protocol';

export const FIXTURES = path.resolve(__dirname, '../fixtures/protocol');

export interface Expectation {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  range: Range;
}

export interface Fixture {
  name: string;
  /** Text without marker lines. */
  code: string;
  expected: Expectation[];
}

const CARETS = /^(\s*(?:\/\/|#))(\s*)(\^+)\s+(error|warning|info)\s+([a-z0-9-]+)\s*$/;
const EXPLICIT = /^\s*(?:\/\/|#)\s*@-(\d+):(\d+)\.\.-(\d+):(\d+)\s+(error|warning|info)\s+([a-z0-9-]+)\s*$/;

export function parseFixture(name: string, source: string): Fixture {
  const kept: string[] = [];
  const expected: Expectation[] = [];
  for (const line of source.split('\n')) {
    const c = CARETS.exec(line);
    const x = c ? null : EXPLICIT.exec(line);
    if (!c && !x) {
      kept.push(line);
      continue;
    }
    if (kept.length === 0) throw new Error(`${name}: a marker before any code line`);
    const above = kept.length - 1; // 0-based line of the code line just above, in the stripped text
    if (c) {
      const start = c[1].length + c[2].length;
      expected.push({
        ruleId: c[5],
        severity: c[4] as Expectation['severity'],
        range: { start: { line: above, character: start }, end: { line: above, character: start + c[3].length } },
      });
    } else if (x) {
      const [startUp, startCol, endUp, endCol] = [x[1], x[2], x[3], x[4]].map(Number);
      expected.push({
        ruleId: x[6],
        severity: x[5] as Expectation['severity'],
        range: { start: { line: above - (startUp - 1), character: startCol - 1 }, end: { line: above - (endUp - 1), character: endCol - 1 } },
      });
    }
  }
  return { name, code: kept.join('\n'), expected };
}

export function loadFixture(rel: string): Fixture {
  return parseFixture(rel, fs.readFileSync(path.join(FIXTURES, rel), 'utf8'));
}

const SEVERITY_NAMES: Record<number, Expectation['severity']> = { 1: 'error', 2: 'warning', 3: 'info' };

export function severityName(n: number | undefined): Expectation['severity'] | undefined {
  return n === undefined ? undefined : SEVERITY_NAMES[n];
}

const key = (e: Expectation) => `${e.range.start.line}:${e.range.start.character}-${e.range.end.line}:${e.range.end.character} ${e.severity} ${e.ruleId}`;

/** Expectations as sorted, readable lines (so a failing deepEqual shows a clear diff). */
export function describeAll(list: Expectation[]): string[] {
  return list.map(key).sort();
}

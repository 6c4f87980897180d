/**
 * What the annotated-fixture harnesses of rules A (a-harness.ts) and B (b-harness.ts) share: where a finding stands,
 * whether it is the one a mark points at, and whether a fixed TypeScript text still parses.
 */
import * as ts from 'typescript';
import type { Finding } from '../../../server/src/rules/types';

/** 0-based line and column of an offset. */
export function position(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, col: offset - (before.lastIndexOf('\n') + 1) };
}

/** Where a mark says a finding is: a line (and columns), or exact offsets (rules A `~ "text"` marks). */
export interface MarkedSpan {
  ruleId: string;
  line: number;
  col?: number;
  endCol?: number;
  start?: number;
  end?: number;
}

export function matches(text: string, f: Finding, m: MarkedSpan): boolean {
  if (f.ruleId !== m.ruleId) return false;
  if (m.start !== undefined) return f.span.start === m.start && (m.end === undefined || f.span.end === m.end);
  const s = position(text, f.span.start);
  if (s.line !== m.line) return false;
  if (m.col === undefined) return true;
  if (s.col !== m.col) return false;
  const e = position(text, f.span.end);
  return e.line !== m.line || e.col === m.endCol;
}

/** Syntax errors of a TypeScript text (the compiler's own parser). */
export function tsSyntaxErrors(text: string, file = 'x.ts'): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const diags = (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics; // internal but stable: the parser's own errors
  return diags.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

import type { FileAnalysis } from '../service';
import type { Severity } from '../../../common/settings';
import { LineIndex } from '../positions';
import type { Span } from '../analysis/model';
import { compareLikeLocale } from './collate';

/** One finding as `--format json` prints it (positions 1-based, end exclusive as in LSP). */
export interface FindingRow {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  ruleId: string;
  severity: Severity;
  message: string;
  tool: string | null;
  fixes: { title: string; safe: boolean; edits: { file: string; line: number; column: number; endLine: number; endColumn: number; text: string }[] }[];
}

export interface Located1 {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** Spans to 1-based positions, with one line index per file text. */
export class Positions {
  private readonly indexes = new Map<string, LineIndex>();
  constructor(private readonly textOf: (file: string) => string | undefined) {}
  of(span: Span): Located1 {
    let index = this.indexes.get(span.file);
    if (!index) {
      index = new LineIndex(this.textOf(span.file) ?? '');
      this.indexes.set(span.file, index);
    }
    const s = index.position(span.start);
    const e = index.position(span.end);
    return { line: s.line + 1, column: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 };
  }
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export function toRows(analyses: FileAnalysis[], textOf: (file: string) => string | undefined): FindingRow[] {
  const positions = new Positions(textOf);
  return finishRows(analyses.flatMap((a) => fileRows(a, positions)));
}

/** The rows of one file's findings, in finding order (what the check cache stores per file). */
export function fileRows(a: FileAnalysis, positions: Positions): FindingRow[] {
  return a.findings.map((f) => ({
    file: f.span.file,
    ...positions.of(f.span),
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    tool: f.tool,
    fixes: f.fixes.map((x) => ({ title: x.title, safe: x.safe, edits: x.edits.map((e) => ({ file: e.span.file, ...positions.of(e.span), text: e.newText })) })),
  }));
}

/** The rows of every file of a run, each once, in report order. */
export function finishRows(rows: FindingRow[]): FindingRow[] {
  // A finding in a shared schema file is reported by every file importing it: keep it once.
  const seen = new Set<string>();
  const unique = rows.filter((r) => {
    const key = JSON.stringify([r.file, r.line, r.column, r.endLine, r.endColumn, r.ruleId, r.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) => compareLikeLocale(a.file, b.file) || a.line - b.line || a.column - b.column || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || compareLikeLocale(a.ruleId, b.ruleId),
  );
}

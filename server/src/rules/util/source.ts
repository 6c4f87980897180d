/**
 * Source text for quick fixes. Rules never parse source: they read the spans the front-end gave them, look only
 * at the characters inside or right around them, and build plain edits.
 */
import type { Span } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';

/** The text a span covers, or undefined when the file is unknown or the span is out of its bounds (or absent). */
export function spanText(ctx: RuleContext, span: Span | undefined): string | undefined {
  if (!span) return undefined;
  const text = ctx.textOf(span.file);
  if (text === undefined || span.end > text.length || span.start < 0 || span.start > span.end) return undefined;
  return text.slice(span.start, span.end);
}

/** A span of the same file as `span`, from `start` to `end` (absolute offsets). */
export function subSpan(span: Span, start: number, end = start): Span {
  return { file: span.file, start, end };
}

/** An edit replacing what `span` covers by `newText`. */
export function replace(span: Span, newText: string): Edit {
  return { span: { ...span }, newText };
}

/** An edit inserting `newText` at `offset` of `file`. */
export function insertAt(file: string, offset: number, newText: string): Edit {
  return { span: { file, start: offset, end: offset }, newText };
}

/** Start offset of the line containing `offset`. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** End offset of the line containing `offset` (the position of its '\n', or text length). */
export function lineEnd(text: string, offset: number): number {
  const i = text.indexOf('\n', offset);
  return i === -1 ? text.length : i;
}

/** Leading whitespace of the line containing `offset`. */
export function indentAt(text: string, offset: number): string {
  const s = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(s))![0];
}

/** Edit that deletes the whole lines covering [start, end) including their newline. */
export function deleteLines(file: string, text: string, start: number, end: number): Edit {
  const s = lineStart(text, start);
  let e = lineEnd(text, Math.max(start, end - 1));
  if (e < text.length) e++;
  return { span: { file, start: s, end: e }, newText: '' };
}

/** The span without leading/trailing whitespace (front-ends may include indentation or the final newline). */
export function trimSpan(ctx: RuleContext, span: Span): Span {
  const src = spanText(ctx, span);
  if (src === undefined) return span;
  const lead = src.length - src.trimStart().length;
  const trail = src.length - src.trimEnd().length;
  if (lead + trail >= src.length) return span;
  return { file: span.file, start: span.start + lead, end: span.end - trail };
}

/**
 * Edits inside object literals and keyword lists (TS `{ key: value }`, Python `key=value` lists): the facts (what
 * to insert, where the object is) come from the ToolDefinition; these helpers only look at the characters around
 * an insertion point so the result is laid out like the code around it (commas, indentation). They never analyse code.
 */
import type { Span } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';
import { indentAt, insertAt, replace, spanText } from './source';

/**
 * Inserts `prop` (e.g. `isError: true`) as the first property of an object literal whose `{` ends at `afterBrace`.
 * Always valid syntax: `{ prop, rest }`, `{ prop }` for an empty object, one property per line when the object is.
 */
export function insertFirstProperty(ctx: RuleContext, file: string, afterBrace: number, prop: string): Edit | undefined {
  const text = ctx.textOf(file);
  if (text === undefined || text[afterBrace - 1] !== '{') return undefined;
  const rest = text.slice(afterBrace);
  const ws = /^[ \t]*/.exec(rest)?.[0] ?? '';
  const next = rest[ws.length];
  if (next === '}') return insertAt(file, afterBrace, ` ${prop} `);
  if (next === '\n' || next === '\r') {
    const firstLine = rest.slice(ws.length).replace(/^\r?\n/, '');
    const indent = /^[ \t]*/.exec(firstLine)?.[0] ?? `${indentAt(text, afterBrace)}  `;
    return insertAt(file, afterBrace, `\n${indent}${prop},`);
  }
  return insertAt(file, afterBrace, ` ${prop},`);
}

/** Deletes one `key: value` entry of an object / keyword list together with the comma that separates it. */
export function removeEntry(ctx: RuleContext, span: Span): Edit | undefined {
  const text = ctx.textOf(span.file);
  if (text === undefined) return undefined;
  const after = /^[ \t]*,[ \t]*/.exec(text.slice(span.end));
  if (after) {
    // Also swallow the line break when the entry sits on its own line.
    const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
    const onOwnLine = /^[ \t]*$/.test(text.slice(lineStart, span.start)) && /^\r?\n/.test(text.slice(span.end + after[0].length));
    if (onOwnLine) {
      const nl = /^\r?\n/.exec(text.slice(span.end + after[0].length))![0];
      return replace({ file: span.file, start: lineStart, end: span.end + after[0].length + nl.length }, '');
    }
    return replace({ file: span.file, start: span.start, end: span.end + after[0].length }, '');
  }
  const before = /,\s*$/.exec(text.slice(0, span.start));
  if (before) return replace({ file: span.file, start: span.start - before[0].length, end: span.end }, '');
  return replace(span, '');
}

/** An identifier, `a.b.c` path or literal can be written twice without running anything twice. */
export const isPureExpression = (expr: string): boolean => /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(expr.trim()) || /^(["'`])[^"'`]*\1$/.test(expr.trim());

/**
 * Offset just after the `{` of a returned object literal: the front-end's `objectStartOffset`, else the `{` that
 * directly follows `return` (or `return (`) at the start of the return's span.
 */
export function returnedObjectStart(ctx: RuleContext, r: { span: Span; objectStartOffset?: number; valueKind: string }): number | undefined {
  if (r.objectStartOffset !== undefined) return r.objectStartOffset;
  if (r.valueKind !== 'object') return undefined;
  const m = /^return\s*\(?\s*\{/.exec(spanText(ctx, r.span) ?? '');
  return m ? r.span.start + m[0].length : undefined;
}

/** The object literal a new input property goes into: `inputShapeSpan`, else an inline `{...}` / `z.object({...})` inputSchema. */
export function inputShapeStart(ctx: RuleContext, tool: { inputShapeSpan?: Span; inputSchemaSpan?: Span; file: string }): { file: string; afterBrace: number } | undefined {
  if (tool.inputShapeSpan) return { file: tool.inputShapeSpan.file, afterBrace: tool.inputShapeSpan.start + 1 };
  const s = tool.inputSchemaSpan;
  const text = spanText(ctx, s);
  if (!s || text === undefined) return undefined;
  const m = /^(z\.object\(\s*)?\{/.exec(text);
  return m ? { file: s.file, afterBrace: s.start + m[0].length } : undefined;
}

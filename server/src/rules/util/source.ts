/**
 * Source-text helpers for quick fixes. Rules never parse source: they read spans the front-end gave them and
 * only look at the characters inside those spans (quotes of a literal, the chain of a zod call, import lines).
 */
import type { Span } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';

export function spanText(ctx: RuleContext, span: Span): string | undefined {
  const text = ctx.textOf(span.file);
  if (text === undefined || span.end > text.length || span.start < 0 || span.start > span.end) return undefined;
  return text.slice(span.start, span.end);
}

export function at(span: Span, start: number, end = start): Span {
  return { file: span.file, start, end };
}

export function replace(span: Span, newText: string): Edit {
  return { span: { ...span }, newText };
}

export function insertAt(file: string, offset: number, newText: string): Edit {
  return { span: { file, start: offset, end: offset }, newText };
}

/** A single string literal as written: prefix (Python r/u/b/f), quote sequence, and the inner text offsets. */
export interface StringLiteral {
  prefix: string;
  quote: string;
  /** Offsets relative to the start of the literal text. */
  innerStart: number;
  innerEnd: number;
  raw: boolean;
}

/** Recognises one string literal (TS '...', "...", `...` without ${}; Python with prefixes and triple quotes). */
export function parseStringLiteral(src: string): StringLiteral | undefined {
  const m = /^([rRuUbBfF]{0,2})("""|'''|"|'|`)/.exec(src);
  if (!m) return undefined;
  const [, prefix, quote] = m;
  if (quote === '`' && prefix) return undefined;
  if (!src.endsWith(quote) || src.length < prefix.length + quote.length * 2) return undefined;
  const innerStart = prefix.length + quote.length;
  const innerEnd = src.length - quote.length;
  const inner = src.slice(innerStart, innerEnd);
  if (quote === '`' && inner.includes('${')) return undefined;
  // The closing quote must not be escaped, and a single-quoted literal must not contain its unescaped quote.
  if (quote.length === 1) {
    for (let i = 0; i < inner.length; i++) {
      if (inner[i] === '\\') i++;
      else if (inner[i] === quote) return undefined;
    }
    if (/(^|[^\\])(\\\\)*\\$/.test(inner)) return undefined;
  }
  return { prefix, quote, innerStart, innerEnd, raw: /[rR]/.test(prefix) };
}

/** Escapes text for insertion inside a literal with the given quote (not raw). */
export function escapeForQuote(value: string, quote: string): string {
  let out = value.replace(/\\/g, '\\\\');
  if (quote.length === 1) out = out.split(quote).join('\\' + quote).replace(/\n/g, '\\n');
  if (quote === '`') out = out.replace(/\$\{/g, '\\${');
  if (quote.length === 3) out = out.split(quote).join(quote[0] + '\\' + quote.slice(1));
  return out;
}

/** A double-quoted literal in the language's usual spelling. */
export function quoteString(value: string): string {
  return '"' + escapeForQuote(value, '"') + '"';
}

/** Replaces the value of a string literal written at `span`, keeping its quote style. */
export function replaceLiteralValue(ctx: RuleContext, span: Span, value: string): Edit | undefined {
  const src = spanText(ctx, span);
  if (src === undefined) return undefined;
  const lit = parseStringLiteral(src);
  if (!lit) return undefined;
  if (lit.raw && (value.includes(lit.quote) || value.endsWith('\\'))) return undefined;
  const escaped = lit.raw ? value : escapeForQuote(value, lit.quote);
  return replace(at(span, span.start + lit.innerStart, span.start + lit.innerEnd), escaped);
}

/**
 * Appends a sentence to the first paragraph of the text written at `span` — a single literal (TS string, Python
 * docstring) or an expression ending with one (`"a " + "b"`). Returns undefined when the span ends with no literal.
 */
export function appendSentence(ctx: RuleContext, span: Span, sentence: string): Edit | undefined {
  const src = spanText(ctx, span);
  if (src === undefined) return undefined;
  const whole = parseStringLiteral(src);
  let innerStart: number;
  let innerEnd: number;
  let quote: string;
  let raw = false;
  if (whole) {
    ({ innerStart, innerEnd, quote, raw } = whole);
  } else {
    // `"a" + "b"`: the last literal of the concatenation.
    const q = src[src.length - 1];
    if (q !== '"' && q !== "'" && q !== '`') return undefined;
    let i = src.length - 2;
    while (i >= 0 && !(src[i] === q && src[i - 1] !== '\\')) i--;
    if (i < 0) return undefined;
    innerStart = i + 1;
    innerEnd = src.length - 1;
    quote = q;
    if (q === '`' && src.slice(innerStart, innerEnd).includes('${')) return undefined;
  }
  const inner = src.slice(innerStart, innerEnd);
  // End of the first paragraph: before the first blank line (docstrings), else the end of the text.
  const blank = /\n[ \t]*\n/.exec(inner);
  let pos = blank ? blank.index : inner.length;
  while (pos > 0 && /\s/.test(inner[pos - 1])) pos--;
  // Keep a trailing space already written inside the literal (`"... d'abord. "`): no double space.
  const lead = pos === 0 ? '' : ' ';
  const text = raw ? sentence : escapeForQuote(sentence, quote);
  const prevChar = inner[pos - 1];
  const needsStop = pos > 0 && prevChar !== undefined && !/[.!?:;)]/.test(prevChar);
  return insertAt(span.file, span.start + innerStart + pos, (needsStop ? '.' : '') + lead + text);
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

/**
 * Renames a tool/parameter name written at `span`: a string literal keeps its quotes; a bare identifier (Python
 * function name, TS key) is replaced when it reads exactly `oldName`. `literal` tells which one it was.
 */
export function renameEdit(ctx: RuleContext, span: Span, oldName: string, newName: string): { edit: Edit; literal: boolean } | undefined {
  const src = spanText(ctx, span);
  if (src === undefined) return undefined;
  if (src === oldName && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(newName)) return { edit: replace(span, newName), literal: false };
  const e = replaceLiteralValue(ctx, span, newName);
  return e ? { edit: e, literal: true } : undefined;
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

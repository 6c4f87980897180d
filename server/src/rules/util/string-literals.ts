/**
 * String literals as written in the source (TS quotes and template literals, Python prefixes and triple quotes):
 * recognising one inside a span, and edits that change its text while keeping its quoting.
 */
import type { Span } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';
import { insertAt, replace, spanText, subSpan } from './source';

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
function escapeForQuote(value: string, quote: string): string {
  let out = value.replace(/\\/g, '\\\\');
  if (quote.length === 1)
    out = out
      .split(quote)
      .join('\\' + quote)
      .replace(/\n/g, '\\n');
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
  return replace(subSpan(span, span.start + lit.innerStart, span.start + lit.innerEnd), escaped);
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

/**
 * Renames a tool/parameter name written at `span`: a string literal keeps its quotes; a bare identifier (Python
 * function name, TS key) is replaced when it reads exactly `oldName`. `literal` tells which one it was.
 */
export function renameEdit(ctx: RuleContext, span: Span, oldName: string, newName: string): { edit: Edit; literal: boolean } | undefined {
  const src = spanText(ctx, span);
  if (src === undefined) return undefined;
  if (src === oldName && /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(newName)) return { edit: replace(span, newName), literal: false };
  // Only a literal that reads the name: a prefixed name (a mounted server's `<prefix>_<name>`, a factory's
  // f"wiki_{name}") is written elsewhere in part, and rewriting this literal would not give `newName`.
  const lit = parseStringLiteral(src);
  if (!lit || src.slice(lit.innerStart, lit.innerEnd) !== oldName) return undefined;
  const e = replaceLiteralValue(ctx, span, newName);
  return e ? { edit: e, literal: true } : undefined;
}

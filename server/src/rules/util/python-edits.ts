/** Python quick-fix edits: `Annotated[T, Field(...)]` on a parameter's annotation, its base type, a new parameter. */
import type { ParameterDefinition } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';
import { indentAt, insertAt, spanText } from './source';
import { addPythonImports, type PythonImport } from './python-imports';

/**
 * Edits that add keyword arguments to a parameter's pydantic `Field(...)`: inside an existing `Field(` (in the
 * annotation or as the default value), or by wrapping the annotation as `Annotated[T, Field(...)]`. The imports
 * those edits need are returned separately so several parameters can share one import edit.
 */
export function fieldKeywordEdits(ctx: RuleContext, param: ParameterDefinition, keywords: string): { edits: Edit[]; imports: PythonImport[] } | undefined {
  const file = param.nameSpan.file;
  if (!param.typeSpan) return undefined;
  const typeText = spanText(ctx, param.typeSpan);
  if (typeText === undefined) return undefined;
  const fieldIn = (src: string, base: number): Edit | undefined => {
    const m = /\bField\(\s*/.exec(src);
    if (!m) return undefined;
    const after = m.index + m[0].length;
    const empty = src[after] === ')';
    return insertAt(file, base + after, empty ? keywords : `${keywords}, `);
  };
  if (param.defaultValue) {
    const def = spanText(ctx, param.defaultValue.span);
    if (def && /^(pydantic\.)?Field\(/.test(def)) {
      const e = fieldIn(def, param.defaultValue.span.start);
      if (e) return { edits: [e], imports: [] };
    }
  }
  if (/^(typing\.|typing_extensions\.)?Annotated\[/.test(typeText)) {
    const e = fieldIn(typeText, param.typeSpan.start);
    if (e) return { edits: [e], imports: [] };
    const close = typeText.lastIndexOf(']');
    if (close < 0) return undefined;
    return { edits: [insertAt(file, param.typeSpan.start + close, `, Field(${keywords})`)], imports: [['pydantic', 'Field']] };
  }
  return {
    edits: [{ span: { ...param.typeSpan }, newText: `Annotated[${typeText}, Field(${keywords})]` }],
    imports: [
      ['typing', 'Annotated'],
      ['pydantic', 'Field'],
    ],
  };
}

/** `fieldKeywordEdits` plus the missing import lines. */
export function addFieldKeywords(ctx: RuleContext, param: ParameterDefinition, keywords: string): Edit[] | undefined {
  const text = ctx.textOf(param.nameSpan.file);
  const r = fieldKeywordEdits(ctx, param, keywords);
  if (!r || text === undefined) return undefined;
  return [...r.edits, ...addPythonImports(param.nameSpan.file, text, r.imports)];
}

/** The base type inside `Annotated[T, ...]` as written, else the whole annotation. */
export function pythonBaseType(typeText: string): { text: string; offset: number } {
  const m = /^(?:typing\.|typing_extensions\.)?Annotated\[\s*/.exec(typeText);
  if (!m) return { text: typeText, offset: 0 };
  let depth = 0;
  for (let i = m[0].length; i < typeText.length; i++) {
    const c = typeText[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) return { text: typeText.slice(m[0].length, i).trimEnd(), offset: m[0].length };
  }
  return { text: typeText, offset: 0 };
}

/** Python string literal for generated code. */
export function pyString(value: string): string {
  return '"' + value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';
}

/** Edit replacing the one `from` type name (e.g. `str`, `float`) in a parameter's base type by `to`. */
export function replacePythonType(ctx: RuleContext, param: ParameterDefinition, from: string, to: string): Edit | undefined {
  if (!param.typeSpan) return undefined;
  const typeText = spanText(ctx, param.typeSpan);
  if (typeText === undefined) return undefined;
  const base = pythonBaseType(typeText);
  const hits = [...base.text.matchAll(new RegExp(`(?<![\\w.])${from}(?![\\w.\\[])`, 'g'))];
  if (hits.length !== 1) return undefined;
  const start = param.typeSpan.start + base.offset + hits[0].index;
  return { span: { file: param.typeSpan.file, start, end: start + from.length }, newText: to };
}

/**
 * Appends a Python parameter before the `)` at `closeParen` (the front-end's `paramsEndOffset`).
 * `def f()` -> `def f(p)`, `def f(a)` -> `def f(a, p)`, a trailing comma or a one-per-line list is respected.
 */
export function appendPythonParameter(ctx: RuleContext, file: string, closeParen: number, param: string, contentEnd?: number): Edit | undefined {
  const text = ctx.textOf(file);
  if (text === undefined || text[closeParen] !== ')') return undefined;
  // After the last parameter itself when the front-end knows where it ends: a trailing comment may follow it.
  if (contentEnd !== undefined && contentEnd < closeParen) return insertAt(file, contentEnd, `, ${param}`);
  const open = text.lastIndexOf('(', closeParen);
  const inner = text.slice(open + 1, closeParen);
  if (inner.trim() === '') return insertAt(file, closeParen, param);
  const trimmedEnd = inner.replace(/\s+$/, '');
  const endOfLast = open + 1 + trimmedEnd.length;
  if (trimmedEnd.endsWith(',')) {
    if (/\n/.test(inner.slice(trimmedEnd.length))) {
      const indent = indentAt(text, endOfLast - 1);
      return insertAt(file, endOfLast, `\n${indent}${param},`);
    }
    return insertAt(file, endOfLast, ` ${param}`);
  }
  return insertAt(file, endOfLast, `, ${param}`);
}

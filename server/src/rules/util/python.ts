/** Python quick-fix helpers: imports and `Annotated[T, Field(...)]` edits on a parameter's annotation. */
import type { ParameterDefinition } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';
import { insertAt, spanText } from './source';
import { memoByText } from './memo';

/** True when `name` is already imported from `module` (or from typing_extensions for typing names). */
export function hasPythonImport(text: string, module: string, name: string): boolean {
  // Each Python fix asks for its imports, and the answer needs a scan of the whole file: once per file text.
  const known = importsAsked(text);
  const key = `${module}\0${name}`;
  let found = known.get(key);
  if (found === undefined) known.set(key, (found = scanPythonImport(text, module, name)));
  return found;
}

const importsAsked = memoByText(() => new Map<string, boolean>());

function scanPythonImport(text: string, module: string, name: string): boolean {
  const modules = module === 'typing' ? ['typing', 'typing_extensions'] : [module];
  for (const mod of modules) {
    const re = new RegExp(`^from[ \\t]+${mod.replace(/\./g, '\\.')}[ \\t]+import[ \\t]+(\\([^)]*\\)|[^\\n]*)`, 'gm');
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const names = m[1].replace(/[()\\]/g, ' ').split(/[,\s]+/);
      for (let i = 0; i < names.length; i++) {
        if (names[i] === name && names[i + 1] !== 'as') return true;
      }
    }
  }
  return false;
}

/** Offset after the last top-level import of the module header (or after the module docstring, or 0). */
export function importInsertionOffset(text: string): number {
  return cachedInsertionOffset(text);
}

const cachedInsertionOffset = memoByText((text: string) => computeInsertionOffset(text));

function computeInsertionOffset(text: string): number {
  let offset = 0;
  const lines = text.split('\n');
  let pos = 0;
  let inParen = false;
  let inDocstring: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = pos + line.length + 1;
    if (inDocstring) {
      if (line.includes(inDocstring)) {
        inDocstring = undefined;
        if (offset === 0) offset = Math.min(next, text.length);
      }
    } else if (inParen) {
      if (line.includes(')')) {
        inParen = false;
        offset = Math.min(next, text.length);
      }
    } else if (/^(from|import)[ \t]/.test(line)) {
      if (/\([^)]*$/.test(line)) inParen = true;
      else offset = Math.min(next, text.length);
    } else if (i === 0 || (offset === 0 && /^[ \t]*(#.*)?$/.test(lines.slice(0, i).join('\n')))) {
      const doc = /^[rRuU]?("""|''')/.exec(line);
      if (doc) {
        if (line.indexOf(doc[1], doc[0].length) === -1) inDocstring = doc[1];
        else if (offset === 0) offset = Math.min(next, text.length);
      } else if (!/^[ \t]*(#.*)?$/.test(line)) break;
    } else if (!/^[ \t]*(#.*)?$/.test(line) && !/^if[ \t]+TYPE_CHECKING/.test(line)) {
      break;
    }
    pos = next;
  }
  return offset;
}

/** Edits adding `from module import name` lines that are missing. */
export function pythonImports(file: string, text: string, wanted: [module: string, name: string][]): Edit[] {
  const missing = wanted.filter(([m, n]) => !hasPythonImport(text, m, n));
  if (missing.length === 0) return [];
  const offset = importInsertionOffset(text);
  const needsNewline = offset > 0 && text[offset - 1] !== '\n';
  // One edit for all lines: two insertions at the same offset would look like a conflict to fix pickers.
  return [insertAt(file, offset, (needsNewline ? '\n' : '') + missing.map(([m, n]) => `from ${m} import ${n}\n`).join(''))];
}

/**
 * Edits that add keyword arguments to a parameter's pydantic `Field(...)`: inside an existing `Field(` (in the
 * annotation or as the default value), or by wrapping the annotation as `Annotated[T, Field(...)]`. The imports
 * those edits need are returned separately so several parameters can share one import edit.
 */
export function fieldKeywordEdits(
  ctx: RuleContext,
  param: ParameterDefinition,
  keywords: string,
): { edits: Edit[]; imports: [string, string][] } | undefined {
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
    imports: [['typing', 'Annotated'], ['pydantic', 'Field']],
  };
}

/** `fieldKeywordEdits` plus the missing import lines. */
export function addFieldKeywords(ctx: RuleContext, param: ParameterDefinition, keywords: string): Edit[] | undefined {
  const text = ctx.textOf(param.nameSpan.file);
  const r = fieldKeywordEdits(ctx, param, keywords);
  if (!r || text === undefined) return undefined;
  return [...r.edits, ...pythonImports(param.nameSpan.file, text, r.imports)];
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

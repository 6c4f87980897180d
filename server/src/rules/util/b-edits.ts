/**
 * Edit placement for rules B quick fixes. The facts (what to insert, where the object or parameter list is)
 * come from the ToolDefinition; these helpers only look at the characters around an insertion point so the
 * result is laid out like the code around it (commas, indentation). They never analyse code.
 */
import type { Span } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';
import { memoByText } from './memo';

export function textOf(ctx: RuleContext, span: Span | undefined): string | undefined {
  if (!span) return undefined;
  const text = ctx.textOf(span.file);
  if (text === undefined || span.start < 0 || span.end > text.length || span.start > span.end) return undefined;
  return text.slice(span.start, span.end);
}

export const at = (file: string, offset: number, newText: string): Edit => ({ span: { file, start: offset, end: offset }, newText });
export const replace = (span: Span, newText: string): Edit => ({ span, newText });

const indentOfLineAt = (text: string, offset: number): string => {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
};

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
  if (next === '}') return at(file, afterBrace, ` ${prop} `);
  if (next === '\n' || next === '\r') {
    const firstLine = rest.slice(ws.length).replace(/^\r?\n/, '');
    const indent = /^[ \t]*/.exec(firstLine)?.[0] ?? `${indentOfLineAt(text, afterBrace)}  `;
    return at(file, afterBrace, `\n${indent}${prop},`);
  }
  return at(file, afterBrace, ` ${prop},`);
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

/**
 * Appends a Python parameter before the `)` at `closeParen` (the front-end's `paramsEndOffset`).
 * `def f()` -> `def f(p)`, `def f(a)` -> `def f(a, p)`, a trailing comma or a one-per-line list is respected.
 */
export function appendPythonParameter(ctx: RuleContext, file: string, closeParen: number, param: string, contentEnd?: number): Edit | undefined {
  const text = ctx.textOf(file);
  if (text === undefined || text[closeParen] !== ')') return undefined;
  // After the last parameter itself when the front-end knows where it ends: a trailing comment may follow it.
  if (contentEnd !== undefined && contentEnd < closeParen) return at(file, contentEnd, `, ${param}`);
  const open = text.lastIndexOf('(', closeParen);
  const inner = text.slice(open + 1, closeParen);
  if (inner.trim() === '') return at(file, closeParen, param);
  const trimmedEnd = inner.replace(/\s+$/, '');
  const endOfLast = open + 1 + trimmedEnd.length;
  if (trimmedEnd.endsWith(',')) {
    if (/\n/.test(inner.slice(trimmedEnd.length))) {
      const indent = indentOfLineAt(text, endOfLast - 1);
      return at(file, endOfLast, `\n${indent}${param},`);
    }
    return at(file, endOfLast, ` ${param}`);
  }
  return at(file, endOfLast, `, ${param}`);
}

/**
 * `from module import name` if the file does not import `name` yet; placed after the last top-level import
 * (so after `from __future__` and the module docstring), or at the top of a file without imports.
 */
export function ensurePythonImport(ctx: RuleContext, file: string, module: string, name: string): Edit | undefined {
  const text = ctx.textOf(file);
  if (text === undefined) return undefined;
  // Whole-file scans, asked by every fix that adds a parameter: once per file text (and module/name).
  const asked = importChecks(text);
  const key = `${module}\0${name}`;
  let present = asked.get(key);
  if (present === undefined) {
    const already = new RegExp(`^\\s*from\\s+${module.replace(/\./g, '\\.')}\\s+import\\s+[^\\n]*\\b${name}\\b`, 'm');
    present = already.test(text) || (name === module && new RegExp(`^import\\s+${module}\\b`, 'm').test(text));
    asked.set(key, present);
  }
  if (present) return undefined;
  const line = name === module ? `import ${module}\n` : `from ${module} import ${name}\n`;
  const insertAt = lastImportEnd(text);
  if (insertAt >= 0) {
    if (insertAt > 0 && text[insertAt - 1] !== '\n') return at(file, insertAt, `\n${line}`);
    return at(file, insertAt, line);
  }
  return at(file, 0, line);
}

const importChecks = memoByText(() => new Map<string, boolean>());

/** End of the last import statement line (its newline included), -1 without imports. */
const lastImportEnd = memoByText((text: string): number => {
  let end = -1;
  const re = /^(?:from\s+\S+\s+import\s+(\([^)]*\)|[^\n]*)|import\s+[^\n]*)\n?/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) end = m.index + m[0].length;
  return end;
});

/** An identifier, `a.b.c` path or literal can be written twice without running anything twice. */
export const isPureExpression = (expr: string): boolean =>
  /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(expr.trim()) || /^(["'`])[^"'`]*\1$/.test(expr.trim());

/** What a rule's check returns (the engine adds ruleId and severity). */
export type Hit = Omit<import('../types').Finding, 'ruleId' | 'severity'>;

/**
 * Offset just after the `{` of a returned object literal: the front-end's `objectStartOffset`, else the `{` that
 * directly follows `return` (or `return (`) at the start of the return's span.
 */
export function returnedObjectStart(ctx: RuleContext, r: { span: Span; objectStartOffset?: number; valueKind: string }): number | undefined {
  if (r.objectStartOffset !== undefined) return r.objectStartOffset;
  if (r.valueKind !== 'object') return undefined;
  const m = /^return\s*\(?\s*\{/.exec(textOf(ctx, r.span) ?? '');
  return m ? r.span.start + m[0].length : undefined;
}

/** The object literal a new input property goes into: `inputShapeSpan`, else an inline `{...}` / `z.object({...})` inputSchema. */
export function inputShapeStart(ctx: RuleContext, tool: { inputShapeSpan?: Span; inputSchemaSpan?: Span; file: string }): { file: string; afterBrace: number } | undefined {
  if (tool.inputShapeSpan) return { file: tool.inputShapeSpan.file, afterBrace: tool.inputShapeSpan.start + 1 };
  const s = tool.inputSchemaSpan;
  const text = textOf(ctx, s);
  if (!s || text === undefined) return undefined;
  const m = /^(z\.object\(\s*)?\{/.exec(text);
  return m ? { file: s.file, afterBrace: s.start + m[0].length } : undefined;
}

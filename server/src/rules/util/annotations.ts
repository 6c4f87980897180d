/** A tool's annotation hints: reading them as written, and edits that set or add them in the tool's own language. */
import type { AnnotationEntry, Span, ToolDefinition } from '../../analysis/model';
import type { Edit, RuleContext } from '../types';
import { insertFirstProperty } from './object-edits';
import { insertAt, replace, spanText } from './source';

/** `read_only_hint` (pydantic field of mcp.types.ToolAnnotations) and `readOnlyHint` are the same hint. */
export function hintKey(key: string): string {
  return key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

export const HINT_KEYS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** The value of a hint as written (undefined when absent). */
export function hint(tool: ToolDefinition, key: string): { present: boolean; value: unknown } {
  const entry = tool.annotations?.entries.find((e) => hintKey(e.key) === key);
  return entry ? { present: true, value: entry.value } : { present: false, value: undefined };
}

/** `true` / `True`: a boolean as the tool's language writes it. */
export const booleanLiteral = (tool: ToolDefinition, v: boolean) => (tool.language === 'python' ? (v ? 'True' : 'False') : String(v));

/** The whole `key: value` / `"key": value` / `key=value` of an entry, whichever of span and keySpan the front-end gave. */
export function entryExtent(e: AnnotationEntry): Span {
  return { file: e.span.file, start: Math.min(e.span.start, e.keySpan.start), end: Math.max(e.span.end, e.keySpan.end) };
}

/** Replaces a boolean entry's value by `value`, in place. */
export function setBooleanEdit(tool: ToolDefinition, ctx: RuleContext, entry: AnnotationEntry, value: boolean): Edit | undefined {
  if (entry.valueSpan) return replace(entry.valueSpan, booleanLiteral(tool, value));
  const ext = entryExtent(entry);
  const text = spanText(ctx, ext);
  if (text === undefined) return undefined;
  const m = /(true|True|false|False)(?![\s\S]*\b(true|True|false|False)\b)/.exec(text);
  if (!m) return undefined;
  return replace({ file: ext.file, start: ext.start + m.index, end: ext.start + m.index + m[0].length }, booleanLiteral(tool, value));
}

/** Inserts `hints` (key -> boolean) as the tool's annotations, wherever the registration takes them. */
export function insertAnnotationsEdit(tool: ToolDefinition, ctx: RuleContext, hints: [string, boolean][]): Edit | undefined {
  const file = tool.file;
  const text = ctx.textOf(file);
  if (text === undefined) return undefined;
  if (tool.language === 'typescript') {
    const body = hints.map(([k, v]) => `${k}: ${v}`).join(', ');
    // An annotations object that only has a title: add the hints inside it.
    if (tool.annotations && text[tool.annotations.span.start] === '{') return insertFirstProperty(ctx, file, tool.annotations.span.start + 1, body);
    if (tool.annotations) return undefined;
    const cfg = tool.registration.configSpan;
    if (tool.registration.kind !== 'registerTool' || !cfg) return undefined;
    return insertFirstProperty(ctx, file, cfg.start + 1, `annotations: { ${body} }`);
  }
  if (tool.annotations) return undefined;
  const arg = `annotations={${hints.map(([k, v]) => `"${k}": ${v ? 'True' : 'False'}`).join(', ')}}`;
  const callee = tool.registration.calleeSpan;
  if (tool.registration.kind !== 'decorator') return undefined;
  if (text[callee.end] === '(') {
    const rest = text.slice(callee.end + 1);
    const empty = /^\s*\)/.test(rest);
    return insertAt(file, callee.end + 1, empty ? arg : `${arg}, `);
  }
  return insertAt(file, callee.end, `(${arg})`);
}

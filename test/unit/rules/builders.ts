/**
 * Hand-built ToolDefinitions for rule unit tests. Spans point into a real source text (`src`), found by searching
 * for substrings, so fixes can be applied and read back.
 */
import type { AnalysisResult, FileFacts, JsonSchema, JsonValue, ParameterDefinition, Span, ToolDefinition } from '../../../server/src/analysis/model';
import { runRules, applyEdits, withEveryRule } from '../../../server/src/rules';
import type { Finding, Rule, RuleContext } from '../../../server/src/rules/types';
import { DEFAULT_SETTINGS, normalizeSettings, type ToolsmithSettings } from '../../../common/settings';

export class Src {
  constructor(
    readonly text: string,
    readonly file = text.includes('def ') || text.includes('@mcp') ? '/ws/server.py' : '/ws/server.ts',
  ) {}
  /** Span of the nth occurrence of `needle` (optionally searching from `after`). */
  span(needle: string, nth = 0, after = 0): Span {
    let i = this.text.indexOf(needle, after);
    for (let k = 0; k < nth && i >= 0; k++) i = this.text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`builder: "${needle}" not found in source`);
    return { file: this.file, start: i, end: i + needle.length };
  }
  /** Span of the region between two needles, inclusive. */
  between(from: string, to: string): Span {
    const s = this.span(from);
    const e = this.span(to, 0, s.start);
    return { file: this.file, start: s.start, end: e.end };
  }
}

export function param(
  src: Src,
  p: Partial<ParameterDefinition> & { name: string; type?: string; schema?: JsonSchema; description?: string; describeLiteral?: string; defaultLiteral?: string; defaultValue?: JsonValue },
): ParameterDefinition {
  const nameSpan = src.span(p.name);
  const typeSpan = p.type !== undefined ? src.span(p.type, 0, nameSpan.start) : undefined;
  const descSpan = p.describeLiteral ? src.span(p.describeLiteral, 0, nameSpan.start) : nameSpan;
  return {
    name: p.name,
    nameSpan,
    span: typeSpan ? { file: src.file, start: nameSpan.start, end: typeSpan.end } : nameSpan,
    typeSpan,
    typeText: p.type,
    schema: p.schema ?? { type: 'string' },
    required: p.required ?? true,
    description: p.description !== undefined ? { value: p.description, span: descSpan, origin: src.file.endsWith('.py') ? 'field' : 'describe' } : undefined,
    constraints: [],
    defaultValue: p.defaultLiteral !== undefined ? { value: p.defaultValue ?? null, span: src.span(p.defaultLiteral, 0, nameSpan.start) } : undefined,
    untyped: p.untyped ?? false,
  };
}

export interface ToolOpts {
  name: string;
  /** The text of the name as written (literal with quotes, or the Python function name); defaults to `"name"`. */
  nameLiteral?: string;
  description?: string;
  /** Where the description is written (literal with quotes / docstring); defaults to JSON.stringify(description). */
  descriptionLiteral?: string;
  params?: ParameterDefinition[];
  framework?: ToolDefinition['framework'];
  server?: string;
  config?: [string, string];
  body?: [string, string];
  docstring?: { literal: string; args?: { name: string; description: string; line: string }[]; section?: [string, string] };
  outputSchema?: boolean;
  returnAnnotation?: string;
  title?: string;
}

export function tool(src: Src, o: ToolOpts): ToolDefinition {
  const py = src.file.endsWith('.py');
  const nameSpan = src.span(o.nameLiteral ?? JSON.stringify(o.name));
  const descriptionLiteral = o.descriptionLiteral ?? (o.description !== undefined ? JSON.stringify(o.description) : undefined);
  return {
    language: py ? 'python' : 'typescript',
    framework: o.framework ?? (py ? 'mcp' : 'ts-sdk'),
    file: src.file,
    server: { id: o.server ?? `${src.file}#server`, variable: 'server', span: nameSpan },
    registration: {
      kind: py ? 'decorator' : 'registerTool',
      span: nameSpan,
      calleeSpan: nameSpan,
      configSpan: o.config ? src.between(...o.config) : undefined,
    },
    name: { value: o.name, span: nameSpan },
    title: o.title !== undefined ? { value: o.title, span: src.span(JSON.stringify(o.title)) } : undefined,
    description:
      o.description !== undefined
        ? { value: o.description, span: src.span(descriptionLiteral!), origin: o.docstring || (py && descriptionLiteral!.startsWith('"""')) ? 'docstring' : 'explicit' }
        : undefined,
    docstring: o.docstring
      ? {
          raw: o.docstring.literal,
          span: src.span(o.docstring.literal),
          args: (o.docstring.args ?? []).map((a) => ({ name: a.name, description: a.description, span: src.span(a.line) })),
          argsSectionSpan: o.docstring.section ? src.between(...o.docstring.section) : undefined,
        }
      : undefined,
    parameters: o.params ?? [],
    outputSchemaSpan: o.outputSchema ? nameSpan : undefined,
    handler:
      o.body || o.returnAnnotation
        ? {
            span: o.body ? src.between(o.body[0], o.body[1]) : nameSpan,
            isAsync: false,
            bodySpan: o.body ? src.span(o.body[1]) : nameSpan,
            calls: [],
            returns: [],
            raises: [],
            returnAnnotation: o.returnAnnotation,
            hasPathContainmentCheck: false,
          }
        : undefined,
    contract: { name: o.name },
    unresolved: [],
    unrepresentable: [],
  };
}

export function result(src: Src, tools: ToolDefinition[]): AnalysisResult {
  const facts: FileFacts = {
    file: src.file,
    language: src.file.endsWith('.py') ? 'python' : 'typescript',
    v1Imports: [],
    servers: [],
    dependencies: [],
    syntaxErrors: [],
  };
  return { tools, files: [facts] };
}

/** The rule tests run every rule (the strict preset and the opt-in rules) unless a test passes its own settings. */
const STRICT: ToolsmithSettings = withEveryRule(DEFAULT_SETTINGS);

export function ctxFor(src: Src, settings: ToolsmithSettings | Record<string, unknown> = STRICT): RuleContext {
  const s = 'thresholds' in settings && 'naming' in settings ? (settings as ToolsmithSettings) : withEveryRule(normalizeSettings({ preset: 'strict', ...settings }));
  return { settings: s, textOf: (f) => (f === src.file ? src.text : undefined) };
}

/** Runs the given rules (default: one rule) over hand-built tools and returns the findings. */
export function check(src: Src, tools: ToolDefinition[], rules: readonly Rule[], settings?: Record<string, unknown>): Finding[] {
  return runRules(result(src, tools), ctxFor(src, settings ? withEveryRule(normalizeSettings({ preset: 'strict', ...settings })) : STRICT), undefined, rules);
}

/** The text a finding's span covers. */
export function covered(src: Src, f: Finding): string {
  return src.text.slice(f.span.start, f.span.end);
}

/** The source after applying a finding's first fix. */
export function fixed(src: Src, f: Finding, which = 0): string {
  const fix = f.fixes[which];
  if (!fix) throw new Error(`finding ${f.ruleId} has no fix #${which}`);
  return applyEdits(src.text, fix.edits, src.file);
}

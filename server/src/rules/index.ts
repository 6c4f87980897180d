import type { AnalysisResult, FileFacts, PromptDefinition, ResourceDefinition, Span, ToolDefinition } from '../analysis/model';
import type { Edit, Finding, Fix, Rule, RuleContext, RuleFinding } from './types';
import { RULES } from './catalog';
import { memoByText, withRuleMemo } from './util/memo';
import type { Preset, ToolsmithSettings } from '../../../common/settings';

export { RULES } from './catalog';

function languageOfFile(file: string, result: AnalysisResult): 'typescript' | 'python' | undefined {
  const facts = result.files.find((f) => f.file === file);
  if (facts) return facts.language;
  if (/\.pyi?$/i.test(file)) return 'python';
  if (/\.[cm]?[jt]sx?$/i.test(file)) return 'typescript';
  return undefined;
}

/**
 * Runs every enabled rule over an analysis result: per tool, per server (tools grouped by server id) and per file.
 * Applies `toolsmith.rules.<id>` (severity or off) and suppression comments. A rule that throws on a file is
 * reported through `onRuleError`, every time (the logs of the language server and the CLI keep each message once),
 * and contributes nothing for that file; the others still run.
 */
export function runRules(result: AnalysisResult, ctx: RuleContext, onRuleError?: (ruleId: string, err: unknown) => void, rules: readonly Rule[] = RULES): Finding[] {
  return withRuleMemo(() => runRulesOnce(result, ctx, onRuleError, rules));
}

/**
 * Whether a rule runs under a preset when the settings do not name it: strict runs every rule but the opt-in ones,
 * which run only when named.
 */
export function inPreset(rule: Pick<Rule, 'preset'>, preset: Preset | undefined): boolean {
  if (rule.preset === 'opt-in') return false;
  return preset === 'strict' || rule.preset !== 'strict';
}

/**
 * `settings` with every rule on: the strict preset, and each opt-in rule the settings do not name at its default
 * severity (the rule fixtures and the fix proofs check every rule).
 */
export function withEveryRule(settings: ToolsmithSettings): ToolsmithSettings {
  const rules = { ...settings.rules };
  for (const r of RULES) if (r.preset === 'opt-in' && !(r.id in rules)) rules[r.id] = r.defaultSeverity;
  return { ...settings, preset: 'strict', rules };
}

interface FileGroup {
  file: string;
  language: 'typescript' | 'python' | undefined;
  tools: ToolDefinition[];
  facts: FileFacts[];
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
  /** Built on first use (by the first server-level rule). */
  servers?: { id: string; tools: ToolDefinition[] }[];
}

function runRulesOnce(result: AnalysisResult, ctx: RuleContext, onRuleError: ((ruleId: string, err: unknown) => void) | undefined, rules: readonly Rule[]): Finding[] {
  const findings: Finding[] = [];
  // Per file, once for every rule: its language, tools, facts and server groups.
  const groups: FileGroup[] = [];
  const byFile = new Map<string, FileGroup>();
  const groupOf = (file: string): FileGroup => {
    let g = byFile.get(file);
    if (!g) {
      g = { file, language: undefined, tools: [], facts: [], prompts: [], resources: [] };
      byFile.set(file, g);
      groups.push(g);
    }
    return g;
  };
  for (const f of result.files) groupOf(f.file).facts.push(f);
  for (const t of result.tools) groupOf(t.file).tools.push(t);
  for (const p of result.prompts ?? []) groupOf(p.file).prompts.push(p);
  for (const r of result.resources ?? []) groupOf(r.file).resources.push(r);
  for (const g of groups) g.language = languageOfFile(g.file, result);
  const whole = { tools: result.tools, files: result.files, prompts: result.prompts ?? [], resources: result.resources ?? [] };
  for (const rule of rules) {
    const setting = ctx.settings.rules[rule.id];
    if (setting === 'off') continue;
    if (setting === undefined && !inPreset(rule, ctx.settings.preset)) continue;
    const severity = setting ?? rule.defaultSeverity;
    for (const group of groups) {
      const { language, tools, facts, prompts, resources } = group;
      if (!language || !rule.languages.includes(language)) continue;
      const out: RuleFinding[] = [];
      try {
        if (rule.checkTool) for (const tool of tools) pushAll(out, rule.checkTool(tool, ctx));
        if (rule.checkPrompt) for (const prompt of prompts) pushAll(out, rule.checkPrompt(prompt, ctx));
        if (rule.checkResource) for (const resource of resources) pushAll(out, rule.checkResource(resource, ctx));
        if (rule.checkServer) {
          group.servers ??= groupByServer(tools, facts);
          for (const server of group.servers) pushAll(out, rule.checkServer(server.tools, facts, ctx));
        }
        if (rule.checkFile) for (const fact of facts) pushAll(out, rule.checkFile(fact, tools, ctx, whole));
      } catch (err) {
        onRuleError?.(rule.id, err);
        continue;
      }
      // Every rule builds its findings with util/finding.ts: the same keys, copied by name (faster than a spread).
      for (const f of out) findings.push({ span: f.span, message: f.message, tool: f.tool, fixes: f.fixes, ruleId: rule.id, severity });
    }
  }
  return sortFindings(findings.filter((f) => !isSuppressed(f, ctx)));
}

/**
 * `for (const f of found) out.push(f)`. Rules return arrays: indexed, one loop site here instead of a for-of over
 * fifty rules' results (a call site that sees them all allocates an iterator and a result object per finding).
 */
function pushAll(out: RuleFinding[], found: Iterable<RuleFinding>): void {
  if (Array.isArray(found)) {
    for (let i = 0; i < found.length; i++) out.push(found[i] as RuleFinding);
  } else for (const f of found) out.push(f);
}

/** Tools grouped by the server instance they are registered on; servers declared with no tool get an empty group. */
function groupByServer(tools: ToolDefinition[], files: FileFacts[] = []): { id: string; tools: ToolDefinition[] }[] {
  const groups = new Map<string, ToolDefinition[]>();
  for (const f of files) for (const s of f.servers) if (!groups.has(s.id)) groups.set(s.id, []);
  for (const t of tools) {
    const list = groups.get(t.server.id);
    if (list) list.push(t);
    else groups.set(t.server.id, [t]);
  }
  return [...groups].map(([id, list]) => ({ id, tools: list }));
}

function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      (a.span.file < b.span.file ? -1 : a.span.file > b.span.file ? 1 : 0) || a.span.start - b.span.start || a.span.end - b.span.end || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
  );
}

/** Rule ids listed after a suppression directive; empty list = every rule. */
function directiveIds(list: string): string[] {
  return list
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => /^[a-z0-9-]+$/.test(s));
}

function suppresses(ids: string[] | undefined, ruleId: string): boolean {
  return ids !== undefined && (ids.length === 0 || ids.includes(ruleId) || ids.includes('all'));
}

/**
 * TypeScript: `// toolsmith-disable-next-line id[, id]` on the line above (or `// toolsmith-disable-line id` on the
 * same line). Python: `# toolsmith: disable=id[,id]` at the end of the line, or alone on the line above.
 * Without ids every rule is suppressed on that line.
 */
export function isSuppressed(f: Pick<Finding, 'ruleId' | 'span'>, ctx: RuleContext): boolean {
  const text = ctx.textOf(f.span.file);
  if (text === undefined) return false;
  // Every directive spells "toolsmith": a file (or a pair of lines) without it suppresses nothing.
  if (!mentionsToolsmith(text)) return false;
  const lines = linesAround(text, f.span);
  if (!lines) return false;
  const { line, previous } = lines;
  if (!line.includes('toolsmith') && !previous?.includes('toolsmith')) return false;
  const ts = (l: string | undefined, directive: keyof typeof TS_DIRECTIVES) => {
    if (l === undefined) return undefined;
    const [lineComment, blockComment] = TS_DIRECTIVES[directive];
    const m = lineComment.exec(l) ?? blockComment.exec(l);
    return m ? directiveIds(m[1].replace(/--.*$/, '')) : undefined;
  };
  const py = (l: string | undefined) => {
    if (l === undefined) return undefined;
    const m = /#\s*toolsmith:\s*disable(?:=([^#\n]*))?/.exec(l);
    return m ? directiveIds(m[1] ?? '') : undefined;
  };
  if (suppresses(ts(previous, 'toolsmith-disable-next-line'), f.ruleId)) return true;
  if (suppresses(ts(line, 'toolsmith-disable-line'), f.ruleId)) return true;
  if (suppresses(py(line), f.ruleId)) return true;
  if (previous !== undefined && /^\s*#/.test(previous) && suppresses(py(previous), f.ruleId)) return true;
  return false;
}

const mentionsToolsmith = memoByText((text: string) => text.includes('toolsmith'));

const directiveRegExps = (directive: string): [RegExp, RegExp] => [new RegExp(`//\\s*${directive}\\b([^\\n]*)`), new RegExp(`/\\*\\s*${directive}\\b(.*?)\\*/`)];
const TS_DIRECTIVES = {
  'toolsmith-disable-next-line': directiveRegExps('toolsmith-disable-next-line'),
  'toolsmith-disable-line': directiveRegExps('toolsmith-disable-line'),
};

function linesAround(text: string, span: Span): { line: string; previous: string | undefined } | undefined {
  if (span.start > text.length) return undefined;
  const start = text.lastIndexOf('\n', span.start - 1) + 1;
  const endIdx = text.indexOf('\n', span.start);
  const line = text.slice(start, endIdx === -1 ? text.length : endIdx);
  if (start === 0) return { line, previous: undefined };
  const prevStart = text.lastIndexOf('\n', start - 2) + 1;
  return { line, previous: text.slice(prevStart, start - 1) };
}

function overlaps(a: Edit, b: Edit): boolean {
  if (a.span.file !== b.span.file) return false;
  if (a.span.start === b.span.start && a.span.end === b.span.end && a.newText === b.newText) return false; // same edit
  const aInsert = a.span.start === a.span.end;
  const bInsert = b.span.start === b.span.end;
  if (aInsert && bInsert) return a.span.start === b.span.start;
  return a.span.start < b.span.end && b.span.start < a.span.end;
}

/**
 * The safe fixes `source.fixAll.toolsmith` and `toolsmith check --fix` apply in one pass: for each finding (in
 * source order) its first safe fix, skipped when an edit overlaps an edit already chosen. Identical edits (the same
 * import line added by two fixes) are kept once. Returns the fixes chosen and their merged, de-duplicated edits.
 * What is skipped is picked up by a following pass after re-analysis.
 */
export function fixAll(findings: Finding[]): { fixes: Fix[]; edits: Edit[] } {
  const chosen: Fix[] = [];
  const edits: Edit[] = [];
  for (const f of sortFindings([...findings])) {
    const fix = f.fixes.find((x) => x.safe && x.edits.length > 0);
    if (!fix || chosen.includes(fix)) continue;
    const own = dedupeEdits(fix.edits);
    if (own.some((e, i) => own.some((o, j) => i < j && overlaps(e, o)))) continue;
    if (own.some((e) => edits.some((t) => overlaps(e, t)))) continue;
    chosen.push(fix);
    edits.push(...own.filter((e) => !edits.some((t) => sameEdit(t, e))));
  }
  return { fixes: chosen, edits: edits.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end) };
}

function sameEdit(a: Edit, b: Edit): boolean {
  return a.span.file === b.span.file && a.span.start === b.span.start && a.span.end === b.span.end && a.newText === b.newText;
}

function dedupeEdits(edits: Edit[]): Edit[] {
  return edits.filter((e, i) => edits.findIndex((o) => sameEdit(o, e)) === i);
}

/** Applies non-overlapping edits of one file to its text (edits of other files are ignored). */
export function applyEdits(text: string, edits: Edit[], file?: string): string {
  const mine = dedupeEdits(edits.filter((e) => file === undefined || e.span.file === file));
  // Back to front; insertions at the same offset keep their given order.
  const ordered = mine.map((e, i) => ({ e, i })).sort((a, b) => b.e.span.start - a.e.span.start || b.e.span.end - a.e.span.end || b.i - a.i);
  let out = text;
  for (const { e } of ordered) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

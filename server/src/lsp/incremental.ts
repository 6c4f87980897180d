/**
 * Incremental analysis of an open document while the author types.
 *
 * The pipeline is the same as service.ts (front-end -> ToolDefinition[] -> rules), decomposed so that a keystroke
 * inside one tool's registration re-analyses that tool only:
 *  - the other registrations are blanked out (replaced by spaces, newlines kept, so every offset is unchanged) and
 *    the front-end runs on that text: it sees the imports, consts and the one edited tool;
 *  - the other tools and their findings are taken from the previous version, their offsets shifted by the edit;
 *  - per-tool rules run on the edited tool only; server- and file-level rules run on the merged set.
 * Anything unusual (an edit outside a tool, a syntax error, a different tool count or server set, a Python tool
 * function that other code calls) takes the full path.
 * test/protocol/incremental.test.ts checks the result equals a full analysis.
 */
import { analyzeSource } from '../analysis/analyze';
import type { AnalysisResult, FileHost, ToolDefinition } from '../analysis/model';
import { RULES, runRules } from '../rules';
import type { Finding, Rule } from '../rules/types';
import type { FileAnalysis } from '../service';
import { shiftBounded } from './offsets';
import type { ToolsmithSettings } from '../../../common/settings';

export interface IncrementalState {
  file: string;
  text: string;
  settings: ToolsmithSettings;
  result: AnalysisResult;
  /** Findings of the per-tool rules, one list per tool (same order as result.tools). */
  perTool: Finding[][];
  /**
   * The text the front-end saw at the last incremental step: `text` with every tool but `index` blanked out. The
   * next keystroke in the same tool only changes that tool, so this text is patched instead of blanked again.
   */
  blanked?: { index: number; text: string };
  /** Python: who calls which function, outside the tool `index` (unchanged while typing stays in that tool). */
  pythonCalls?: PythonCalls;
}

interface PythonCalls {
  index: number;
  /** Function names called anywhere outside the tool's registration (other tools' bodies included). */
  outside: Set<string>;
  /** Function names called by code that is in no tool (what the front-end still sees around the tool). */
  outsideTools: Set<string>;
  /** The def names of the other tools. */
  others: Set<string>;
}

/** Rules that only look at one tool at a time can be re-run for the edited tool alone. */
const PER_TOOL_RULES: Rule[] = RULES.filter((r) => r.checkTool && !r.checkServer && !r.checkFile);
const WHOLE_FILE_RULES: Rule[] = RULES.filter((r) => !PER_TOOL_RULES.includes(r));

/** Below this many tools a full analysis is cheap enough. */
const MIN_TOOLS = 4;

type Log = (message: string) => void;

function ruleErrorLogger(file: string, log: Log) {
  return (ruleId: string, err: unknown) => log(`rule ${ruleId} failed on ${file}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}

function finish(state: IncrementalState, fileFindings: Finding[]): FileAnalysis {
  return { file: state.file, result: state.result, findings: [...state.perTool.flat(), ...fileFindings] };
}

/** The full path, decomposed per tool so the next keystroke can be incremental. */
export function analyzeFull(file: string, text: string, host: FileHost, settings: ToolsmithSettings, log: Log): { analysis: FileAnalysis; state: IncrementalState } {
  const result = analyzeSource(file, text, host);
  const ctx = { settings, textOf: (f: string) => (f === file ? text : host.readFile(f)) };
  const onError = ruleErrorLogger(file, log);
  const perTool = result.tools.map((t) => runRules({ tools: [t], files: result.files }, ctx, onError, PER_TOOL_RULES));
  const state: IncrementalState = { file, text, settings, result, perTool };
  return { analysis: finish(state, runRules(result, ctx, onError, WHOLE_FILE_RULES)), state };
}

/** The text of [start, end) with every character but line breaks replaced by a space (offsets and lines kept). */
function blank(text: string, start: number, end: number): string {
  const lines = text.slice(start, end).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // A lone or trailing \r is a line break too: keep it where it is (rare, so the slower path is fine).
    lines[i] = line.includes('\r') ? line.replace(/[^\r]/g, ' ') : ' '.repeat(line.length);
  }
  return lines.join('\n');
}

// Whole files are compared at each keystroke: chunks first (a native string comparison), characters in the last one.
const CHUNK = 1024;

/** Length of the common prefix of `a` and `b`, at most `max`. */
function commonPrefix(a: string, b: string, max: number): number {
  let p = 0;
  while (p + CHUNK <= max && a.slice(p, p + CHUNK) === b.slice(p, p + CHUNK)) p += CHUNK;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}

/** Length of the common suffix of `a` and `b`, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let s = 0;
  while (s + CHUNK <= max && a.slice(a.length - s - CHUNK, a.length - s) === b.slice(b.length - s - CHUNK, b.length - s)) s += CHUNK;
  while (s < max && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return s;
}

/**
 * Python: [start, end) as one comment (`#` and spaces) up to its last line break, spaces after it; offsets kept.
 * @lezer/python reads a run of blank lines character by character in its indentation tokenizer (~17 ms for the 78
 * other tools of a 2,000-line file, at every keystroke: blank text has no subtree an incremental parse could
 * reuse), a comment in one token (~1.5 ms for the whole file). A comment and blank lines are the same to Python, and
 * the front-end skips Comment nodes wherever they sit. A region with no line break stays spaces: a comment would
 * swallow what follows it on its line.
 */
function blankAsComment(text: string, start: number, end: number): string {
  const region = text.slice(start, end);
  const lastBreak = Math.max(region.lastIndexOf('\n'), region.lastIndexOf('\r'));
  if (lastBreak < 0) return ' '.repeat(region.length);
  // The line break itself is kept as written (`\r\n` is two characters, both kept).
  const breakStart = region[lastBreak] === '\n' && region[lastBreak - 1] === '\r' ? lastBreak - 1 : lastBreak;
  if (breakStart === 0) return region.slice(0, lastBreak + 1) + ' '.repeat(region.length - lastBreak - 1);
  return '#' + ' '.repeat(breakStart - 1) + region.slice(breakStart, lastBreak + 1) + ' '.repeat(region.length - lastBreak - 1);
}

function blankOut(text: string, spans: { start: number; end: number }[], language: ToolDefinition['language']): string {
  const parts: string[] = [];
  let last = 0;
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    parts.push(text.slice(last, s.start), language === 'python' ? blankAsComment(text, s.start, s.end) : blank(text, s.start, s.end));
    last = s.end;
  }
  parts.push(text.slice(last));
  return parts.join('');
}

/**
 * Re-analyses only the tool whose registration contains the edit between `prev.text` and `text`; undefined when the
 * edit does not allow it (the caller then takes the full path).
 */
/**
 * What an incremental step changed from the previous result: tool `index` re-analysed (-1: none), every other tool's
 * and per-tool finding list's offsets at or after `from` moved by `delta`; the file facts and file-level findings new.
 */
export interface IncrementalChange {
  index: number;
  from: number;
  delta: number;
}

export function analyzeIncremental(
  prev: IncrementalState,
  text: string,
  host: FileHost,
  settings: ToolsmithSettings,
  log: Log,
): { analysis: FileAnalysis; state: IncrementalState; change: IncrementalChange } | undefined {
  const { file, result } = prev;
  if (settings !== prev.settings || result.tools.length < MIN_TOOLS) return undefined;
  // Prompts and resources are not re-analysed per tool: a file that registers them takes the full path (else they would drop out).
  if (result.prompts?.length || result.resources?.length) return undefined;
  const language = result.tools[0]?.language;
  if (result.tools.some((t) => t.language !== language)) return undefined;
  if (result.files.some((f) => f.syntaxErrors.length > 0)) return undefined;
  const old = prev.text;
  // The edited region: [p, oldEnd) in the old text became [p, newEnd) in the new one.
  const max = Math.min(old.length, text.length);
  const p = commonPrefix(old, text, max);
  const s = commonSuffix(old, text, max - p);
  const oldEnd = old.length - s;
  const delta = text.length - old.length;
  if (p === old.length && delta === 0) return { analysis: finish(prev, runWholeFile(prev, text, host, settings, log)), state: prev, change: { index: -1, from: text.length + 1, delta: 0 } };
  const k = result.tools.findIndex((t) => t.registration.span.file === file && t.registration.span.start < p && oldEnd < t.registration.span.end);
  if (k < 0) return undefined;
  const edited = result.tools[k];
  // A registration inside another (a tool defined in a tool) cannot be blanked out on its own.
  if (result.tools.some((t, i) => i !== k && overlaps(t.registration.span, edited.registration.span))) return undefined;
  // Other tools, moved to the new text's offsets (the ones before the edit are untouched).
  const seen = new WeakSet<object>();
  const others = result.tools.map((t, i) => (i === k ? t : shiftBounded(t, file, oldEnd, delta, seen)));
  const newEnd = oldEnd + delta;
  const blanked =
    prev.blanked && prev.blanked.index === k && prev.blanked.text.length === old.length
      ? prev.blanked.text.slice(0, p) + text.slice(p, newEnd) + prev.blanked.text.slice(oldEnd)
      : blankOut(
          text,
          others.filter((_, i) => i !== k).map((t) => t.registration.span),
          language,
        );
  let pythonCalls: PythonCalls | undefined;
  if (language === 'python') {
    pythonCalls =
      prev.pythonCalls?.index === k && prev.blanked?.index === k ? prev.pythonCalls : pythonCallsAround(others, k, text, blanked, edited.registration.span.start, edited.registration.span.end + delta);
    // Other code calling this tool's function (or this tool calling another's) may read what it does (a path check
    // in a helper): that tool's facts would depend on text the partial analysis does not see.
    const oldName = defName(edited, old);
    if (oldName === undefined || pythonCalls.outside.has(oldName)) return undefined;
    if ([...pythonCalls.others].some((n) => pythonCalls!.outsideTools.has(n))) return undefined;
  }
  const partial = analyzeSource(file, blanked, host);
  if (partial.tools.length !== 1 || partial.files.some((f) => f.syntaxErrors.length > 0)) return undefined;
  const fresh = partial.tools[0];
  if (fresh.registration.span.start !== edited.registration.span.start) return undefined;
  // The file-level facts come from the partial analysis: only when they cannot depend on the other tools.
  if (fresh.framework !== edited.framework || others.some((t, i) => i !== k && t.framework !== fresh.framework)) return undefined;
  if (!sameServers(partial, result)) return undefined;
  if (pythonCalls) {
    const newName = defName(fresh, text);
    if (newName === undefined || pythonCalls.outside.has(newName)) return undefined;
    const own = callNames(text, fresh.registration.span.start, fresh.registration.span.end);
    if ([...pythonCalls.others].some((n) => own.has(n))) return undefined;
  }
  const tools: ToolDefinition[] = others.map((t, i) => (i === k ? fresh : t));
  const files = partial.files.map((f) => {
    const before = result.files.find((x) => x.file === f.file);
    return before ? { ...f, dependencies: [...new Set([...f.dependencies, ...before.dependencies])] } : f;
  });
  const merged: AnalysisResult = { tools, files };
  const ctx = { settings, textOf: (f: string) => (f === file ? text : host.readFile(f)) };
  const onError = ruleErrorLogger(file, log);
  const perTool = prev.perTool.map((list, i) => (i === k ? runRules({ tools: [fresh], files }, ctx, onError, PER_TOOL_RULES) : shiftBounded(list, file, oldEnd, delta, seen)));
  const state: IncrementalState = { file, text, settings, result: merged, perTool, blanked: { index: k, text: blanked }, pythonCalls };
  return { analysis: finish(state, runRules(merged, ctx, onError, WHOLE_FILE_RULES)), state, change: { index: k, from: oldEnd, delta } };
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The servers the partial analysis found are those of the full one (a server is never declared inside a tool). */
function sameServers(partial: AnalysisResult, before: AnalysisResult): boolean {
  const ids = (r: AnalysisResult) =>
    r.files
      .flatMap((f) => f.servers.map((x) => `${f.file}\0${x.id}`))
      .sort()
      .join('\n');
  return ids(partial) === ids(before);
}

/** The name of a Python tool's function, read at its handler (`def name(`), in `text`. */
function defName(tool: ToolDefinition, text: string): string | undefined {
  const h = tool.handler;
  if (!h || h.span.file !== tool.file) return undefined;
  return /\bdef\s+([\p{L}_][\p{L}\p{N}_]*)\s*\(/u.exec(text.slice(h.span.start, h.span.end))?.[1];
}

// A plain function call `name(` (not `obj.name(`). Only one-character look-behinds: blanked text has long runs of
// spaces, and a `\s+` look-behind would rescan each run from every position in it.
const CALL = /(?<![\p{L}\p{N}_.])([\p{L}_][\p{L}\p{N}_]*)\s*\(/gu;

function callNames(text: string, start: number, end: number): Set<string> {
  const out = new Set<string>();
  const src = text.slice(start, end);
  for (const m of src.matchAll(CALL)) {
    // Not the `def name(` of a definition.
    if (!/\bdef\s+$/.test(src.slice(Math.max(0, m.index - 16), m.index))) out.add(m[1]);
  }
  return out;
}

function pythonCallsAround(others: ToolDefinition[], k: number, text: string, blanked: string, kStart: number, kEnd: number): PythonCalls {
  const names = new Set<string>();
  for (let i = 0; i < others.length; i++) {
    if (i === k) continue;
    const n = defName(others[i], text);
    if (n !== undefined) names.add(n);
  }
  const outside = callNames(text, 0, kStart);
  for (const n of callNames(text, kEnd, text.length)) outside.add(n);
  const outsideTools = callNames(blanked, 0, kStart);
  for (const n of callNames(blanked, kEnd, blanked.length)) outsideTools.add(n);
  return { index: k, outside, outsideTools, others: names };
}

function runWholeFile(prev: IncrementalState, text: string, host: FileHost, settings: ToolsmithSettings, log: Log): Finding[] {
  const ctx = { settings, textOf: (f: string) => (f === prev.file ? text : host.readFile(f)) };
  return runRules(prev.result, ctx, ruleErrorLogger(prev.file, log), WHOLE_FILE_RULES);
}

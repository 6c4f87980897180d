/**
 * Every quick fix `toolsmith check` offers on the real-world corpus (issue 14: "every offered fix re-analysed,
 * compiled/imported at the pinned version, and its behaviour checked on at least one server run live"), and what
 * applying one does to the analysis. The corpus is shared and read-only: a fix is applied to the texts in memory
 * (re-analysis through an overlay host) and written to a scratch copy of the package for compiling, importing and
 * starting (see test/fidelity/fix-proof.test.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFileHost } from '../../server/src/host';
import { analyzeFile } from '../../server/src/service';
import type { Finding, Fix } from '../../server/src/rules/types';
import { withEveryRule } from '../../server/src/rules';
import type { FileHost } from '../../server/src/analysis/model';
import { MAX_SOURCE_BYTES, readSourceFileSync } from '../../server/src/sourceFile';
import { DEFAULT_SETTINGS, type ToolsmithSettings } from '../../common/settings';
import type { CorpusPackage } from './labelled-set';

/** Every rule on, the opt-in ones too: every fix toolsmith can offer is proven. */
export const STRICT: ToolsmithSettings = withEveryRule(DEFAULT_SETTINGS);

export interface OfferedFix {
  package: CorpusPackage;
  /** The analysed entry (absolute). */
  entry: string;
  finding: Finding;
  fix: Fix;
  /** `<rule>: <title with its literals and numbers blanked>`: one kind per way of fixing. */
  kind: string;
}

/** The kind of a fix: its rule and its title with what varies per instance (quoted text, numbers, names) blanked. */
export function fixKind(ruleId: string, title: string): string {
  const shape = title
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+(\.\d+)?/g, 'N')
    .replace(/\((?:[a-zA-Z]+Hint: (?:true|false)(?:, )?)+\)/g, '(hints)')
    .replace(/\b(Set|Write|Remove) [a-zA-Z]+Hint\b/g, '$1 <hint>')
    .replace(/\bUse (?:z\.|Literal\[|Annotated|HttpUrl|AnyUrl|UUID|EmailStr|datetime|date)\S*.*$/, 'Use <type>')
    .replace(/\bAnnotate \S+ as \S+ \(.*\)$/, 'Annotate <ctx> as Context');
  return `${ruleId}: ${shape}`;
}

/** Every fix offered on the entries of `pkg` under the strict preset (each rule on), one row per (finding, fix). */
export function offeredFixes(pkg: CorpusPackage, root: string, settings: ToolsmithSettings = STRICT): OfferedFix[] {
  const out: OfferedFix[] = [];
  const host = createFileHost();
  const seen = new Set<string>();
  for (const e of pkg.entries) {
    const entry = path.join(root, e);
    const read = readSourceFileSync(entry, MAX_SOURCE_BYTES);
    if (!read.ok) continue;
    const analysis = analyzeFile(entry, read.text, host, settings);
    if (analysis.internalError) throw new Error(`${pkg.name}: ${analysis.internalError}`);
    for (const finding of analysis.findings) {
      const id = `${finding.span.file}:${finding.span.start}:${finding.ruleId}:${finding.message}`;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const fix of finding.fixes) {
        // A fix writing outside the package (a workspace package.json above it) is not the package's code.
        if (fix.edits.some((x) => path.relative(root, x.span.file).startsWith('..'))) continue;
        out.push({ package: pkg, entry, finding, fix, kind: fixKind(finding.ruleId, fix.title) });
      }
    }
  }
  return out;
}

/** The texts of the files a fix edits, edited (edits applied from the end so earlier offsets stay right). */
export function applyFix(fix: Fix, readFile: (file: string) => string | undefined): Map<string, string> {
  const byFile = new Map<string, Fix['edits']>();
  for (const e of fix.edits) byFile.set(e.span.file, [...(byFile.get(e.span.file) ?? []), e]);
  const out = new Map<string, string>();
  for (const [file, edits] of byFile) {
    let text = readFile(file);
    if (text === undefined) throw new Error(`the fix edits ${file}, which cannot be read`);
    const sorted = [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end);
    for (let i = 1; i < sorted.length; i++) if (sorted[i].span.end > sorted[i - 1].span.start) throw new Error(`the fix "${fix.title}" has overlapping edits in ${file}`);
    for (const e of sorted) text = text.slice(0, e.span.start) + e.newText + text.slice(e.span.end);
    out.set(file, text);
  }
  return out;
}

/** A host that reads the edited texts instead of the disk's. */
export function overlayHost(edited: Map<string, string>): FileHost {
  return createFileHost((f) => edited.get(f));
}

export interface Reanalysis {
  /** The findings the fixes were offered on that are still reported (same rule, tool and message). */
  stillReported: Finding[];
  /** Error or warning findings about something the original's findings were not about (by rule, tool, first clause). */
  newFindings: Finding[];
  internalError?: string;
  /** Tools the analysis sees before and after. */
  toolsBefore: number;
  toolsAfter: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What a finding is about: its rule, tool and the first clause of its message (`Parameter "x" of "t" has no ...`),
 * not the advice after it, which quotes code the fix may have changed (a type written `Annotated[str | None, ...]`).
 */
function findingKey(f: Finding, renamed?: [string, string]): string {
  const what = f.message.split(/: |\. /)[0];
  if (renamed && f.tool === renamed[0]) return JSON.stringify([f.ruleId, renamed[1], what.replace(new RegExp(`(?<![\\w-])${escape(renamed[0])}(?![\\w-])`, 'g'), renamed[1])]);
  return JSON.stringify([f.ruleId, f.tool, what]);
}

function counts(list: Finding[], renamed?: [string, string]): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of list) m.set(findingKey(f, renamed), (m.get(findingKey(f, renamed)) ?? 0) + 1);
  return m;
}

const beforeCache = new Map<string, ReturnType<typeof analyzeFile>>();

/**
 * Analyses the entry again with the fixes applied (every edited file read from the overlay) and compares with the
 * original analysis. A rename compares the renamed tool's findings under its new name.
 */
export function reanalyse(fixes: OfferedFix[], edited: Map<string, string>, settings: ToolsmithSettings = STRICT): Reanalysis {
  const entry = fixes[0].entry;
  const disk = createFileHost();
  const cacheKey = `${entry}\0${JSON.stringify(settings)}`;
  let before = beforeCache.get(cacheKey);
  if (!before) beforeCache.set(cacheKey, (before = analyzeFile(entry, disk.readFile(entry) ?? '', disk, settings)));
  const host = overlayHost(edited);
  const after = analyzeFile(entry, host.readFile(entry) ?? '', host, settings);
  const rename = fixes.length === 1 ? /^Rename to "([^"]+)"$/.exec(fixes[0].fix.title) : null;
  const renamed: [string, string] | undefined = rename && fixes[0].finding.tool ? [fixes[0].finding.tool, rename[1]] : undefined;
  const had = counts(before.findings, renamed);
  const has = counts(after.findings);
  // New: about something no finding of the original was about (a second line of an import the file already has
  // reported is the same problem).
  const newFindings = after.findings.filter((f) => (f.severity === 'error' || f.severity === 'warning') && !had.has(findingKey(f)));
  const stillReported = fixes
    .map((o) => o.finding)
    .filter((f, i, all) => all.indexOf(f) === i)
    .filter((f) => {
      const k = findingKey(f, renamed);
      return (has.get(k) ?? 0) >= (had.get(k) ?? 0);
    });
  return { stillReported, newFindings, internalError: after.internalError, toolsBefore: before.result.tools.length, toolsAfter: after.result.tools.length };
}

/** Copies a directory tree (files only; symlinks kept as links). */
export function copyTree(from: string, to: string, skip: (name: string) => boolean = () => false): void {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    if (skip(e.name)) continue;
    const a = path.join(from, e.name);
    const b = path.join(to, e.name);
    if (e.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(a), b);
    else if (e.isDirectory()) copyTree(a, b);
    else fs.copyFileSync(a, b);
  }
}

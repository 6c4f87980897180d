/**
 * The labelled real-world set (issue 14): every finding `toolsmith check` reports on the entry files of the
 * real-world corpus (test/corpus/packages.json, installed by scripts/ensure-corpus.mjs), each judged keep or kill in
 * test/corpus/labels.json. A finding is named by what survives a rule or front-end change: package, file (relative to
 * the installed package), rule, tool and the trimmed text of the line it points at. Several findings can share that
 * anchor (one per parameter on one line): the label's `count` says how many.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createFileHost } from '../../server/src/host';
import { analyzeFile } from '../../server/src/service';
import { setWorkspaceTrust } from '../../server/src/contract/typescript/trust';
import { MAX_SOURCE_BYTES, readSourceFileSync } from '../../server/src/sourceFile';
import { DEFAULT_SETTINGS, type Severity, type ToolsmithSettings } from '../../common/settings';
import { RULES } from '../../server/src/rules';

/** The rules of prompts and resources: the only ones whose findings count on a `surfaces` file (its tools are the entries'). */
const SURFACE_RULES = new Set(RULES.filter((r) => r.checkPrompt !== undefined || r.checkResource !== undefined).map((r) => r.id));

export const repoRoot = path.resolve(__dirname, '../..');
export const labelsPath = path.join(repoRoot, 'test/corpus/labels.json');

export interface CorpusPackage {
  name: string;
  registry: 'npm' | 'pypi';
  version: string;
  entries: string[];
  /** Files whose prompts and resources are predicted (real-world.test.ts): their prompt and resource findings are labelled too. */
  surfaces?: string[];
}

export interface Anchor {
  package: string;
  file: string;
  rule: string;
  tool: string | null;
  line: string;
}

export interface CorpusFinding extends Anchor {
  severity: Severity;
  message: string;
  /** 1-based, for a reader; not part of the anchor. */
  lineNumber: number;
  safeFix: boolean;
}

export interface Label extends Anchor {
  verdict: 'keep' | 'kill';
  /** How many findings share this anchor with this verdict. */
  count: number;
  /** The message when it was judged, for the reader. */
  message: string;
  reason: string;
  /**
   * A "keep" judged unreachable (no rule can see it without losing precision, or the analysis cannot see it): why,
   * starting with "unreachable". Counted as a known miss, printed with the figures, not a failure, as long as
   * docs/real-world-corpus.md lists it ("Keeps judged unreachable"); the verdict stays what the reviewer said.
   */
  missed?: string;
}

export function anchorKey(a: Anchor): string {
  return JSON.stringify([a.package, a.file, a.rule, a.tool, a.line]);
}

export function readLabels(): Label[] {
  return JSON.parse(fs.readFileSync(labelsPath, 'utf8')) as Label[];
}

interface Location {
  root: string;
}
interface CorpusModule {
  readManifest(): (CorpusPackage & Record<string, unknown>)[];
  locate(pkg: CorpusPackage): Location;
}

/** Loads the corpus script (ESM) and checks every package is installed: a missing cache fails loudly. */
export async function loadCorpus(): Promise<{ packages: CorpusPackage[]; rootOf: (pkg: CorpusPackage) => string }> {
  const corpus = (await import(path.join(repoRoot, 'scripts/ensure-corpus.mjs'))) as CorpusModule;
  const packages = corpus.readManifest();
  const missing = packages.filter((p) => p.entries.some((e) => !fs.existsSync(path.join(corpus.locate(p).root, e))));
  if (missing.length)
    throw new Error(`the real-world corpus is not installed for ${missing.map((p) => `${p.name}@${p.version}`).join(', ')}: run node scripts/ensure-corpus.mjs (cache: ~/.cache/toolsmith/corpus)`);
  return { packages, rootOf: (p) => corpus.locate(p).root };
}

/** What `toolsmith check <entry>` reports on every entry of every package, findings inside the package only. */
export function corpusFindings(
  packages: CorpusPackage[],
  rootOf: (p: CorpusPackage) => string,
  settings: ToolsmithSettings = DEFAULT_SETTINGS,
  stats: { tools: number } = { tools: 0 },
): CorpusFinding[] {
  const out: CorpusFinding[] = [];
  // As `toolsmith check` runs by default: the workspace trusted (its installed SDK and zod, a bundle's inlined zod).
  setWorkspaceTrust(true);
  for (const pkg of packages) {
    const root = rootOf(pkg);
    const host = createFileHost();
    const seen = new Set<string>();
    const surfaces = (pkg.surfaces ?? []).filter((s) => !pkg.entries.includes(s));
    for (const entry of [...pkg.entries, ...surfaces]) {
      const file = path.join(root, entry);
      const read = readSourceFileSync(file, MAX_SOURCE_BYTES);
      if (!read.ok) continue;
      const analysis = analyzeFile(file, read.text, host, settings);
      if (analysis.internalError) throw new Error(`${pkg.name}: ${analysis.internalError}`);
      const surfaceOnly = !pkg.entries.includes(entry);
      if (!surfaceOnly) stats.tools += analysis.result.tools.length;
      for (const f of analysis.findings) {
        if (surfaceOnly && !SURFACE_RULES.has(f.ruleId)) continue;
        const rel = path.relative(root, f.span.file);
        if (rel.startsWith('..')) continue;
        const text = f.span.file === file ? read.text : (host.readFile(f.span.file) ?? '');
        const lineStart = text.lastIndexOf('\n', f.span.start - 1) + 1;
        const lineEnd = text.indexOf('\n', f.span.start);
        const line = text
          .slice(lineStart, lineEnd < 0 ? undefined : lineEnd)
          .trim()
          .slice(0, 160);
        // Entries importing each other report a cross-file finding once.
        const id = `${f.span.file}:${f.span.start}:${f.span.end}:${f.ruleId}:${f.message}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({
          package: pkg.name,
          file: rel.split(path.sep).join('/'),
          rule: f.ruleId,
          tool: f.tool,
          line,
          severity: f.severity,
          message: f.message,
          lineNumber: text.slice(0, f.span.start).split('\n').length,
          safeFix: f.fixes.some((x) => x.safe),
        });
      }
    }
  }
  return out;
}

export interface Comparison {
  /** Findings with a "kill" label that are still reported. */
  killsBack: string[];
  /** "keep" findings no longer reported. */
  keepsLost: string[];
  /** "keep" findings no longer reported whose label says why (`missed`): the rule's known misses. */
  knownMisses: string[];
  /** Labels with a `missed` field whose findings are all reported again: the escape is stale, drop it. */
  staleMisses: string[];
  /** Findings that have no label at all. */
  unlabelled: CorpusFinding[];
  keep: CorpusFinding[];
  kill: CorpusFinding[];
}

function describe(a: Anchor, message: string): string {
  return `${a.package} ${a.file} [${a.rule}] tool ${a.tool ?? '(none)'}: "${a.line}" — ${message}`;
}

/** Matches findings to labels by anchor; the counts per anchor and verdict decide. */
export function compare(findings: CorpusFinding[], labels: Label[]): Comparison {
  const byKey = new Map<string, CorpusFinding[]>();
  for (const f of findings) {
    const k = anchorKey(f);
    const list = byKey.get(k);
    if (list) list.push(f);
    else byKey.set(k, [f]);
  }
  const labelsByKey = new Map<string, { keep: number; kill: number; labels: Label[] }>();
  for (const l of labels) {
    const k = anchorKey(l);
    const e = labelsByKey.get(k) ?? { keep: 0, kill: 0, labels: [] };
    e[l.verdict] += l.count;
    e.labels.push(l);
    labelsByKey.set(k, e);
  }
  const out: Comparison = { killsBack: [], keepsLost: [], knownMisses: [], staleMisses: [], unlabelled: [], keep: [], kill: [] };
  for (const [k, e] of labelsByKey) {
    const found = byKey.get(k) ?? [];
    const keepLabel = e.labels.find((l) => l.verdict === 'keep');
    const killLabel = e.labels.find((l) => l.verdict === 'kill');
    if (found.length < e.keep && keepLabel)
      (keepLabel.missed ? out.knownMisses : out.keepsLost).push(
        `${describe(keepLabel, keepLabel.message)} (keep: ${keepLabel.reason}; ${e.keep} expected, ${found.length} reported${keepLabel.missed ? `; known miss: ${keepLabel.missed}` : ''})`,
      );
    if (found.length >= e.keep && keepLabel?.missed) out.staleMisses.push(describe(keepLabel, keepLabel.message));
    if (found.length > e.keep && killLabel) out.killsBack.push(`${describe(killLabel, found[e.keep]?.message ?? killLabel.message)} (kill: ${killLabel.reason}; ${found.length - e.keep} reported)`);
    out.keep.push(...found.slice(0, e.keep));
    if (killLabel) out.kill.push(...found.slice(e.keep));
    else out.unlabelled.push(...found.slice(e.keep));
  }
  for (const [k, found] of byKey) if (!labelsByKey.has(k)) out.unlabelled.push(...found);
  return out;
}

export { describe as describeFinding };

/** Share of "keep" among the matched findings of these severities (null when there is none). */
export function keepShare(c: Comparison, severities: Severity[]): number | null {
  const keep = c.keep.filter((f) => severities.includes(f.severity)).length;
  const all = keep + c.kill.filter((f) => severities.includes(f.severity)).length;
  return all ? keep / all : null;
}

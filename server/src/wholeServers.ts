/**
 * The whole servers the server rules see (rules/util/server-groups.ts): each entry that may start a server (a
 * file the manifests declare, a file that constructs one) is predicted once (analysis/entry.ts, what `toolsmith contract` prints), and every file whose tools one of those
 * servers publishes is checked against that server's whole tools/list instead of its own tools only. Shared by
 * `toolsmith check` and the labelled real-world set; the language server keeps its own cache (lsp/wholeServerCache.ts).
 */
import * as path from 'node:path';
import { analyzeEntry, type AnalysedModules } from './analysis/entry';
import { declaredEntries } from './analysis/entries';
import { analyzeSource, sourceKindOf } from './analysis/analyze';
import type { AnalysisResult, FileHost } from './analysis/model';
import type { WholeServer } from './rules/types';
import { checkAnalysis, frontEnd, type FileAnalysis } from './service';
import type { ToolsmithSettings } from '../../common/settings';

/** The folder of `file`'s project: the nearest one above it with a package.json or a pyproject.toml. */
function projectRoot(file: string, host: FileHost, memo: Map<string, string | undefined>): string | undefined {
  const seen: string[] = [];
  let dir = path.dirname(file);
  let found: string | undefined;
  for (;;) {
    if (memo.has(dir)) {
      found = memo.get(dir);
      break;
    }
    seen.push(dir);
    if (host.fileExists(path.join(dir, 'package.json')) || host.fileExists(path.join(dir, 'pyproject.toml'))) {
      found = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of seen) memo.set(d, found);
  return found;
}

/** The entries the manifests of `files`' projects declare (package.json `bin`/`main`, pyproject.toml scripts). */
export function declaredEntryFiles(files: readonly string[], host: FileHost): string[] {
  const out = new Set<string>();
  const roots = new Map<string, string | undefined>();
  const declared = new Set<string>();
  for (const file of files) {
    const root = projectRoot(file, host, roots);
    if (root === undefined || declared.has(root)) continue;
    declared.add(root);
    for (const e of declaredEntries(host, root).entries) if (sourceKindOf(e.file)) out.add(e.file);
  }
  return [...out];
}

/** Whether an analysis of `file` saw it construct a server (then it is an entry: it may start one). */
export function constructsServer(result: AnalysisResult, file: string): boolean {
  return result.files.some((f) => f.file === file && f.servers.length > 0);
}

/**
 * `toolsmith check` on `files`, without the CLI's result cache (the labelled real-world set reads it this way): each
 * file through the front-end, the entries (declared, and the files constructing a server) predicted once, then the
 * rules, the server rules seeing the whole servers.
 */
export function checkWithWholeServers(
  files: readonly { file: string; text: string }[],
  host: FileHost,
  settings: ToolsmithSettings,
  log: (message: string) => void = () => {},
): { analyses: FileAnalysis[]; failed: PredictedServers['failed'] } {
  const fronts = files.map(({ file, text }) => frontEnd(file, text, host, log));
  const entries = [...new Set([...declaredEntryFiles(files.map((f) => f.file), host), ...fronts.filter((a) => constructsServer(a.result, a.file)).map((a) => a.file)])];
  const texts = new Map(files.map((f) => [f.file, f.text]));
  const reuse: AnalysedModules = (module, text) => {
    const i = files.findIndex((f) => f.file === module && f.text === text);
    return i >= 0 && fronts[i].internalError === undefined ? fronts[i].result : undefined;
  };
  let predicted: PredictedServers | undefined;
  const analyses = fronts.map((front, i) => {
    if (front.internalError !== undefined) return front;
    const servers = front.result.tools.length && entries.length ? (predicted ??= predictServers(entries, (f) => texts.get(f), host, reuse)).servers : undefined;
    return checkAnalysis(front, files[i].text, host, settings, log, servers);
  });
  return { analyses, failed: predicted?.failed ?? [] };
}

export interface PredictedServers {
  /** Every server an entry constructs (a server two entries reach counted once), with its whole tools/list. */
  servers: WholeServer[];
  /** Entries whose prediction failed (an internal error, the message): their servers are not in `servers`. */
  failed: { entry: string; message: string }[];
}

/**
 * Predicts each entry once. Only servers an entry's modules construct count (tools on an unbound parameter are not a
 * server), and not one another entry's server composes (mounted, imported: it publishes nothing on its own, its
 * tools are listed, renamed, by the server composing it).
 */
export function predictServers(entries: readonly string[], textOf: (file: string) => string | undefined, host: FileHost, reuse?: AnalysedModules): PredictedServers {
  const servers: WholeServer[] = [];
  const failed: PredictedServers['failed'] = [];
  const ids = new Set<string>();
  const composed = new Set<string>();
  // Entries share modules (a sub-server's module is an entry of its own too): each is analysed once.
  const modules = new Map<string, { text: string; result: AnalysisResult }>();
  const shared: AnalysedModules = (module, text) => {
    const known = modules.get(module);
    if (known?.text === text) return known.result;
    const result = reuse?.(module, text) ?? analyzeSource(module, text, host);
    modules.set(module, { text, result });
    return result;
  };
  for (const entry of entries) {
    const text = textOf(entry) ?? host.readFile(entry);
    if (text === undefined) continue;
    try {
      const { result, servers: predicted } = analyzeEntry(entry, text, host, shared);
      for (const f of result.files) for (const id of f.composedServers ?? []) composed.add(id);
      for (const s of predicted) {
        if (!s.constructed || ids.has(s.id)) continue;
        ids.add(s.id);
        servers.push({ id: s.id, tools: s.tools.map((i) => result.tools[i]) });
      }
    } catch (err) {
      failed.push({ entry, message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  }
  return { servers: servers.filter((s) => !composed.has(s.id)), failed };
}

/** The servers among `servers` that publish a tool registered in one of `files`. */
export function serversTouching(servers: readonly WholeServer[], files: ReadonlySet<string>): WholeServer[] {
  return servers.filter((s) => s.tools.some((t) => files.has(t.registration.span.file)));
}

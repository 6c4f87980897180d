/**
 * A whole server from its entry: the file a server's start command runs (`bin/cli.js`, `dist/index.js`,
 * `pkg/__main__.py`, a console script's module), its module graph followed the way the runtime runs it, and every
 * registration on the server(s) those modules construct, in the order they happen — the server's whole tools/list.
 *
 * TypeScript/JavaScript: the front-end itself runs the graph (`analyzeTypeScript(..., { wholeServer: true })`): static,
 * side-effect and dynamic imports, `require()`, callbacks handed on. Python: `python/graph.ts` finds the modules the
 * interpreter runs; each one that may register tools is analysed, and the tools are merged (a registration seen from
 * two modules counts once) and ordered by when its module runs. What cannot be followed is `graph.unfollowed`.
 */
import type { AnalysisResult, FileFacts, FileHost, Framework, PromptDefinition, Span, ToolDefinition } from './model';
import { analyzeSource, analyzeTypeScriptEntry, sourceKindOf } from './analyze';
import { pythonModuleGraph, type PyModuleGraph } from './python/graph';
import { constructsServer, mayDefineTools } from '../../../common/frameworks';

/** A low-level server's tools handler (`@server.list_tools()`, `on_list_tools=`). */
const LIST_TOOLS = /\blist_tools\b/;

/** One server of a whole-server prediction. */
export interface ServerPrediction {
  /** The server's identity (ToolDefinition.server.id of its tools). */
  id: string;
  variable: string;
  /** The name it gives itself (`new McpServer({ name })`, `FastMCP("name")`), when written literally. */
  name?: string;
  framework?: Framework;
  /** Where it is constructed — or, when `constructed` is false, where the variable its tools are registered on is declared. */
  span: Span;
  /**
   * False when no module of the graph constructs it: its tools are registered on a function parameter (or an
   * imported name) that no call followed from the entry binds to a server — the group is honest, not a server
   * the analysis saw built.
   */
  constructed: boolean;
  /** Indices into the analysis' `tools`, in registration order. */
  tools: number[];
}

export interface EntryAnalysis {
  entry: string;
  /** Every tool of every server (and the prompts), the entry's file facts first, `graph` filled. */
  result: AnalysisResult & { graph: NonNullable<AnalysisResult['graph']> };
  servers: ServerPrediction[];
}

/** Analyses `file` as a server's entry. Throws only on an internal error (the CLI reports it and exits 2). */
export function analyzeEntry(file: string, text: string, host: FileHost): EntryAnalysis {
  const kind = sourceKindOf(file);
  let result: EntryAnalysis['result'];
  if (kind === 'typescript') {
    const r = analyzeTypeScriptEntry(file, text, host);
    result = { ...r, graph: r.graph ?? { modules: [file], unfollowed: [], servers: r.files.flatMap((f) => f.servers) } };
  } else if (kind === 'python') {
    result = analyzePythonEntry(file, text, host);
  } else {
    result = { tools: [], files: [], graph: { modules: [], unfollowed: [], servers: [] } };
  }
  return { entry: file, result, servers: serversOf(result.tools, result.graph.servers) };
}

function analyzePythonEntry(file: string, text: string, host: FileHost): EntryAnalysis['result'] {
  const graph = pythonModuleGraph(file, text, host);
  const texts = new Map<string, string>();
  for (const module of graph.modules) {
    const src = module === file ? text : host.readFile(module);
    if (src !== undefined) texts.set(module, src);
  }
  // Analysed: the entry, the modules the frameworks' hints say may register tools, and the modules that decorate
  // functions with something imported from one of those (a registry's `@tools.reader(...)`). The others only run.
  // (Low-level servers list their tools in a `list_tools` handler, which the hints of the tool forms do not match.)
  const hinted = new Set([...texts].filter(([, src]) => mayDefineTools(src) || constructsServer('python', src) || LIST_TOOLS.test(src)).map(([m]) => m));
  const decoratesWithHinted = (m: string) => /^[ \t]*@/m.test(texts.get(m)!) && (graph.imports.get(m) ?? []).some((e) => e.files.some((f) => hinted.has(f)));
  const analysed = new Map<string, AnalysisResult>();
  for (const module of texts.keys()) {
    if (module === file || hinted.has(module) || decoratesWithHinted(module)) analysed.set(module, analyzeSource(module, texts.get(module)!, host));
  }
  const files: FileFacts[] = [];
  const prompts: PromptDefinition[] = [];
  const candidates: ToolDefinition[] = [];
  for (const r of analysed.values()) {
    files.push(...r.files);
    prompts.push(...(r.prompts ?? []));
    candidates.push(...r.tools);
  }
  // The entry's facts first (its converters, syntax errors and framework are what a single-file run showed).
  files.sort((a, b) => (a.file === file ? -1 : b.file === file ? 1 : 0));
  // A server composed into another (mounted, imported) is not started on its own: its tools are listed by the
  // server composing it, renamed; the module defining it, analysed alone, lists them as a server of their own.
  const composed = new Set(files.flatMap((f) => f.composedServers ?? []));
  const servers = dedupeBy(
    files.flatMap((f) => f.servers),
    (s) => s.id,
  ).filter((s) => !composed.has(s.id));
  const constructed = new Set(servers.map((s) => s.id));
  const tools = mergeTools(
    candidates.filter((t) => !composed.has(t.server.id)),
    constructed,
  );
  // A server composing others lists them at list time (mounted ones after its own tools): its order is the one the
  // analysis of the module composing it computed, not the modules' run order.
  const listings = new Map<string, string[]>();
  for (const r of analysed.values()) for (const id of r.files.flatMap((f) => f.composingServers ?? [])) listings.set(id, r.tools.filter((t) => t.server.id === id).map(registrationKey));
  const ordered = inRunOrder(tools, file, graph);
  for (const [id, keys] of listings) {
    const slots = ordered.flatMap((t, i) => (t.server.id === id ? [i] : []));
    const own = slots.map((i) => ordered[i]).sort((a, b) => keys.indexOf(registrationKey(a)) - keys.indexOf(registrationKey(b)));
    slots.forEach((slot, k) => (ordered[slot] = own[k]));
  }
  return { tools: ordered, files, ...(prompts.length ? { prompts } : {}), graph: { modules: runOrder(file, graph), unfollowed: graph.unfollowed, servers } };
}

/** One registration of one tool (a loop registers several at one call; a composed copy keeps its registration). */
function registrationKey(t: ToolDefinition): string {
  const s = t.registration.span;
  return `${s.file}\u0000${s.start}\u0000${s.end}\u0000${t.name.value ?? `@${t.name.span.start}`}`;
}

function dedupeBy<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * One tool per registration (and name: a loop registers several at one call): a registration read from two modules
 * (the server's module pulls the tools registered on it, a helper's module reads them on a parameter) keeps the
 * reading that knows its server (constructed in the graph), then the one with fewer unresolved parts.
 */
function mergeTools(tools: ToolDefinition[], constructed: Set<string>): ToolDefinition[] {
  const byKey = new Map<string, ToolDefinition>();
  const better = (a: ToolDefinition, b: ToolDefinition) => {
    const ka = constructed.has(a.server.id) ? 1 : 0;
    const kb = constructed.has(b.server.id) ? 1 : 0;
    return ka !== kb ? ka > kb : a.unresolved.length < b.unresolved.length;
  };
  for (const t of tools) {
    const key = registrationKey(t);
    const old = byKey.get(key);
    if (!old || better(t, old)) byKey.set(key, t);
  }
  return [...byKey.values()];
}

/** The modules in the order the interpreter first runs them: each import statement runs its modules where it stands. */
function runOrder(entry: string, graph: PyModuleGraph): string[] {
  const order: string[] = [];
  const visited = new Set<string>();
  const visit = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    order.push(file);
    for (const e of graph.imports.get(file) ?? []) for (const f of e.files) visit(f);
  };
  // The packages above the entry run first (they were queued before it).
  for (const m of graph.modules) {
    if (m === entry) break;
    visit(m);
  }
  visit(entry);
  for (const m of graph.modules) visit(m);
  return order;
}

/**
 * Tools in the order they are registered: a module's own registrations by position, an import statement running its
 * modules (and their registrations) where it stands. A registration made by a helper of another module is placed
 * with that module's own (where it is first imported).
 */
function inRunOrder(tools: ToolDefinition[], entry: string, graph: PyModuleGraph): ToolDefinition[] {
  const byFile = new Map<string, ToolDefinition[]>();
  for (const t of tools) {
    const f = (t.listedAt ?? t.registration.span).file;
    byFile.set(f, [...(byFile.get(f) ?? []), t]);
  }
  const out: ToolDefinition[] = [];
  const visited = new Set<string>();
  const visit = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    const events: ({ pos: number; tool: ToolDefinition } | { pos: number; files: string[] })[] = [
      ...(byFile.get(file) ?? []).map((tool) => ({ pos: (tool.listedAt ?? tool.registration.span).start, tool })),
      ...(graph.imports.get(file) ?? []),
    ];
    events.sort((a, b) => a.pos - b.pos);
    for (const e of events) {
      if ('tool' in e) out.push(e.tool);
      else for (const f of e.files) visit(f);
    }
  };
  for (const m of runOrder(entry, graph)) visit(m);
  // Registrations in files outside the graph (read by the analysis through a name it resolved): last, as found.
  for (const t of tools) if (!out.includes(t)) out.push(t);
  return out;
}

/** Tools grouped by server, servers in the order of their first tool, then the constructed ones with no tool. */
function serversOf(tools: ToolDefinition[], constructed: FileFacts['servers']): ServerPrediction[] {
  const byId = new Map<string, ServerPrediction>();
  const built = new Map(constructed.map((s) => [s.id, s]));
  tools.forEach((t, i) => {
    let s = byId.get(t.server.id);
    if (!s) {
      const c = built.get(t.server.id);
      s = {
        id: t.server.id,
        variable: c?.variable ?? t.server.variable,
        ...((c?.name ?? t.server.name) !== undefined ? { name: c?.name ?? t.server.name } : {}),
        framework: t.framework,
        span: c?.constructorSpan ?? c?.span ?? t.server.span,
        constructed: !!c,
        tools: [],
      };
      byId.set(t.server.id, s);
    }
    s.tools.push(i);
  });
  for (const c of constructed) {
    if (!byId.has(c.id)) byId.set(c.id, { id: c.id, variable: c.variable, ...(c.name !== undefined ? { name: c.name } : {}), span: c.constructorSpan ?? c.span, constructed: true, tools: [] });
  }
  return [...byId.values()];
}

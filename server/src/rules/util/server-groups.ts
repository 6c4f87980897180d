/**
 * What the server rules (`checkServer`) see: the tools of one server. Without a whole-server prediction, the tools
 * an analysis found on each server instance (one file's, plus what it imports or composes). With one (WholeServer,
 * from the entries that reach the file), the server's whole tools/list, in which the analysed file's tools stand
 * where the prediction has them; the other files' tools are there to compare with, and findings about them are left
 * to those files' own analyses (each finding reported in one file, once).
 *
 * A tool of the analysis is matched to the prediction's registration at the same place (same span, same name, or
 * the same loop's next name). A file edited since the prediction was made (an open document while the author types:
 * the prediction is refreshed after, never on a keystroke) no longer matches by offset: its registrations are paired
 * in order when there are as many as the prediction had, else by name; its tools the prediction does not know join
 * the server their siblings joined, and its registrations the prediction had but the analysis no longer has are left
 * out.
 */
import type { FileFacts, Span, ToolDefinition } from '../../analysis/model';
import type { RuleFinding, WholeServer } from '../types';

export interface ServerGroup {
  tools: ToolDefinition[];
  /** The analysed file's tools among `tools` (findings about the others are dropped); undefined: all of them. */
  own?: Set<ToolDefinition>;
  /** The language of its tools (or of the file declaring it, for a server with none). */
  language: 'typescript' | 'python' | undefined;
}

/** The server groups of an analysis: one per whole server its tools belong to, one per other server instance. */
export function serverGroups(tools: readonly ToolDefinition[], files: readonly FileFacts[], whole: readonly WholeServer[] = []): ServerGroup[] {
  const groups: ServerGroup[] = [];
  const covered = new Set<ToolDefinition>();
  /** Local server ids (the analysis') whose tools matched a whole server, and those servers' groups. */
  const joined = new Map<string, ServerGroup[]>();
  const byFile = new Map<string, ToolDefinition[]>();
  for (const t of tools) {
    const f = t.registration.span.file;
    const list = byFile.get(f);
    if (list) list.push(t);
    else byFile.set(f, [t]);
  }
  for (const server of whole) {
    const matches = matchServer(server, byFile);
    if (!matches) continue;
    const own = new Set<ToolDefinition>();
    const view: ToolDefinition[] = [];
    for (const p of server.tools) {
      const m = matches.byPrediction.get(p);
      if (m) {
        const t = m.exact ? p : m.tool;
        own.add(t);
        view.push(t);
        covered.add(m.tool);
      } else if (!matches.staleFiles.has(p.registration.span.file)) view.push(p);
    }
    const group: ServerGroup = { tools: view, own, language: view[0]?.language };
    groups.push(group);
    for (const id of matches.localIds) joined.set(id, [...(joined.get(id) ?? []), group]);
  }
  // Tools no prediction has: with their siblings' whole server(s) when their server instance joined one, else on their own.
  const local = new Map<string, ToolDefinition[]>();
  for (const f of files) for (const s of f.servers) if (!joined.has(s.id) && !local.has(s.id)) local.set(s.id, []);
  for (const t of tools) {
    if (covered.has(t)) continue;
    const into = joined.get(t.server.id);
    if (into) {
      for (const g of into) {
        g.tools.push(t);
        g.own!.add(t);
      }
      continue;
    }
    const list = local.get(t.server.id);
    if (list) list.push(t);
    else local.set(t.server.id, [t]);
  }
  for (const [id, list] of local) groups.push({ tools: list, language: list[0]?.language ?? files.find((f) => f.servers.some((s) => s.id === id))?.language });
  return groups;
}

interface ServerMatches {
  /** Prediction tool -> the analysis' tool at its place; `exact` when at the same offsets (the file unchanged since). */
  byPrediction: Map<ToolDefinition, { tool: ToolDefinition; exact: boolean }>;
  /** Files whose registrations moved since the prediction: its registrations there that matched nothing are gone. */
  staleFiles: Set<string>;
  /** The analysis' server ids of the matched tools. */
  localIds: Set<string>;
}

function matchServer(server: WholeServer, byFile: Map<string, ToolDefinition[]>): ServerMatches | undefined {
  const predicted = new Map<string, ToolDefinition[]>();
  for (const p of server.tools) {
    const f = p.registration.span.file;
    if (!byFile.has(f)) continue;
    const list = predicted.get(f);
    if (list) list.push(p);
    else predicted.set(f, [p]);
  }
  if (predicted.size === 0) return undefined;
  const out: ServerMatches = { byPrediction: new Map(), staleFiles: new Set(), localIds: new Set() };
  for (const [file, ps] of predicted) {
    const ours = byFile.get(file)!;
    const used = new Set<ToolDefinition>();
    const pair = (p: ToolDefinition, t: ToolDefinition, exact: boolean) => {
      out.byPrediction.set(p, { tool: t, exact });
      used.add(t);
      out.localIds.add(t.server.id);
    };
    // At the same offsets: the same name (a composed server's is prefixed: then the same loop order).
    for (const p of ps) {
      const here = ours.filter((t) => !used.has(t) && sameSpan(t.registration.span, p.registration.span));
      const t = here.find((x) => x.name.value === p.name.value) ?? here[0];
      if (t) pair(p, t, true);
    }
    const restP = ps.filter((p) => !out.byPrediction.has(p));
    const restT = ours.filter((t) => !used.has(t));
    if (restT.length === 0) continue;
    out.staleFiles.add(file);
    if (restP.length === restT.length) restP.forEach((p, i) => pair(p, restT[i], false));
    else for (const p of restP) {
      const t = restT.find((x) => !used.has(x) && x.name.value !== undefined && x.name.value === p.name.value);
      if (t) pair(p, t, false);
    }
  }
  return out.byPrediction.size ? out : undefined;
}

function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end && a.file === b.file;
}

function contains(outer: Span | undefined, inner: Span): boolean {
  return outer !== undefined && outer.file === inner.file && outer.start <= inner.start && inner.end <= outer.end;
}

/**
 * Whether a finding of a server rule on `group` is the analysed file's to report: about the server (no tool), or
 * about one of its own tools (by name; a name two tools share, by where the finding points).
 */
export function reportsHere(f: RuleFinding, group: ServerGroup): boolean {
  const own = group.own;
  if (!own || f.tool === null) return true;
  const named = group.tools.filter((t) => t.name.value === f.tool);
  if (named.length === 0) return true;
  const mine = named.filter((t) => own.has(t));
  if (mine.length === named.length) return true;
  if (mine.length === 0) return false;
  const at = named.find((t) => contains(t.name.span, f.span) || contains(t.description?.span, f.span) || contains(t.registration.span, f.span));
  return at ? own.has(at) : mine.some((t) => t.file === f.span.file);
}

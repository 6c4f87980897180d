/**
 * FastMCP server composition, applied to the tools the walk found: a server mounted on another (`mount`,
 * `add_provider`, `providers=[...]`), imported into it (`import_server`) or renamed by a `Namespace` transform is
 * listed by its parent under `<prefix>_<name>`, after the parent's own tools, in mount order; an imported server's
 * tools are copied where the import runs. A composed server is a building block: its tools appear only through the
 * servers that compose it. What each release accepts is `CompositionTraits` (common/frameworks.ts); the calls are read
 * in index.ts (`compositionCall`).
 */
import type { ToolDefinition, Unresolved } from '../model';
import { renamedFastmcpContract } from '../../contract/python';
import type { PythonContractTraits } from '../../../../common/frameworks';

export interface Composition {
  kind: 'mount' | 'import' | 'namespace';
  /** Where the composing call is written (one record per call, however often the walk meets it). */
  span: { file: string; start: number; end: number };
  parent: ToolDefinition['server'];
  /** The composed server (mount, import); absent for a Namespace transform, which renames the parent's whole list. */
  childId?: string;
  /** The prefix: '' for none; undefined when computed at run time (`prefixUnresolved` says why). */
  prefix: string | undefined;
  prefixUnresolved?: Unresolved;
  /** `tool_names={"old": "new"}` of mount(), and how this release applies it. */
  toolNames?: { map: Map<string, string> | undefined; mode: 'replaces' | 'before-namespace'; unresolved?: Unresolved };
  /** The parent's traits: the title a release derives from the published name. */
  traits: PythonContractTraits;
  /** Transforms and providers of the parent that are not modelled: an unresolved part of each tool it lists. */
  opaque?: Unresolved;
}

/** The tools in listing order, composed servers' tools renamed under the servers that compose them. */
export function composeServers(tools: ToolDefinition[], compositions: Composition[]): ToolDefinition[] {
  if (!compositions.length) return tools;
  const byServer = new Map<string, ToolDefinition[]>();
  for (const t of tools) byServer.set(t.server.id, [...(byServer.get(t.server.id) ?? []), t]);
  const ofParent = new Map<string, Composition[]>();
  for (const c of compositions) ofParent.set(c.parent.id, [...(ofParent.get(c.parent.id) ?? []), c]);
  const children = new Set(compositions.flatMap((c) => (c.childId ? [c.childId] : [])));

  const listing = (id: string, seen: Set<string>): ToolDefinition[] => {
    if (seen.has(id)) return [];
    const inner = new Set(seen).add(id);
    const out = [...(byServer.get(id) ?? [])];
    const comps = ofParent.get(id) ?? [];
    // import_server copies what the server lists when the call runs: its tools registered before it, in place.
    for (const c of comps.filter((x) => x.kind === 'import' && x.childId)) {
      const copied = listing(c.childId!, inner)
        .filter((t) => t.registration.span.file !== c.span.file || t.registration.span.start < c.span.start)
        .map((t) => renamed(t, c));
      let at = out.length;
      for (let i = out.length - 1; i >= 0; i--) {
        const r = out[i].registration.span;
        if (r.file === c.span.file && r.start > c.span.start) at = i;
      }
      out.splice(at, 0, ...copied);
    }
    // Mounted servers (and providers) are listed after the server's own tools, in mount order (before them until fastmcp 2.9).
    const mounted = comps.flatMap((c) => (c.kind === 'mount' && c.childId ? listing(c.childId, inner).map((t) => renamed(t, c)) : []));
    if (comps.some((c) => c.kind === 'mount' && c.traits.composition?.mountedFirst)) out.unshift(...mounted);
    else out.push(...mounted);
    let listed = out;
    for (const c of comps) if (c.kind === 'namespace') listed = listed.map((t) => renamed(t, c));
    const opaque = comps.flatMap((c) => (c.opaque ? [c.opaque] : []));
    return opaque.length ? listed.map((t) => ({ ...t, unresolved: [...t.unresolved, ...opaque] })) : listed;
  };

  const out: ToolDefinition[] = [];
  const emitted = new Set<string>();
  const emit = (id: string) => {
    if (emitted.has(id)) return;
    emitted.add(id);
    out.push(...listing(id, new Set()));
  };
  for (const t of tools) {
    if (children.has(t.server.id)) continue;
    if (ofParent.has(t.server.id)) emit(t.server.id);
    else out.push(t);
  }
  for (const id of ofParent.keys()) if (!children.has(id)) emit(id);
  return out;
}

/** A tool as composition `c` lists it on its parent: renamed, the parent's server, what could not be read named. */
function renamed(t: ToolDefinition, c: Composition): ToolDefinition {
  const original = t.name.value;
  let name: string | undefined = original;
  const unresolved: Unresolved[] = [];
  const tn = c.toolNames;
  const override = original !== undefined ? tn?.map?.get(original) : undefined;
  if (tn?.unresolved) {
    name = undefined;
    unresolved.push(tn.unresolved);
  } else if (override !== undefined && tn?.mode === 'replaces') name = override;
  else if (c.prefix === undefined) {
    name = undefined;
    if (c.prefixUnresolved) unresolved.push(c.prefixUnresolved);
  } else if (name !== undefined) name = c.prefix ? `${c.prefix}_${override ?? name}` : (override ?? name);
  const contract = renamedFastmcpContract(t.contract, name, t.title !== undefined, c.traits);
  return {
    ...t,
    server: c.parent,
    name: { value: name, span: t.name.span, ...(name === undefined && unresolved[0] ? { unresolved: unresolved[0] } : t.name.unresolved ? { unresolved: t.name.unresolved } : {}) },
    contract,
    unresolved: [...t.unresolved, ...unresolved],
  };
}

/** The servers whose tools `id` lists through compositions (itself included). */
export function composedInto(id: string, compositions: Composition[]): Set<string> {
  const ids = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of compositions)
      if (c.childId && ids.has(c.parent.id) && !ids.has(c.childId)) {
        ids.add(c.childId);
        grew = true;
      }
  }
  return ids;
}

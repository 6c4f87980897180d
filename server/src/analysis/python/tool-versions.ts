/**
 * FastMCP tool versions (3.x+, PythonContractTraits.toolVersions): `@mcp.tool(name="greet", version="2.0")` and
 * `version="1.0"` are two versions of one tool, not two tools. tools/list lists only the highest version (fastmcp's
 * `version_sort_key`: PEP 440 order), at the place of the name's first registration, with
 * `_meta.fastmcp.version` and `_meta.fastmcp.versions` (every version, highest first). Measured live on 3.4.11 and
 * 4.2.3 (test/fixtures/py/fidelity/fast_tool_versions.py). What fastmcp refuses stays as registered, for the rules:
 * the same version twice (the later replaces the earlier, with a warning) and a versioned next to an unversioned
 * registration of one name (ValueError at import: the server fails).
 */
import type { Span, ToolDefinition } from '../model';

/** A server failure the caller records (the failing registration and why). */
export type VersionFailure = (tool: ToolDefinition, reason: string, span: Span) => void;

/**
 * The tools as the server lists them: of each name's versions on one server, only the highest, at its first
 * registration's place. `versioned(t)`: the release `t` runs on has tool versions.
 */
export function listedVersions(tools: ToolDefinition[], versioned: (t: ToolDefinition) => boolean, fail: VersionFailure): ToolDefinition[] {
  const groups = new Map<string, ToolDefinition[]>();
  for (const t of tools) {
    if (t.name.value === undefined || !versioned(t)) continue;
    const key = `${t.server.id}\u0000${t.name.value}`;
    const list = groups.get(key);
    if (list) list.push(t);
    else groups.set(key, [t]);
  }
  /** The first registration of a merged name -> the tool listed in its place; the other registrations are dropped. */
  const listedAt = new Map<ToolDefinition, ToolDefinition>();
  const dropped = new Set<ToolDefinition>();
  for (const group of groups.values()) {
    const withVersion = group.filter((t) => t.version);
    if (withVersion.length === 0) continue;
    const name = group[0].name.value!;
    if (withVersion.length < group.length) {
      // fastmcp's _check_version_mixing: the later kind of registration raises ValueError.
      const first = group[0];
      const culprit = group.find((t) => !!t.version !== !!first.version)!;
      const reason = `FastMCP refuses a versioned and an unversioned tool both named "${name}" on one server (ValueError: "Either version all components or none"): the server fails at import`;
      fail(culprit, reason, culprit.version?.span ?? culprit.registration.span);
      continue;
    }
    const raw = group.map((t) => t.version!.value);
    // The same version twice: the later replaces the earlier (a duplicate, left to tool-name-duplicate).
    if (raw.some((v, i) => v !== undefined && raw.indexOf(v) !== i)) continue;
    const first = group[0];
    for (const t of group.slice(1)) dropped.add(t);
    if (group.length === 1) continue;
    const unknown = group.find((t) => t.version!.value === undefined);
    if (unknown) {
      listedAt.set(first, withUnresolved(first, `only the highest version of "${name}" is listed: ${unknown.version!.unresolved?.reason ?? 'a version= is not resolved'}`, unknown.version!.span));
      continue;
    }
    const keys = raw.map((v) => releaseKey(v!));
    const ambiguous = keys.some((k, i) => k === undefined || keys.some((o, j) => j !== i && o !== undefined && compareKeys(k, o) === 0));
    if (ambiguous) {
      listedAt.set(
        first,
        withUnresolved(
          first,
          `only the highest version of "${name}" is listed, in PEP 440 order: the order of ${raw.map((v) => JSON.stringify(v)).join(', ')} is not modelled (only distinct dotted release numbers are)`,
          first.version!.span,
        ),
      );
      continue;
    }
    const order = group.map((t, i) => ({ t, key: keys[i]!, raw: raw[i]! })).sort((a, b) => compareKeys(b.key, a.key));
    const highest = withVersions(
      order[0].t,
      order.map((o) => o.raw),
    );
    listedAt.set(first, highest === first ? highest : { ...highest, listedAt: first.registration.span });
  }
  if (listedAt.size === 0 && dropped.size === 0) return tools;
  const out: ToolDefinition[] = [];
  for (const t of tools) {
    const listed = listedAt.get(t);
    if (listed) out.push(listed);
    else if (!dropped.has(t)) out.push(t);
  }
  return out;
}

/** `1.10.2` -> [1, 10, 2] with trailing zeros dropped (PEP 440: 1.0 == 1); undefined for anything else. */
function releaseKey(version: string): number[] | undefined {
  if (!/^\d+(\.\d+)*$/.test(version)) return undefined;
  const parts = version.split('.').map(Number);
  while (parts.length > 1 && parts[parts.length - 1] === 0) parts.pop();
  return parts;
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** The highest version's tool with `_meta.fastmcp.versions` naming every version (the contract is rebuilt, not mutated). */
function withVersions(tool: ToolDefinition, versions: string[]): ToolDefinition {
  const meta = tool.contract._meta;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return tool;
  const fastmcp = meta.fastmcp;
  if (!fastmcp || typeof fastmcp !== 'object' || Array.isArray(fastmcp)) return tool;
  return { ...tool, contract: { ...tool.contract, _meta: { ...meta, fastmcp: { ...fastmcp, versions } } } };
}

function withUnresolved(tool: ToolDefinition, reason: string, span: Span): ToolDefinition {
  return { ...tool, unresolved: [...tool.unresolved, { part: 'contract', reason, span }] };
}

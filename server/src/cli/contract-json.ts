import type { FileFacts, JsonSchema, JsonValue, PromptDefinition, ResourceDefinition, ToolDefinition, Unresolved } from '../analysis/model';
import type { ServerPrediction } from '../analysis/entry';
import { Positions, type Located1 } from './rows';

/** One part of one tool that the analysis could not resolve, as `toolsmith contract --json` prints it. */
export interface UnresolvedRow extends Located1 {
  /** Index of the tool in `tools`; null for a row about the server as a whole (part `module`: an import not followed). */
  tool: number | null;
  /** The tool's name, null when the name itself is unresolved. */
  name: string | null;
  /** Which part of the contract: `name`, `description`, `inputSchema`, `tool` (the whole entry)... */
  part: string;
  reason: string;
  file: string;
}

/**
 * What `toolsmith contract --json` prints: `tools` is the predicted tools/list, exactly as the server would publish
 * it where resolved; `unresolved` lists every part that is not (a tool with an entry there is partial: a missing
 * key, `"properties": {}` or an absent name is then not a fact). Positions are 1-based, end exclusive.
 */
/** A library a file's contracts were converted with, and whose copy (`workspace` or `bundled`). */
export interface ConverterRow {
  file: string;
  library: string;
  version: string;
  source: 'workspace' | 'bundled';
  reason?: string;
}

export function contractJson(
  tools: ToolDefinition[],
  textOf: (file: string) => string | undefined,
  files: FileFacts[] = [],
): { tools: JsonSchema[]; unresolved: UnresolvedRow[]; converters: ConverterRow[] } {
  const positions = new Positions(textOf);
  const unresolved: UnresolvedRow[] = [];
  tools.forEach((t, i) => {
    for (const u of t.unresolved) unresolved.push({ tool: i, name: t.name.value ?? null, part: u.part, reason: u.reason, file: u.span.file, ...positions.of(u.span) });
  });
  const converters = files.flatMap((f) => (f.converters ?? []).map((c) => ({ file: f.file, ...c })));
  return { tools: tools.map((t) => t.contract), unresolved, converters };
}

/** A tool registered under a guard (`conditions` of `toolsmith contract --json`): listed only when it holds. */
export interface ConditionRow extends Located1 {
  /** Index of the tool in `tools`. */
  tool: number;
  name: string | null;
  /** The guard as written (`clientSupportsRoots`, `!o.skipImageDownloads`, `a && b`); its position below. */
  condition: string;
  file: string;
}

/**
 * The `conditions` field, printed only when a tool is conditional: each such tool is in `tools` with its whole contract
 * (a fact), but the server lists it only when its guard holds at run time, so a live tools/list may lack it.
 */
export function conditionRows(tools: ToolDefinition[], textOf: (file: string) => string | undefined): ConditionRow[] {
  const positions = new Positions(textOf);
  const rows: ConditionRow[] = [];
  tools.forEach((t, i) => {
    const c = t.registration.condition;
    if (c) rows.push({ tool: i, name: t.name.value ?? null, condition: c.text, file: c.span.file, ...positions.of(c.span) });
  });
  return rows;
}

/** One part of one prompt that the analysis could not resolve (the prompt's row of `promptsUnresolved`). */
export interface PromptUnresolvedRow extends Located1 {
  /** Index of the prompt in `prompts`; null for prompts known only at run time (a low-level handler's list that is not static). */
  prompt: number | null;
  name: string | null;
  part: string;
  reason: string;
  file: string;
}

/**
 * The prompts part of `toolsmith contract --json`, printed only when the file registers prompts (so the tools/list
 * shape stays as it was): `prompts` is the predicted prompts/list, `promptsUnresolved` its unresolved parts.
 */
export function promptsJson(prompts: PromptDefinition[], textOf: (file: string) => string | undefined): { prompts: { [key: string]: JsonValue }[]; promptsUnresolved: PromptUnresolvedRow[] } {
  const positions = new Positions(textOf);
  const promptsUnresolved: PromptUnresolvedRow[] = [];
  const listed: { [key: string]: JsonValue }[] = [];
  for (const p of prompts) {
    // A list the analysis could not read (part `prompts`) is no entry of its own: any number of prompts, not one.
    const runTime = wholeListRow(p) !== undefined;
    if (!runTime) listed.push(p.contract);
    const index = runTime ? null : listed.length - 1;
    for (const u of p.unresolved) promptsUnresolved.push({ prompt: index, name: p.name.value ?? null, part: u.part, reason: u.reason, file: u.span.file, ...positions.of(u.span) });
  }
  return { prompts: listed, promptsUnresolved };
}

/**
 * The row saying a definition stands for a whole list the analysis could not read (a low-level handler's, part
 * `prompts`, `resources` or `resourceTemplates`): any number of entries known only at run time, not one entry.
 */
export function wholeListRow(e: PromptDefinition | ResourceDefinition): Unresolved | undefined {
  return e.unresolved.find((u) => u.part === 'prompts' || u.part === 'resources' || u.part === 'resourceTemplates');
}

/** One part of one resource or template that the analysis could not resolve (a row of `resourcesUnresolved`). */
export interface ResourceUnresolvedRow extends Located1 {
  /** `resources` (a resource, or resources a template's list callback adds at run time) or `resourceTemplates`. */
  list: 'resources' | 'resourceTemplates';
  /**
   * Index of the entry in that list; null for entries known only at run time (resources/list entries of a template's
   * list callback; a low-level handler's list that is not static, part `resources` or `resourceTemplates`).
   */
  index: number | null;
  /** The registration's name, null when unresolved. */
  name: string | null;
  part: string;
  reason: string;
  file: string;
}

/**
 * The resources part of `toolsmith contract --json`, printed only when the file registers resources: `resources` is
 * the predicted resources/list (static resources; what a template's list callback returns is a run-time value, a
 * row with `index: null`), `resourceTemplates` the predicted resources/templates/list, `resourcesUnresolved` the
 * unresolved parts of both.
 */
export function resourcesJson(
  resources: ResourceDefinition[],
  textOf: (file: string) => string | undefined,
): { resources: { [key: string]: JsonValue }[]; resourceTemplates: { [key: string]: JsonValue }[]; resourcesUnresolved: ResourceUnresolvedRow[] } {
  const positions = new Positions(textOf);
  const out = { resources: [] as { [key: string]: JsonValue }[], resourceTemplates: [] as { [key: string]: JsonValue }[], resourcesUnresolved: [] as ResourceUnresolvedRow[] };
  for (const r of resources) {
    const list = r.kind === 'resource' ? out.resources : out.resourceTemplates;
    const wholeList = wholeListRow(r) !== undefined;
    const index = list.length;
    if (!wholeList) list.push(r.contract);
    for (const u of r.unresolved) {
      // A template's list callback adds resources/list entries, not a part of the template's own entry.
      const runTime = (u.part === 'list' && r.kind === 'template') || wholeList;
      out.resourcesUnresolved.push({
        list: r.kind === 'resource' || (runTime && !wholeList) ? 'resources' : 'resourceTemplates',
        index: runTime ? null : index,
        name: r.name.value ?? null,
        part: u.part,
        reason: u.reason,
        file: u.span.file,
        ...positions.of(u.span),
      });
    }
  }
  return out;
}

/** One server of `toolsmith contract --json`'s `servers`: which of `tools` it publishes, and where it is built. */
export interface ServerRow extends Located1 {
  /** The name it gives itself (`new McpServer({ name })`, `FastMCP("name")`), null when not written literally. */
  name: string | null;
  /** The variable (or parameter) holding it where its tools are registered. */
  variable: string;
  framework: string | null;
  /** Where it is constructed (or, when `constructed` is false, the variable its tools are registered on). */
  file: string;
  /**
   * False when no module of the entry's graph constructs it: its tools are registered on a parameter (or an imported
   * name) no followed call binds to a server, so the group may belong to a server the analysis did not see.
   */
  constructed: boolean;
  /** The entry file the server was predicted from (the file given, or one found in the folder). */
  entry: string;
  /** Indices into `tools`, in registration order: this server's whole tools/list. */
  tools: number[];
}

/** The `servers` field: each server predicted from its entry, `offset` added to its tool indices (several entries). */
export function serversJson(servers: { server: ServerPrediction; entry: string; offset: number }[], textOf: (file: string) => string | undefined): ServerRow[] {
  const positions = new Positions(textOf);
  return servers.map(({ server: s, entry, offset }) => ({
    name: s.name ?? null,
    variable: s.variable,
    framework: s.framework ?? null,
    file: s.span.file,
    ...positions.of(s.span),
    constructed: s.constructed,
    entry,
    tools: s.tools.map((i) => i + offset),
  }));
}

/** Imports a whole-server prediction could not follow, as rows of `unresolved` (`tool` and `name` null, part `module`). */
export function moduleRows(unfollowed: Unresolved[], textOf: (file: string) => string | undefined): UnresolvedRow[] {
  const positions = new Positions(textOf);
  return unfollowed.map((u) => ({ tool: null, name: null, part: u.part, reason: u.reason, file: u.span.file, ...positions.of(u.span) }));
}

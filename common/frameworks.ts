/**
 * What Toolsmith knows about each MCP server framework, in one table. Every place that behaves differently per
 * framework reads a property here (named after the behaviour) instead of comparing framework names, so a new
 * framework or major version is one entry: `Record<Framework, FrameworkProfile>` makes a missing one a compile error.
 *
 * Shared by the language server, the client and the webviews: nothing here imports server/ or vscode.
 */

import type { Language } from './json';
export type { Language };

/**
 * Which library builds the contract — the JSON published by tools/list depends on it.
 *  - ts-sdk:        @modelcontextprotocol/sdk 1.x (McpServer.registerTool / server.tool)
 *  - ts-sdk-v2:     @modelcontextprotocol/server 2.x (McpServer.registerTool; Standard Schema, JSON Schema 2020-12)
 *  - mcp:           official Python SDK 2.x (`from mcp.server import MCPServer`)
 *  - mcp-v1:        the removed 1.x import `from mcp.server.fastmcp import FastMCP`
 *  - fastmcp:       standalone FastMCP (`from fastmcp import FastMCP`)
 */
export type Framework = 'ts-sdk' | 'ts-sdk-v2' | 'mcp' | 'mcp-v1' | 'fastmcp';

/** The code that turns a tool into its tools/list entry, named after the library module it reproduces. */
export type ContractBuilder = 'sdk-zod-compat' | 'sdk-standard-schema' | 'mcp-func-metadata' | 'fastmcp-function-parsing';

export interface FrameworkProfile {
  language: Language;
  /** Shown in the Preview Contract header (followed by the version when one is known). */
  label: string;
  /** How findings name it in a sentence ("FastMCP takes parameter descriptions from there"). */
  name: string;
  /** The package (npm or PyPI) whose pinned or installed version decides the contract. */
  versionPackage: string;
  /**
   * How a server is constructed. Python: the qualified constructor names imports resolve to
   * (`mcp.server.MCPServer`). TypeScript: the class names a `new` expression uses (`new McpServer(...)`).
   */
  serverClasses: readonly string[];
  /** Python: the qualified names of the injected Context parameter (hidden from inputSchema). */
  contextClasses: readonly string[];
  /** Python: the framework's own return helpers (Image, ToolResult...) that produce content blocks. */
  contentClasses: readonly string[];
  /** Cheap textual hints that a source file may register tools of this framework (the workspace scan's filter). */
  toolHints: readonly RegExp[];
  /** A textual sign that a source file constructs a server of this framework (the playground's candidate test). */
  serverHint: RegExp;
  contractBuilder: ContractBuilder;
  /** Python: the module `ToolError` is imported from; undefined when the framework has none. */
  errorModule: string | undefined;
  /**
   * What becomes of a Python docstring:
   *  - `verbatim`: `__doc__` is the description as the interpreter stores it; an Args: section is published as text, never read;
   *  - `parsed`: cleaned (inspect.cleandoc), cut at its first section, and Google-style Args: entries become parameter descriptions;
   *  - `none`: the language has no docstrings.
   */
  docstring: 'none' | 'verbatim' | 'parsed';
  /** Python: `Annotated[T, "text"]` (a bare string as the only metadata) becomes the parameter's description. */
  readsAnnotatedStringDescription: boolean;
  /** Python: keyword arguments of `tool()` / `add_tool()` it reads beyond name, title, description, annotations, meta and icons. */
  toolOptions: readonly string[];
  /**
   * Python: how `@server.tool` is used: `factory` must be called (`@mcp.tool()`; bare raises TypeError),
   * `factory-or-bare` accepts both; `none`: no decorator registration.
   */
  toolDecorator: 'none' | 'factory' | 'factory-or-bare';
  /** Python: a tool with `*args`/`**kwargs` parameters is refused at registration. */
  refusesVariadicParams: boolean;
  /** Python: a parameter named `_x` raises InvalidSignature at registration. */
  rejectsUnderscoreParams: boolean;
  /** Python: a sync (`def`) tool runs on the event loop instead of a worker thread, blocking every other request. */
  syncToolsBlockEventLoop: boolean;
  /** Python: the model sees only a generic "Error executing tool" for any exception that is not a ToolError. */
  hidesExceptionText: boolean;
  /** TypeScript: the npm modules a server class is imported from for this framework (`@modelcontextprotocol/server`). */
  serverModules: readonly string[];
  /** TypeScript: whether McpServer still has the deprecated `server.tool(name, ...)` method (removed in v2). */
  hasToolMethod: boolean;
  /**
   * TypeScript: functions of other packages that register a tool on a server of this framework by calling its
   * `registerTool` (ext-apps' `registerAppTool(server, name, config, cb)`): a registration form of their own.
   */
  toolHelpers?: readonly ToolHelper[];
  /** TypeScript: functions of other packages that register a resource by calling the server's `registerResource` (ext-apps' `registerAppResource`). */
  resourceHelpers?: readonly ResourceHelper[];
  /** What the framework does with a second tool of the same name on one server. */
  duplicateToolName: 'throws' | 'keeps-first' | 'replaces';
  /** Why the contract predicted for the workspace's pinned `version` (undefined: none pinned) may not be what runs. */
  versionCaveat(version: string | undefined): string | undefined;
  /**
   * Python: how the contract this framework publishes differs at `version` (undefined: none pinned, the newest
   * verified release). Each difference is one the version matrix (test/fidelity/python-matrix.test.ts) showed live.
   */
  contractTraits?(version: string | undefined): PythonContractTraits;
  /**
   * TypeScript SDK 1.x: how the tools/list entry differs at `version` (undefined: none pinned, the newest modelled
   * release), read from the SDK's own source at each release; test/fidelity/typescript-matrix.test.ts checks them live.
   */
  tsContractTraits?(version: string | undefined): TsContractTraits;
  /**
   * TypeScript SDK v2: how the tools/list entry differs at `version` (undefined: none pinned, the newest modelled
   * release), read from each release's tarball; test/fidelity/typescript-v2-matrix.test.ts checks them live.
   */
  tsV2ContractTraits?(version: string | undefined): TsV2ContractTraits;
}

/**
 * What differs between @modelcontextprotocol/server 2.x releases in the tools/list entry McpServer publishes (its
 * dist: standardSchemaToJsonSchema, normalizeRawShapeSchema, registerTool, the tools/list handler and the 2025-era
 * codec's outputSchema wrap, read at 2.0.0, 2.1.0, 2.2.0, 2.3.0, 2.3.1 and 2.4.0).
 */
export interface TsV2ContractTraits {
  /** The release these traits are those of (named in reasons). */
  release: string;
  /**
   * An outputSchema root without `type` whose `$ref` points at an object entry of its own `$defs`/`definitions`
   * gets `type: "object"` (2.4.0+). Before, only object keywords and compositions of objects count, so such a
   * root is wrapped as `{ result }` for a 2025-era client.
   */
  outputRootFollowsRef: boolean;
}

/**
 * A package function that registers a tool by calling `server.registerTool(name, config', cb)` itself. Its arguments
 * are the server, then registerTool's own; `config'` is the config with `_meta` rewritten as `meta` says.
 */
export interface ToolHelper {
  /** The exported name and the modules it is imported from. */
  name: string;
  modules: readonly string[];
  /** The package whose installed version decides what it does, and the releases whose source was read. */
  versionPackage: string;
  modelled: { from: string; to: string };
  /**
   * What it does to `config._meta` before registering: `ext-apps-ui` = MCP Apps' normalisation (`_meta.ui.resourceUri`
   * also written to the legacy `"ui/resourceUri"` key, and the legacy key to `ui.resourceUri`); it reads
   * `config._meta.ui` with no default, so a config without `_meta` throws a TypeError (every release modelled).
   */
  meta: 'ext-apps-ui';
}

/**
 * `registerAppTool` of @modelcontextprotocol/ext-apps (`/server` entry, since 0.2.0): the same code in every release
 * through 2.0.4 (read from each tarball); 1.x call a @modelcontextprotocol/sdk 1.x server's registerTool, 2.x a
 * @modelcontextprotocol/server one — the method of whichever server it is given.
 */
export const EXT_APPS_TOOL_HELPER: ToolHelper = {
  name: 'registerAppTool',
  modules: ['@modelcontextprotocol/ext-apps/server'],
  versionPackage: '@modelcontextprotocol/ext-apps',
  modelled: { from: '0.2.0', to: '2.0.4' },
  meta: 'ext-apps-ui',
};

/**
 * A package function that registers a resource: `helper(server, name, uri, config, cb)` calls
 * `server.registerResource(name, uri, { mimeType: defaultMimeType, ...config }, cb)`.
 */
export interface ResourceHelper {
  name: string;
  modules: readonly string[];
  versionPackage: string;
  modelled: { from: string; to: string };
  defaultMimeType: string;
}

/** `registerAppResource` of @modelcontextprotocol/ext-apps (`/server`): the same code in every release 0.2.0-2.0.4. */
export const EXT_APPS_RESOURCE_HELPER: ResourceHelper = {
  name: 'registerAppResource',
  modules: ['@modelcontextprotocol/ext-apps/server'],
  versionPackage: '@modelcontextprotocol/ext-apps',
  modelled: { from: '0.2.0', to: '2.0.4' },
  defaultMimeType: 'text/html;profile=mcp-app',
};

/** Why a helper's contract at the workspace's `version` of its package (undefined: none found) is not the modelled one. */
export function toolHelperCaveat(helper: ToolHelper | ResourceHelper, version: string | undefined): string | undefined {
  if (version === undefined) return undefined;
  const release = /^[=v]*(\d+\.\d+\.\d+)$/.exec(version.trim())?.[1] ?? lowerBound(version);
  if (compareVersions(release, helper.modelled.from) >= 0 && compareVersions(release, helper.modelled.to) <= 0) return undefined;
  return `the workspace has ${helper.versionPackage} ${version}: ${helper.name}() is modelled on ${helper.modelled.from} to ${helper.modelled.to} (read from each release); not predicted for ${version}`;
}

/** What differs between @modelcontextprotocol/sdk 1.x releases in the tools/list entry McpServer publishes. */
export interface TsContractTraits {
  /** The release these traits are those of (named in reasons). */
  release: string;
  /** `McpServer.registerTool` exists (1.11.4+); before, the call throws a TypeError and registers nothing. */
  registerTool: boolean;
  /** `McpServer.registerResource` exists (1.13.0+); before, only `resource()`: the call throws a TypeError. */
  registerResource: boolean;
  /** `title` is published (1.13.0+); before, registerTool ignores it. */
  title: boolean;
  /** `annotations` are published (1.11.0+); before, `server.tool(name, annotations, cb)` takes the annotations for a params shape. */
  annotations: boolean;
  /** `outputSchema` is published (1.11.4+, with registerTool). */
  outputSchema: boolean;
  /** `_meta` is published (1.18.0+). */
  meta: boolean;
  /** registerTool/tool store `execution: { taskSupport: "forbidden" }`, published (1.24.0+). */
  execution: boolean;
  /** The inputSchema of a tool without one: `{ type: "object", properties: {} }` (1.13.3+), `{ type: "object" }` before. */
  emptyInputSchema: 'with-properties' | 'type-only';
  /**
   * How a schema is converted:
   *  - `zod-compat` (1.23.0+): `normalizeObjectSchema` + `toJsonSchemaCompat` (zod 4 `toJSONSchema`, zod 3 `zod-to-json-schema`), a non-object input published empty;
   *  - `zod-to-json-schema` (before): zod 3 only, `zodToJsonSchema(z.object(shape), { strictUnions })`, the schema itself converted.
   */
  conversion: 'zod-compat' | 'zod-to-json-schema';
  /** `pipeStrategy: "input"/"output"` is passed to the converter (1.20.2+); before, zod-to-json-schema's default (`all`). */
  pipeStrategy: boolean;
  /** registerTool takes a zod schema (not only a raw shape) as inputSchema/outputSchema (1.22.0+); before, it is wrapped in `z.object()` again. */
  acceptsSchemaObject: boolean;
}

/** What differs between releases of one Python framework in the contract it publishes (see `contractTraits`). */
export interface PythonContractTraits {
  /** The release these traits were measured on (named in reasons). */
  release: string;
  /** Keyword arguments of `tool()` / `add_tool()` this release does not have: a registration passing one raises TypeError at import. */
  missingToolOptions: readonly string[];
  /** Publishes an outputSchema derived from the return annotation (structured output: mcp 1.10+, FastMCP 2.10+). */
  structuredOutput: boolean;
  /** mcp: a content-block return annotation (`-> TextContent`) publishes the mcp.types class's pydantic schema (not modelled) instead of none. */
  contentBlockOutputSchema: boolean;
  /** mcp: a self-referencing output model's `$ref` root is inlined (mcp 1.30, 2.1+); before, the root is a bare `$ref` (not modelled). */
  inlinesRecursiveOutputRoot: boolean;
  /** mcp: `typing.TypedDict` returns are rebuilt for pydantic below Python 3.12 (mcp 2.1+); mcp 1.x rebuilds every TypedDict as a model. */
  typedDictOutput: 'model' | 'rebuilt' | 'refused';
  /** mcp: the Context parameter is found only when annotated bare (`ctx: Context`); `Context | None` becomes a published parameter (not modelled). */
  contextOnlyBare: boolean;
  /**
   * The pydantic this release runs with: `2.11` for mcp releases that import `eval_type_backport` (removed in pydantic
   * 2.12), whose dataclass docstrings are not published and whose set defaults keep hash order; `current` otherwise.
   */
  pydantic: '2.11' | 'current';
  /** FastMCP: `title` defaults to the name in title case (4.x); before, only an explicit title or `annotations.title`. */
  defaultTitle: boolean;
  /** FastMCP: `Field(title=...)` on a parameter survives title pruning (4.x). */
  keepsParamTitles: boolean;
  /** FastMCP: title pruning also drops the title of a node holding only metadata (`{"title": "Value"}` of an `Any` parameter; 3.x+). */
  prunesMetadataOnlyTitles: boolean;
  /**
   * FastMCP: the published description of a docstring: `first-section` = text before the first structured section
   * (4.x); `with-args` = that, but the whole docstring when no Args: entry was found (3.x); `whole` = `inspect.getdoc`
   * verbatim, Args: never read (2.9+); `raw` = `fn.__doc__` as written, indentation kept, `""` without one (before 2.9).
   */
  docstringDescription: 'first-section' | 'with-args' | 'whole' | 'raw';
  /** FastMCP: where the tags go in `_meta` (`fastmcp` in 3.x+, `_fastmcp` in 2.x); `none`: no `_meta` (before 2.11). */
  metaKey: 'fastmcp' | '_fastmcp' | 'none';
  /**
   * FastMCP: the input schema is pruned (`compress_schema(prune_titles=True)`: no `title`s). Before, tools/list
   * publishes pydantic's `TypeAdapter(fn).json_schema()` as it is: every property keeps its title, `$defs` kept.
   */
  prunesTitles: boolean;
  /** FastMCP: `Annotated[T, "text"]` becomes the parameter's description (2.11+); before, pydantic ignores the string. */
  annotatedStringDescription: boolean;
  /** FastMCP: a bare `@server.tool` registers the function (2.7+); before, tool() is only a factory: TypeError at import. */
  bareToolDecorator: boolean;
  /** FastMCP: `add_tool(fn)` takes a plain function (before 2.7 and 3.x+; 2.7 to 2.14 want a Tool). */
  addToolTakesFunction: boolean;
  /** FastMCP: `add_tool(Tool.from_function(fn))` takes a Tool (2.7+); before, it wants the function (TypeError). */
  addToolTakesTool: boolean;
  /** FastMCP: `run()` takes `show_banner=` (2.10+); before, run() hands it to the stdio transport: TypeError when the server starts. */
  runShowBanner: boolean;
  /** FastMCP: the inputSchema says `additionalProperties: false` (3.x+). */
  closedInputSchema: boolean;
  /** FastMCP: the wrapper of a non-object output carries `_WrappedResult`'s docstring as description (2.x). */
  wrapperDescription: boolean;
  /** FastMCP: tools/list fails for the whole server when a schema has a self-referencing model (2.x dereferences it into a cycle). */
  listFailsOnRecursiveSchema: boolean;
  /** FastMCP: `fastmcp.tools.tool` is the standalone decorator (3.x+; a module before). */
  standaloneTool: boolean;
  /** FastMCP: tools/list inlines every `$ref` of the input and output schemas and drops `$defs` (2.14+, dereference_refs); before, both keep their `$defs`. */
  dereferencesRefs: boolean;
  /** FastMCP: tools/list inlines the `$ref`s of an explicit `output_schema=` too (3.x+, DereferenceRefsMiddleware); 2.x publishes it as given. */
  dereferencesExplicitOutputSchema: boolean;
  // Prompts and resources (prompts/list, resources/list, resources/templates/list), each difference shown live by the
  // matrix's `*_surfaces*` fixtures.
  /** Whether this release's prompts/list and resources lists are modelled (fastmcp before 2.9: only its tools/list was compared live). */
  surfacesModelled: boolean;
  /** The keywords `prompt()` takes (name and the function aside): any other raises TypeError at import. */
  promptOptions: readonly string[];
  /** The keywords `resource(uri, ...)` takes: any other raises TypeError at import. */
  resourceOptions: readonly string[];
  /**
   * mcp: a static resource's defaults: `uri` = named after its URI, no description (1.8 builds FunctionResource
   * directly); `function` = the function's name and `description or __doc__ or ""` (1.10+).
   */
  staticResourceDefaults: 'uri' | 'function';
  /** mcp: resources/templates/list entries carry mimeType, icons and annotations (1.23+). */
  templateMimeType: boolean;
  /** Resource URIs pass through pydantic's AnyUrl (normalized, refused when not a URL): mcp 1.x and FastMCP; mcp 2.x keeps the string. */
  resourceUriValidation: 'any-url' | 'none';
  /**
   * How a resource URI becomes a template and its variables are checked against the function's parameters:
   *  - `braces` (mcp 1.x): `{` and `}` in the URI, or any parameter, make a template; the `{name}` names must equal the parameters;
   *  - `rfc6570` (mcp 2.x): the SDK's UriTemplate parser; its variables must equal the parameters, query ones with defaults;
   *  - `fastmcp`: `{` and `}` or any parameter make a template; its checks are modelled for equal sets only.
   */
  resourceTemplates: 'braces' | 'rfc6570' | 'fastmcp';
  /** mcp: the Context parameter of a prompt or template is found and skipped (1.23+); before, it is read as an argument. */
  surfaceContext: boolean;
  /** FastMCP: the note appended to the description of a prompt argument not annotated `str` (`none`: mcp). */
  promptArgumentNote: 'none' | 'json-string' | 'value';
  /** FastMCP: `Field(title=...)` on a prompt parameter becomes the argument's title (4.x). */
  promptArgumentTitles: boolean;
  /**
   * FastMCP: `tool(name=..., version=...)` registers versions of one tool (3.x+): tools/list lists only the highest
   * (`version_sort_key`, PEP 440) at the place of the name's first registration, with `_meta.fastmcp.version` and
   * `_meta.fastmcp.versions` (every version, highest first). 2.x has no `version=` (missingToolOptions).
   */
  toolVersions: boolean;
  /** Server composition (standalone FastMCP only; the SDK's servers have no mount): undefined where the server class has none. */
  composition?: CompositionTraits;
}

/**
 * What FastMCP's server composition takes at a release: `mount()`, `import_server()`, providers and transforms. A
 * mounted server's tools are listed after the parent's own, in mount order, renamed `<prefix>_<name>`; nothing else
 * of the tool changes (the title of 4.x is derived from the published name). Read in each release's server.py and
 * checked live by the version matrix (test/fixtures/py/fidelity-matrix/fast_compose_*.py).
 */
export interface CompositionTraits {
  /** `mount()`'s parameters after the server, in positional order: any other keyword raises TypeError at import. */
  mountParameters: readonly string[];
  /** `tool_names={"old": "new"}`: the new name `replaces` the prefixed one (2.x), or is renamed `before-namespace` (3.x+: `<prefix>_new`). */
  toolNames: 'replaces' | 'before-namespace';
  /** `import_server(server, prefix)` exists (2.x, 3.x); 4.x removed it (AttributeError). */
  importServer: boolean;
  /** `add_provider(server, namespace=)`, `FastMCP(providers=[...], transforms=[...])`, `add_transform(Namespace(...))` (3.x+). */
  providers: boolean;
  /** Mounted servers' tools are listed before the server's own (before 2.9: `get_tools()` updates a dict with them first). */
  mountedFirst: boolean;
  /**
   * `mount(prefix, server)` / `import_server(prefix, server)`: the order before 2.9, swapped with a warning up to 2.13,
   * dropped in 2.14 (AttributeError on the string). Taken when the pin or range keeps fastmcp below 2.14.
   */
  prefixFirst: boolean;
}

/** Whether an exact pin or a range's upper bound keeps the package below `limit` (`2.3.5`, `<2.4.0`, `~=2.3.4`, `==2.3.*`). */
function keptBelow(version: string | undefined, limit: string): boolean {
  if (version === undefined) return false;
  if (isExactPin(version)) return compareVersions(version, limit) < 0;
  return version.split(',').some((raw) => {
    const c = raw.trim();
    const lt = /^<\s*v?([\d.]+)$/.exec(c);
    if (lt) return compareVersions(lt[1], limit) <= 0;
    const le = /^<=\s*v?([\d.]+)$/.exec(c);
    if (le) return compareVersions(le[1], limit) < 0;
    const star = /^==\s*([\d.]+)\.\*$/.exec(c);
    if (star) return compareVersions(`${star[1]}.999999`, limit) < 0;
    const compatible = /^~=\s*([\d.]+)$/.exec(c);
    if (!compatible) return false;
    const parts = compatible[1].split('.').map(Number);
    parts.pop();
    parts[parts.length - 1]++;
    return parts.length > 0 && compareVersions(parts.join('.'), limit) <= 0;
  });
}

/**
 * Major version of a pin or a range (`2.3.0`, `>=2.3`, `^2.3`, `~=4.0`, `<2,>=1.4.1`), if readable: the lower bound's
 * major, or the one below an exclusive upper bound alone (`<2` -> 1).
 */
export function majorOf(version: string | undefined): number | undefined {
  if (!version) return undefined;
  const clauses = version.split(',').map((c) => c.trim());
  const lower = clauses.map((c) => /^(?:>=|>|==|===|~=|\^|~)?\s*v?(\d+)/.exec(c)).find(Boolean);
  if (lower) return Number(lower[1]);
  const upper = clauses.map((c) => /^<\s*(\d+)(?:\.(\d+))?/.exec(c)).find(Boolean);
  if (upper) return Number(upper[2] ?? 0) > 0 ? Number(upper[1]) : Number(upper[1]) - 1;
  return undefined;
}

/** Whether a pin or a range keeps mcp on 1.x, where `mcp.server.fastmcp` exists (`1.29.0`, `<2,>=1.4.1`, `~=1.9`). */
export function pinsMcp1(version: string): boolean {
  const clauses = version.split(',').map((c) => c.trim());
  const capped = clauses.some((c) => {
    const upper = /^(<=?)\s*(\d+)(?:\.(\d+))?/.exec(c);
    return !!upper && (Number(upper[2]) < 2 || (upper[1] === '<' && Number(upper[2]) === 2 && !Number(upper[3] ?? 0)));
  });
  return capped || clauses.some((c) => /^(==|===|~=|\^|~)?\s*v?1(\.|$)/.test(c));
}

/**
 * mcp 1.x versions whose `mcp.server.fastmcp` contracts were compared live with the prediction (test/fidelity/python.test.ts,
 * .cache/venv-mcp1): a workspace pinning one of these gets exact contracts; any other 1.x stays an unverified prediction.
 */
export const MCP1_VERIFIED = ['1.8.1', '1.10.1', '1.23.3', '1.26.0', '1.30.0'];
/** mcp 2.x releases the matrix checks (`from mcp.server import MCPServer`). */
export const MCP2_VERIFIED = ['2.0.1', '2.1.1', '2.2.0', '2.3.0'];
/** Standalone fastmcp releases the matrix checks: the newest of each major, and older 2.x releases real servers pin. */
export const FASTMCP_VERIFIED = ['2.3.5', '2.13.3', '2.14.7', '3.4.11', '4.2.3'];

/** The verified release an exact pin is predicted as: itself, else the newest verified one below it (else the oldest). */
function nearestVerified(verified: readonly string[], version: string | undefined): string {
  const newest = verified[verified.length - 1];
  if (version === undefined || !/^\d+(\.\d+)*$/.test(version)) return newest;
  const below = verified.filter((v) => compareVersions(v, version) <= 0);
  return below.length ? below[below.length - 1] : verified[0];
}

/** `a >= b` for dotted versions. */
function atLeast(a: string, b: string): boolean {
  return compareVersions(a, b) >= 0;
}

function mcp1Caveat(version: string | undefined): string | undefined {
  if (version !== undefined && MCP1_VERIFIED.includes(version)) return undefined;
  const major = majorOf(version);
  if (major !== undefined && major >= 2) return `the workspace pins mcp ${version}, which has no mcp.server.fastmcp module: this server fails at import (ModuleNotFoundError) and lists no tools`;
  const proven = MCP1_VERIFIED.join(', ');
  return version === undefined
    ? `mcp 1.x (mcp.server.fastmcp) with no pinned version in the workspace: predicted as mcp ${nearestVerified(MCP1_VERIFIED, version)} publishes it; 1.x releases differ (structured output, titles, Context detection)`
    : `the workspace pins mcp ${version}: predicted as mcp ${nearestVerified(MCP1_VERIFIED, version)} publishes it; not verified for ${version} (the 1.x releases verified live: ${proven})`;
}

/** An exact pin outside the verified releases of a framework whose every range is predicted as its newest release. */
function exactPinCaveat(pkg: string, verified: readonly string[], version: string | undefined, predictedAs: string): string | undefined {
  if (version === undefined || !isExactPin(version) || verified.includes(version)) return undefined;
  return `the workspace pins ${pkg} ${version}: predicted as ${predictedAs} publishes it; not verified for ${version} (verified live: ${verified.join(', ')})`;
}

const NEWEST_TRAITS: Omit<PythonContractTraits, 'release'> = {
  missingToolOptions: [],
  structuredOutput: true,
  contentBlockOutputSchema: false,
  inlinesRecursiveOutputRoot: true,
  typedDictOutput: 'rebuilt',
  contextOnlyBare: false,
  pydantic: 'current',
  defaultTitle: true,
  keepsParamTitles: true,
  prunesMetadataOnlyTitles: true,
  docstringDescription: 'first-section',
  metaKey: 'fastmcp',
  closedInputSchema: true,
  wrapperDescription: false,
  listFailsOnRecursiveSchema: false,
  standaloneTool: true,
  prunesTitles: true,
  annotatedStringDescription: true,
  bareToolDecorator: true,
  addToolTakesFunction: true,
  addToolTakesTool: true,
  runShowBanner: true,
  dereferencesRefs: true,
  dereferencesExplicitOutputSchema: true,
  surfacesModelled: true,
  promptOptions: ['name', 'version', 'title', 'description', 'icons', 'tags', 'meta', 'auth'],
  resourceOptions: ['name', 'version', 'title', 'description', 'icons', 'mime_type', 'tags', 'annotations', 'meta', 'app', 'auth', 'security'],
  staticResourceDefaults: 'function',
  templateMimeType: true,
  resourceUriValidation: 'any-url',
  resourceTemplates: 'fastmcp',
  surfaceContext: true,
  promptArgumentNote: 'value',
  promptArgumentTitles: true,
  toolVersions: false,
};

/** The official SDK's prompt()/resource() keywords and surfaces at its newest releases (mcp 1.26+ and 2.x). */
const MCP_SURFACES = {
  promptOptions: ['name', 'title', 'description', 'icons'],
  resourceOptions: ['name', 'title', 'description', 'mime_type', 'icons', 'annotations', 'meta'],
  promptArgumentNote: 'none',
  promptArgumentTitles: false,
} as const;

/** mcp 1.x (`mcp.server.fastmcp`), by the verified release a pin is predicted as. */
function mcp1Traits(version: string | undefined): PythonContractTraits {
  const release = nearestVerified(MCP1_VERIFIED, version);
  return {
    ...NEWEST_TRAITS,
    release: `mcp ${release}`,
    // 1.8: no title=/structured_output= (added in 1.10); meta= and icons= came after 1.10.
    missingToolOptions: atLeast(release, '1.23.0') ? [] : atLeast(release, '1.10.0') ? ['meta', 'icons'] : ['title', 'structured_output', 'meta', 'icons'],
    structuredOutput: atLeast(release, '1.10.0'),
    contentBlockOutputSchema: true,
    inlinesRecursiveOutputRoot: atLeast(release, '1.30.0'),
    typedDictOutput: 'model',
    contextOnlyBare: !atLeast(release, '1.23.0'),
    pydantic: atLeast(release, '1.23.0') ? 'current' : '2.11',
    ...MCP_SURFACES,
    // 1.8: name/description only; title in 1.10; icons and annotations in 1.23; meta in 1.26.
    promptOptions: MCP_SURFACES.promptOptions.filter((k) => (k !== 'title' || atLeast(release, '1.10.0')) && (k !== 'icons' || atLeast(release, '1.23.0'))),
    resourceOptions: MCP_SURFACES.resourceOptions.filter(
      (k) => (k !== 'title' || atLeast(release, '1.10.0')) && ((k !== 'icons' && k !== 'annotations') || atLeast(release, '1.23.0')) && (k !== 'meta' || atLeast(release, '1.26.0')),
    ),
    staticResourceDefaults: atLeast(release, '1.10.0') ? 'function' : 'uri',
    templateMimeType: atLeast(release, '1.23.0'),
    resourceUriValidation: 'any-url',
    resourceTemplates: 'braces',
    surfaceContext: atLeast(release, '1.23.0'),
  };
}

/** mcp 2.x (`MCPServer`): 2.0 kept 1.x's content-block schemas and bare recursive roots; 2.1 changed both. */
function mcp2Traits(version: string | undefined): PythonContractTraits {
  const release = nearestVerified(MCP2_VERIFIED, version);
  const since21 = atLeast(release, '2.1.0');
  return {
    ...NEWEST_TRAITS,
    release: `mcp ${release}`,
    contentBlockOutputSchema: !since21,
    inlinesRecursiveOutputRoot: since21,
    typedDictOutput: since21 ? 'rebuilt' : 'refused',
    ...MCP_SURFACES,
    resourceOptions: [...MCP_SURFACES.resourceOptions, 'security'],
    resourceUriValidation: 'none',
    resourceTemplates: 'rfc6570',
  };
}

/** Whether a range (not an exact pin) keeps the package below major `newest` (`<4`, `~=2.10`, `^3.1`, `==2.*`). */
function cappedBelowMajor(version: string, newest: number): boolean {
  return version.split(',').some((raw) => {
    const c = raw.trim();
    const lt = /^<\s*(\d+)(?:\.(\d+))?/.exec(c);
    if (lt) return Number(lt[1]) < newest || (Number(lt[1]) === newest && !Number(lt[2] ?? 0));
    const le = /^<=\s*(\d+)/.exec(c);
    if (le) return Number(le[1]) < newest;
    const compatible = /^(?:~=|\^|~|==)\s*v?(\d+)\.\d/.exec(c) ?? /^==\s*(\d+)\.\*/.exec(c);
    return !!compatible && Number(compatible[1]) < newest;
  });
}

const isExactPin = (version: string | undefined): boolean => version !== undefined && /^\d+(\.\d+)*$/.test(version);

/**
 * The fastmcp major a pin is predicted for: an exact pin's own, a range's newest (what pip installs today) unless
 * the range keeps fastmcp below the newest major (then its lower bound's, and the caveat says the release is unknown).
 */
function fastmcpMajor(version: string | undefined): number | undefined {
  const newest = majorOf(FASTMCP_VERIFIED[FASTMCP_VERIFIED.length - 1])!;
  if (version === undefined) return newest;
  if (isExactPin(version) || cappedBelowMajor(version, newest)) return majorOf(version);
  return newest;
}

/** Standalone fastmcp by major (the newest release of each is verified). */
function fastmcpTraits(version: string | undefined): PythonContractTraits {
  const major = fastmcpMajor(version);
  const ofMajor = FASTMCP_VERIFIED.filter((v) => majorOf(v) === (major !== undefined && major < 2 ? 2 : major));
  // An exact pin: the verified release of its minor (2.14.2 -> 2.14.7), else the one below it.
  const minorOf = (v: string) => v.split('.').slice(0, 2).join('.');
  const ofMinor = isExactPin(version) ? ofMajor.filter((v) => minorOf(v) === minorOf(version!)) : [];
  let release = ofMinor.length
    ? ofMinor[ofMinor.length - 1]
    : ofMajor.length
      ? isExactPin(version)
        ? nearestVerified(ofMajor, version)
        : // A range: the newest verified release its upper bound allows (`<2.4.0` -> 2.3.5).
          ([...ofMajor].reverse().find((v) => !keptBelow(version, v)) ?? ofMajor[0])
      : FASTMCP_VERIFIED[FASTMCP_VERIFIED.length - 1];
  // 2.7 made tool() a plain decorator and add_tool() take a Tool: a later pin is nearer 2.13.3 than 2.3.5.
  if (release === '2.3.5' && isExactPin(version) && atLeast(version!, '2.7.0')) release = '2.13.3';
  if (major === 3)
    return {
      ...NEWEST_TRAITS,
      release: `fastmcp ${release}`,
      defaultTitle: false,
      keepsParamTitles: false,
      docstringDescription: 'with-args',
      promptOptions: ['name', 'version', 'title', 'description', 'icons', 'tags', 'meta', 'task', 'auth'],
      resourceOptions: ['name', 'version', 'title', 'description', 'icons', 'mime_type', 'tags', 'annotations', 'meta', 'app', 'task', 'auth'],
      promptArgumentNote: 'json-string',
      promptArgumentTitles: false,
      toolVersions: true,
      // `prefix=` and `as_proxy=` are deprecated but honoured; import_server() is deprecated.
      composition: { mountParameters: ['namespace', 'as_proxy', 'tool_names', 'prefix'], toolNames: 'before-namespace', importServer: true, providers: true, prefixFirst: false, mountedFirst: false },
    };
  const since214 = atLeast(release, '2.14.0');
  if (major !== undefined && major < 3)
    return {
      ...NEWEST_TRAITS,
      release: `fastmcp ${release}`,
      defaultTitle: false,
      keepsParamTitles: false,
      prunesMetadataOnlyTitles: false,
      docstringDescription: 'whole',
      metaKey: '_fastmcp',
      closedInputSchema: false,
      wrapperDescription: true,
      // dereference_refs came with 2.14: it turns a self-referencing model into a cycle tools/list cannot serialize.
      listFailsOnRecursiveSchema: since214,
      standaloneTool: false,
      dereferencesRefs: since214,
      // What 2.3.5 publishes (measured live): TypeAdapter(fn).json_schema() unpruned, `fn.__doc__` raw, no outputSchema,
      // no `_meta`. Where each changed (read in fastmcp's tags, not run; a pin between two verified releases is predicted as
      // the lower): bare @tool and add_tool(Tool) 2.7, getdoc 2.9, outputSchema and run(show_banner=) 2.10, `_meta` 2.11.
      ...(atLeast(release, '2.7.0')
        ? { addToolTakesFunction: false }
        : {
            structuredOutput: false,
            docstringDescription: 'raw' as const,
            metaKey: 'none' as const,
            prunesTitles: false,
            annotatedStringDescription: false,
            bareToolDecorator: false,
            addToolTakesTool: false,
            runShowBanner: false,
            surfacesModelled: false,
          }),
      dereferencesExplicitOutputSchema: false,
      promptOptions: ['name', 'title', 'description', 'icons', 'tags', 'enabled', 'meta', 'task'],
      resourceOptions: ['name', 'title', 'description', 'icons', 'mime_type', 'tags', 'enabled', 'annotations', 'meta', 'task'],
      promptArgumentNote: 'json-string',
      promptArgumentTitles: false,
      // `version=` came with 3.0: 2.14.7's tool() raises TypeError on it; 2.3.5's tool() takes name, description, tags, annotations.
      missingToolOptions: atLeast(release, '2.7.0')
        ? ['version']
        : ['version', 'title', 'output_schema', 'meta', 'icons', 'exclude_args', 'enabled', 'task', 'timeout', 'run_in_thread', 'auth', 'serializer'],
      // No providers or transforms; `mount(prefix, server)` (the order before 2.9) was dropped in 2.14.
      // `tool_names=` came with 2.14.
      composition: {
        mountParameters: since214 ? ['prefix', 'as_proxy', 'tool_names'] : ['prefix', 'as_proxy'],
        toolNames: 'replaces',
        importServer: true,
        providers: false,
        prefixFirst: keptBelow(version, '2.14.0'),
        mountedFirst: !atLeast(release, '2.9.0'),
      },
    };
  return {
    ...NEWEST_TRAITS,
    release: `fastmcp ${release}`,
    toolVersions: true,
    composition: { mountParameters: ['namespace', 'tool_names'], toolNames: 'before-namespace', importServer: false, providers: true, prefixFirst: false, mountedFirst: false },
  };
}

/** A TypeScript SDK package at another major than the one its builder reproduces (v1 for `sdk`, v2 for `server`). */
function tsSdkMajorCaveat(pkg: string, modelledMajor: number, version: string | undefined): string | undefined {
  const major = majorOf(version);
  if (major === undefined || major === modelledMajor) return undefined;
  return `the workspace has ${pkg} ${version}: only ${modelledMajor}.x of this package is modelled (its contract is not predicted for ${major}.x)`;
}

/** `^2.4.0` / `~2.3` / `>=2.1.0 <3` -> the first version written (what a range promises at least). */
function lowerBound(version: string): string {
  return /(\d+(?:\.\d+){0,2})/.exec(version)?.[1] ?? version;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * @modelcontextprotocol/sdk 1.x: the releases whose tools/list code was read (every release from 1.10.0 to 1.32.2;
 * the traits below change only at the releases they name) and the ones the version matrix runs live
 * (test/fidelity/typescript-matrix.test.ts, scripts/ensure-ts-matrix.mjs).
 */
export const TS_SDK_MODELLED = { from: '1.10.0', to: '1.32.2' };
export const TS_SDK_VERIFIED = ['1.10.2', '1.12.3', '1.15.1', '1.17.5', '1.20.2', '1.22.0', '1.23.1', '1.24.3', '1.26.0', '1.29.0', '1.32.2'];

/**
 * The SDK release a version stands for: an exact version itself; `~1.17.0` the newest patch of its minor; any other
 * range (`^1.17.0`, `1.x`) what npm installs today, the newest release.
 */
function tsSdkRelease(version: string | undefined, newest = TS_SDK_MODELLED.to): string {
  if (version === undefined) return newest;
  const v = version.trim();
  if (isExactPin(v.replace(/^[=v]+/, ''))) return v.replace(/^[=v]+/, '');
  const tilde = /^~\s*v?(\d+)\.(\d+)/.exec(v);
  if (tilde) return `${tilde[1]}.${tilde[2]}.999`;
  return newest;
}

/**
 * Per version string, answers that depend on nothing else: the analysis asks them once per tool (200 times for one
 * file of 200 tools), each a few version splits and compares. A handful of version strings per workspace.
 */
function memoByVersion<T>(compute: (version: string | undefined) => T): (version: string | undefined) => T {
  const memo = new Map<string | undefined, T>();
  return (version) => {
    if (memo.has(version)) return memo.get(version) as T;
    const value = compute(version);
    if (memo.size >= 64) memo.clear();
    memo.set(version, value);
    return value;
  };
}

/** The tools/list differences of @modelcontextprotocol/sdk 1.x at `version` (see TsContractTraits); shared, read-only. */
export const tsContractTraits: (version: string | undefined) => Readonly<TsContractTraits> = memoByVersion((version) => Object.freeze(computeTsContractTraits(version)));

function computeTsContractTraits(version: string | undefined): TsContractTraits {
  const release = tsSdkRelease(version);
  const since = (v: string) => atLeast(release, v);
  return {
    release: `@modelcontextprotocol/sdk ${release.endsWith('.999') ? release.replace(/\.999$/, '.x') : release}`,
    registerTool: since('1.11.4'),
    registerResource: since('1.13.0'),
    title: since('1.13.0'),
    annotations: since('1.11.0'),
    outputSchema: since('1.11.4'),
    meta: since('1.18.0'),
    execution: since('1.24.0'),
    emptyInputSchema: since('1.13.3') ? 'with-properties' : 'type-only',
    conversion: since('1.23.0') ? 'zod-compat' : 'zod-to-json-schema',
    pipeStrategy: since('1.20.2'),
    acceptsSchemaObject: since('1.22.0'),
  };
}

/** Why a 1.x version is not predicted: outside the releases whose source was read (only that version is unresolved). */
const tsSdkV1Caveat = memoByVersion((version) => tsSdkRangeCaveat('@modelcontextprotocol/sdk', 1, TS_SDK_MODELLED, TS_SDK_VERIFIED, version, (v) => tsContractTraits(v).release));

/** A version outside the releases whose source was read, a prerelease, or an open range with none installed: what is not predicted exactly. */
function tsSdkRangeCaveat(
  pkg: string,
  modelledMajor: number,
  modelled: { from: string; to: string },
  verified: readonly string[],
  version: string | undefined,
  predictedAs: (version: string) => string,
): string | undefined {
  const major = tsSdkMajorCaveat(pkg, modelledMajor, version);
  if (major || version === undefined) return major;
  const pinned = version.trim().replace(/^[=v]+/, '');
  // 2.0.0-beta.5: a prerelease is not the release it precedes (its API and conversion were still changing).
  if (/^\d+\.\d+\.\d+-/.test(pinned)) {
    return `the workspace has ${pkg} ${version}, a prerelease: the contract is modelled for the releases ${modelled.from} to ${modelled.to} (checked live: ${verified.join(', ')}); not predicted for ${version}`;
  }
  const release = tsSdkRelease(version, modelled.to);
  // A range starting after the newest modelled release (`^2.5.0`) is not predicted as that release either.
  const outside = compareVersions(release, modelled.from) < 0 || compareVersions(release.replace(/\.999$/, '.0'), modelled.to) > 0 || compareVersions(lowerBound(version), modelled.to) > 0;
  if (outside) {
    return `the workspace has ${pkg} ${version}: the contract is modelled for ${modelled.from} to ${modelled.to} (the releases checked live: ${verified.join(', ')}); not predicted for ${version}`;
  }
  if (!isExactPin(pinned) && /</.test(version)) {
    return `the workspace allows ${pkg} ${version} and none is installed: the release it runs is not known; predicted as ${predictedAs(version)} publishes it`;
  }
  return undefined;
}

/**
 * @modelcontextprotocol/server 2.x: the releases whose tarballs were read (every release from 2.0.0 to 2.4.0; 2.3.0
 * and 2.3.1 ship the same schema code) and the ones the v2 version matrix runs live
 * (test/fidelity/typescript-v2-matrix.test.ts, scripts/ensure-ts-v2-matrix.mjs).
 */
export const TS_SDK_V2_MODELLED = { from: '2.0.0', to: '2.4.0' };
export const TS_SDK_V2_VERIFIED = ['2.0.0', '2.1.0', '2.2.0', '2.3.1', '2.4.0'];

/** The tools/list differences of @modelcontextprotocol/server 2.x at `version` (see TsV2ContractTraits). */
export function tsV2ContractTraits(version: string | undefined): TsV2ContractTraits {
  const release = tsSdkRelease(version, TS_SDK_V2_MODELLED.to);
  return {
    release: `@modelcontextprotocol/server ${release.endsWith('.999') ? release.replace(/\.999$/, '.x') : release}`,
    outputRootFollowsRef: atLeast(release, '2.4.0'),
  };
}

function tsSdkV2Caveat(version: string | undefined): string | undefined {
  return tsSdkRangeCaveat('@modelcontextprotocol/server', 2, TS_SDK_V2_MODELLED, TS_SDK_V2_VERIFIED, version, (v) => tsV2ContractTraits(v).release);
}

/** Registration forms every Python framework shares: `@server.tool`, `server.tool(fn)`, `server.add_tool(fn)`, and the prompt and resource decorators. */
const PYTHON_TOOL_HINTS = [/\.tool\s*\(/, /@[\w.]+\.tool\b/, /\badd_tool\s*\(/, /@[\w.]+\.(?:prompt|resource)\b/];

const OFFICIAL_PYTHON_SDK = {
  language: 'python',
  versionPackage: 'mcp',
  contractBuilder: 'mcp-func-metadata',
  docstring: 'verbatim',
  readsAnnotatedStringDescription: false,
  toolOptions: ['structured_output'],
  toolDecorator: 'factory',
  refusesVariadicParams: false,
  rejectsUnderscoreParams: true,
  duplicateToolName: 'keeps-first',
  serverModules: [],
  hasToolMethod: false,
} as const;

export const FRAMEWORKS: Record<Framework, FrameworkProfile> = {
  'ts-sdk': {
    language: 'typescript',
    label: '@modelcontextprotocol/sdk (TypeScript)',
    name: 'the TypeScript SDK',
    versionPackage: '@modelcontextprotocol/sdk',
    serverClasses: ['McpServer', 'Server'],
    contextClasses: [],
    contentClasses: [],
    toolHints: [/registerTool\s*\(/, /\.tool\s*\(/, /\bMcpServer\b/, /\bListToolsRequestSchema\b/, /registerResource\s*\(/, /\bregisterAppTool\s*\(/],
    serverHint: /\bMcpServer\b|\bServer\b[\s\S]*@modelcontextprotocol\/sdk\/server/,
    contractBuilder: 'sdk-zod-compat',
    errorModule: undefined,
    docstring: 'none',
    readsAnnotatedStringDescription: false,
    toolOptions: [],
    toolDecorator: 'none',
    refusesVariadicParams: false,
    rejectsUnderscoreParams: false,
    syncToolsBlockEventLoop: false,
    hidesExceptionText: false,
    serverModules: ['@modelcontextprotocol/sdk'],
    hasToolMethod: true,
    toolHelpers: [EXT_APPS_TOOL_HELPER],
    resourceHelpers: [EXT_APPS_RESOURCE_HELPER],
    duplicateToolName: 'throws',
    versionCaveat: tsSdkV1Caveat,
    tsContractTraits,
  },
  'ts-sdk-v2': {
    language: 'typescript',
    label: '@modelcontextprotocol/server (TypeScript SDK v2)',
    name: 'the TypeScript SDK v2',
    versionPackage: '@modelcontextprotocol/server',
    serverClasses: ['McpServer', 'Server'],
    contextClasses: [],
    contentClasses: [],
    toolHints: [/registerTool\s*\(/, /\bMcpServer\b/, /registerResource\s*\(/, /\bregisterAppTool\s*\(/],
    serverHint: /\bMcpServer\b|\bServer\b[\s\S]*@modelcontextprotocol\/server/,
    contractBuilder: 'sdk-standard-schema',
    errorModule: undefined,
    docstring: 'none',
    readsAnnotatedStringDescription: false,
    toolOptions: [],
    toolDecorator: 'none',
    refusesVariadicParams: false,
    rejectsUnderscoreParams: false,
    syncToolsBlockEventLoop: false,
    hidesExceptionText: false,
    serverModules: ['@modelcontextprotocol/server'],
    hasToolMethod: false,
    toolHelpers: [EXT_APPS_TOOL_HELPER],
    resourceHelpers: [EXT_APPS_RESOURCE_HELPER],
    duplicateToolName: 'throws',
    versionCaveat: tsSdkV2Caveat,
    tsV2ContractTraits,
  },
  mcp: {
    ...OFFICIAL_PYTHON_SDK,
    label: 'mcp — official Python SDK (MCPServer)',
    name: 'mcp 2.x',
    serverClasses: ['mcp.server.MCPServer', 'mcp.server.mcpserver.MCPServer', 'mcp.server.mcpserver.server.MCPServer'],
    contextClasses: ['mcp.server.Context', 'mcp.server.mcpserver.Context', 'mcp.server.mcpserver.context.Context'],
    contentClasses: ['mcp.server.mcpserver.Image', 'mcp.server.mcpserver.utilities.types.Image', 'mcp.server.mcpserver.Audio'],
    toolHints: [...PYTHON_TOOL_HINTS, /\bMCPServer\b/],
    serverHint: /\bMCPServer\s*\(/,
    errorModule: 'mcp.server.mcpserver.exceptions',
    syncToolsBlockEventLoop: false,
    hidesExceptionText: true,
    versionCaveat: (version) => exactPinCaveat('mcp', MCP2_VERIFIED, version, mcp2Traits(version).release),
    contractTraits: mcp2Traits,
  },
  'mcp-v1': {
    ...OFFICIAL_PYTHON_SDK,
    label: 'mcp 1.x import (mcp.server.fastmcp), removed in 2.x',
    name: 'mcp 1.x',
    serverClasses: ['mcp.server.fastmcp.FastMCP', 'mcp.server.fastmcp.server.FastMCP'],
    contextClasses: ['mcp.server.fastmcp.Context', 'mcp.server.fastmcp.server.Context'],
    contentClasses: [],
    toolHints: [...PYTHON_TOOL_HINTS, /\bFastMCP\b/],
    serverHint: /\bFastMCP\s*\(/,
    errorModule: 'mcp.server.fastmcp.exceptions',
    syncToolsBlockEventLoop: true,
    hidesExceptionText: false,
    versionCaveat: mcp1Caveat,
    contractTraits: mcp1Traits,
  },
  fastmcp: {
    language: 'python',
    label: 'FastMCP (standalone)',
    name: 'FastMCP',
    versionPackage: 'fastmcp',
    serverClasses: ['fastmcp.FastMCP', 'fastmcp.server.FastMCP', 'fastmcp.server.server.FastMCP'],
    contextClasses: ['fastmcp.Context', 'fastmcp.server.context.Context', 'fastmcp.server.Context'],
    contentClasses: [
      'fastmcp.utilities.types.Image',
      'fastmcp.utilities.types.Audio',
      'fastmcp.utilities.types.File',
      'fastmcp.tools.ToolResult',
      'fastmcp.tools.tool.ToolResult',
      'fastmcp.tools.base.ToolResult',
    ],
    toolHints: [...PYTHON_TOOL_HINTS, /\bFastMCP\b/],
    serverHint: /\bFastMCP\s*\(/,
    contractBuilder: 'fastmcp-function-parsing',
    errorModule: 'fastmcp.exceptions',
    docstring: 'parsed',
    readsAnnotatedStringDescription: true,
    // tags, output_schema and version (3.x+: see PythonContractTraits.toolVersions) shape the contract; the others are runtime behaviour only.
    toolOptions: ['tags', 'output_schema', 'version', 'timeout', 'run_in_thread', 'auth', 'enabled'],
    toolDecorator: 'factory-or-bare',
    refusesVariadicParams: true,
    rejectsUnderscoreParams: false,
    syncToolsBlockEventLoop: false,
    hidesExceptionText: false,
    serverModules: [],
    hasToolMethod: false,
    duplicateToolName: 'replaces',
    versionCaveat: (version) => {
      const major = fastmcpMajor(version);
      if (major !== undefined && major < 2) return `the workspace pins fastmcp ${version}: fastmcp 1.x is not modelled (the verified releases: ${FASTMCP_VERIFIED.join(', ')})`;
      if (version !== undefined && !isExactPin(version) && major !== fastmcpMajor(undefined))
        return `the workspace allows fastmcp ${version}, below the newest major: the installed release is not known; predicted as ${fastmcpTraits(version).release} publishes it`;
      return exactPinCaveat('fastmcp', FASTMCP_VERIFIED, version, fastmcpTraits(version).release);
    },
    contractTraits: fastmcpTraits,
  },
};

/** Every framework name, in table order. */
export const FRAMEWORK_NAMES = Object.keys(FRAMEWORKS) as Framework[];

/** The framework a qualified constructor name creates a server of (`fastmcp.FastMCP` -> fastmcp), if any. */
export function frameworkOfConstructor(qualified: string): Framework | undefined {
  return FRAMEWORK_NAMES.find((f) => FRAMEWORKS[f].language === 'python' && FRAMEWORKS[f].serverClasses.includes(qualified));
}

/** Whether `tool()` / `add_tool()` of this framework reads the keyword argument `key`. */
export function acceptsToolOption(framework: Framework, key: string): boolean {
  return FRAMEWORKS[framework].toolOptions.includes(key);
}

/** The union of every framework's hints: a source file that matches none defines no tools. */
const ANY_TOOL_HINT = new RegExp([...new Set(FRAMEWORK_NAMES.flatMap((f) => FRAMEWORKS[f].toolHints.map((r) => r.source)))].join('|'));

/** A cheap textual test that a source file may register tools (only those are worth analysing). */
/** The TypeScript framework whose server class is imported from `module` (`@modelcontextprotocol/server` -> ts-sdk-v2). */
export function frameworkOfModule(module: string): Framework | undefined {
  return FRAMEWORK_NAMES.find((f) => FRAMEWORKS[f].language === 'typescript' && FRAMEWORKS[f].serverModules.some((m) => module === m || module.startsWith(`${m}/`)));
}

export function mayDefineTools(text: string): boolean {
  return ANY_TOOL_HINT.test(text);
}

/** Whether `text` constructs a server of any framework of `language`. */
export function constructsServer(language: Language, text: string): boolean {
  return FRAMEWORK_NAMES.some((f) => FRAMEWORKS[f].language === language && FRAMEWORKS[f].serverHint.test(text));
}

/**
 * Server frameworks of npm that Toolsmith does not model: a server built with one lists tools the prediction does not
 * hold, so the whole-server prediction says so (a `tools` row naming the package and its form) instead of printing
 * "no MCP tools found". By weekly downloads on npm; each form as its README writes it.
 */
export const UNMODELLED_TS_SERVER_PACKAGES: Readonly<Record<string, string>> = {
  fastmcp: '`new FastMCP(...)` with `server.addTool({ name, parameters, execute })`',
  'mcp-framework': '`MCPTool` classes the framework loads from a tools folder',
  tmcp: "tmcp's `new McpServer(...)` with `server.tool(...)`",
  '@mastra/mcp': "Mastra's `new MCPServer({ tools })`",
  '@supabase/mcp-utils': '`createMcpServer({ tools })` of @supabase/mcp-utils',
  '@rekog/mcp-nest': '`@Tool()`-decorated methods of NestJS providers',
};

/** The unmodelled server framework a bare import specifier names (`fastmcp`, `@mastra/mcp/server`), if any. */
export function unmodelledServerPackage(specifier: string): string | undefined {
  const parts = specifier.split('/');
  const pkg = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return Object.hasOwn(UNMODELLED_TS_SERVER_PACKAGES, pkg) ? pkg : undefined;
}

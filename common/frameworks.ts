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
  /**
   * Python: a return annotation of mcp.types content classes publishes their pydantic schema as the output schema
   * (not modelled) instead of being excluded from structured output.
   */
  publishesContentBlockSchemas: boolean;
  /** TypeScript: the npm modules a server class is imported from for this framework (`@modelcontextprotocol/server`). */
  serverModules: readonly string[];
  /** TypeScript: whether McpServer still has the deprecated `server.tool(name, ...)` method (removed in v2). */
  hasToolMethod: boolean;
  /** What the framework does with a second tool of the same name on one server. */
  duplicateToolName: 'throws' | 'keeps-first' | 'replaces';
  /** Why the contract predicted for the workspace's pinned `version` (undefined: none pinned) may not be what runs. */
  versionCaveat(version: string | undefined): string | undefined;
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
const MCP1_VERIFIED = ['1.30.0'];

function mcp1Caveat(version: string | undefined): string | undefined {
  if (version !== undefined && MCP1_VERIFIED.includes(version)) return undefined;
  const major = majorOf(version);
  if (major !== undefined && major >= 2) return `the workspace pins mcp ${version}, which has no mcp.server.fastmcp module: this server fails at import (ModuleNotFoundError) and lists no tools`;
  const proven = MCP1_VERIFIED.join(', ');
  return version === undefined
    ? `mcp 1.x (mcp.server.fastmcp) with no pinned version in the workspace: predicted as mcp ${proven} publishes it; other 1.x releases differ (structured output, titles)`
    : `the workspace pins mcp ${version}: predicted as mcp ${proven} publishes it (the only 1.x version verified live); not verified for ${version}`;
}

/**
 * The TypeScript SDK releases whose contracts the builders reproduce: 1.x (zod-compat, checked live against the
 * installed 1.x in test/fidelity/typescript.test.ts) and 2.x through 2.4 (Standard Schema, checked live against
 * 2.4.0 in test/fidelity/typescript-v2.test.ts). A version outside these is named in an unresolved `contract` part.
 */
function tsSdkCaveat(pkg: string, modelledMajor: number, modelledUpTo: string | undefined, version: string | undefined): string | undefined {
  if (version === undefined) return undefined;
  const major = majorOf(version);
  if (major === undefined) return undefined;
  if (major !== modelledMajor) {
    return `the workspace has ${pkg} ${version}: only ${modelledMajor}.x of this package is modelled (its contract is not predicted for ${major}.x)`;
  }
  if (modelledUpTo !== undefined && compareVersions(lowerBound(version), modelledUpTo) > 0) {
    return `the workspace has ${pkg} ${version}: the contract is modelled on ${pkg} ${modelledUpTo}; later releases may publish tools differently`;
  }
  return undefined;
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

/** The newest @modelcontextprotocol/server release the v2 builder was checked against live. */
export const TS_SDK_V2_MODELLED = '2.4.0';

/** FastMCP's contract is modelled on 4.x; earlier majors differ. */
const FASTMCP_MODELLED_MAJOR = 4;

/** Registration forms every Python framework shares: `@server.tool`, `server.tool(fn)`, `server.add_tool(fn)`. */
const PYTHON_TOOL_HINTS = [/\.tool\s*\(/, /@[\w.]+\.tool\b/, /\badd_tool\s*\(/];

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
    toolHints: [/registerTool\s*\(/, /\.tool\s*\(/, /\bMcpServer\b/, /\bListToolsRequestSchema\b/],
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
    publishesContentBlockSchemas: false,
    serverModules: ['@modelcontextprotocol/sdk'],
    hasToolMethod: true,
    duplicateToolName: 'throws',
    versionCaveat: (version) => tsSdkCaveat('@modelcontextprotocol/sdk', 1, undefined, version),
  },
  'ts-sdk-v2': {
    language: 'typescript',
    label: '@modelcontextprotocol/server (TypeScript SDK v2)',
    name: 'the TypeScript SDK v2',
    versionPackage: '@modelcontextprotocol/server',
    serverClasses: ['McpServer', 'Server'],
    contextClasses: [],
    contentClasses: [],
    toolHints: [/registerTool\s*\(/, /\bMcpServer\b/],
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
    publishesContentBlockSchemas: false,
    serverModules: ['@modelcontextprotocol/server'],
    hasToolMethod: false,
    duplicateToolName: 'throws',
    versionCaveat: (version) => tsSdkCaveat('@modelcontextprotocol/server', 2, TS_SDK_V2_MODELLED, version),
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
    publishesContentBlockSchemas: false,
    versionCaveat: () => undefined,
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
    publishesContentBlockSchemas: true,
    versionCaveat: mcp1Caveat,
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
    // tags and output_schema shape the contract; the others are runtime behaviour only.
    toolOptions: ['tags', 'output_schema', 'timeout', 'run_in_thread', 'auth', 'enabled'],
    toolDecorator: 'factory-or-bare',
    refusesVariadicParams: true,
    rejectsUnderscoreParams: false,
    syncToolsBlockEventLoop: false,
    hidesExceptionText: false,
    publishesContentBlockSchemas: false,
    serverModules: [],
    hasToolMethod: false,
    duplicateToolName: 'replaces',
    versionCaveat: (version) => {
      const major = majorOf(version);
      return major !== undefined && major < FASTMCP_MODELLED_MAJOR
        ? `the workspace pins fastmcp ${version}; the contract is predicted for fastmcp ${FASTMCP_MODELLED_MAJOR}.x (titles, docstring parsing and schema post-processing changed across majors)`
        : undefined;
    },
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

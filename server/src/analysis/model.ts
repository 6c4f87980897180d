/**
 * The language-neutral model every front-end produces and every consumer (contract, rules, LSP, CLI, preview) reads.
 *
 * Data flows one way: source text -> front-end (typescript/ or python/, which calls contract/ for the published
 * JSON) -> ToolDefinition[] -> rules. This file imports only common/; contract/ imports nothing else from analysis/
 * but the type modules (this one and python/pytypes.ts): see docs/DEVELOPING.md, "Code map".
 * A front-end never knows a rule exists; a rule never parses source. Everything a rule or a quick fix needs
 * (values, source spans, handler facts) is carried here.
 *
 * Spans are half-open character offsets [start, end) into the text of `file` (an absolute path, or the
 * document URI for unsaved documents). The LSP/CLI layers turn them into line/column positions.
 */

import type { JsonSchema, JsonValue, Language } from '../../../common/json';
// The frameworks and what is known about each live in common/ (the client and the webviews read them too).
import type { Framework } from '../../../common/frameworks';
export type { Framework, JsonSchema, JsonValue, Language };

export interface Span {
  file: string;
  start: number;
  end: number;
}

/** Something the analyser could not resolve statically. Shown as "unresolved" — never guessed. */
export interface Unresolved {
  /** Which part of the contract is affected, e.g. "description", "inputSchema.properties.query", "name". */
  part: string;
  reason: string;
  span: Span;
}

/** A statically known value with where it was written. `value` is undefined when unresolved. */
export interface Located<T> {
  value: T | undefined;
  /** Where the value is written (the literal itself, possibly in another file through a const/import). */
  span: Span;
  /** Set when the expression could not be resolved; `value` is then undefined. */
  unresolved?: Unresolved;
}

/** One constraint written in source: `.max(100)`, `Field(le=100)`, `.describe("...")`, `ge=1`... */
export interface ConstraintFact {
  /** JSON Schema keyword it produces (maxLength, maximum, minimum, pattern, format, description, default, ...). */
  keyword: string;
  value: JsonValue | undefined;
  span: Span;
}

export interface ParameterDefinition {
  /** The property name the model sees in inputSchema.properties. */
  name: string;
  /** The name as written (Python parameter or TS object key). */
  nameSpan: Span;
  /** Whole parameter / property declaration. */
  span: Span;
  /** The type part: TS the zod expression; Python the annotation (undefined when the parameter has none). */
  typeSpan?: Span;
  /** Type as written, e.g. `z.string().max(10)` or `Annotated[int, Field(ge=1)]`; undefined when untyped. */
  typeText?: string;
  /** The JSON Schema of this property exactly as published (undefined when unresolved). */
  schema?: JsonSchema;
  required: boolean;
  /** The description the model sees for this parameter, with where it comes from. */
  description?: Located<string> & { origin: 'describe' | 'field' | 'docstring' | 'meta' | 'other' };
  /** Every constraint written in source for this parameter. */
  constraints: ConstraintFact[];
  /** Default value as written, if any. */
  defaultValue?: Located<JsonValue>;
  /** True when the language type is "any"/"unknown" or missing (Python without annotation). */
  untyped: boolean;
  /** Python: the parameter is declared with a leading underscore / other unusable shapes. */
  pythonKind?: 'positional' | 'keyword' | 'varargs' | 'kwargs';
}

export interface AnnotationEntry {
  key: string;
  value: JsonValue | undefined;
  span: Span;
  keySpan: Span;
  /** Optional (rules B): the value expression alone, so a fix can flip `true` -> `false` in place. */
  valueSpan?: Span;
}

/** A call made inside the handler body — the facts security/IO rules need, extracted by the front-end. */
export interface CallFact {
  /** Dotted callee as written after resolving imports where easy: `fs.readFileSync`, `subprocess.run`, `os.system`, `exec`, `requests.get`, `time.sleep`. */
  callee: string;
  span: Span;
  /** Names of handler parameters whose value (directly or via simple local aliases) reaches an argument. */
  paramsInArgs: string[];
  /** `shell: true` / `shell=True` present among the arguments. */
  shell: boolean;
  /** Awaited (TS `await x()`, Python `await x()`). */
  awaited: boolean;
  /**
   * Optional (recall): the callee is a function of the same module that returns a file-system path joined from some of
   * its arguments (`os.path.join(BASE, name)`, `Path(BASE) / name`, `path.join(ROOT, p)`) and never checks that the
   * result stays inside a root (no resolve + startswith / is_relative_to / commonpath in it): the handler parameters
   * that reach those arguments.
   */
  joinsUncheckedPath?: string[];
  /**
   * Optional (recall): parameters reaching the argument an HTTP client or a browser reads the URL from — the first
   * positional argument (the second for `*.request(method, url)`), or a `url` keyword / property.
   */
  paramsInUrlArg?: string[];
  /**
   * Optional (recall): the callee is a function of the same module, and calls inside it (or in the helpers it calls
   * in turn) take their URL argument (as `paramsInUrlArg` reads it) from some of its arguments; absent when the
   * helper checks the URL itself (urlparse / startswith / a validator, or an httpx request hook of the module that
   * raises). `callee` is the call inside the helper, `params` the handler parameters reaching it.
   */
  urlArgInHelper?: { callee: string; params: string[] }[];
}

/** Error internals sent to the model (see ReturnFact.leaks). */
export interface ErrorLeak {
  kind: 'stack' | 'stringified-error' | 'traceback';
  span: Span;
  ownException?: boolean;
  /** Optional (Python): the exception is bound by a catch-all clause (`except Exception as e`, `BaseException`). */
  catchAll?: boolean;
  /** Optional (Python): the literal text of the f-string the exception is formatted into (`f"Unexpected error: {e}"` -> `Unexpected error: `). */
  text?: string;
}

/** A `return` (or the implicit final expression) of the handler. */
export interface ReturnFact {
  span: Span;
  /** TS: the returned object literal's keys; Python: undefined. */
  keys?: string[];
  /** TS: `content` array has an item with type "text". */
  hasTextContent?: boolean;
  /**
   * TS: `content` holds something else than literal text blocks — a variable (a text block built earlier), a value
   * passed through, an image/audio/resource block: the model gets that, so the result is not empty.
   */
  hasOtherContent?: boolean;
  /** TS: the returned object sets `structuredContent`. */
  hasStructuredContent?: boolean;
  /** TS/Py: `isError: true` set literally. */
  isError?: boolean;
  /** Literal text(s) sent to the model in this return (text content items, or returned strings). */
  texts: string[];
  /** The returned value looks like an error payload: `{ error: ... }`, text starting with "Error", JSON with an error key. */
  looksLikeError: boolean;
  /** What kind of value is returned: object literal / dict / model instance / string / other. */
  valueKind: 'object' | 'string' | 'list' | 'none' | 'other';
  /**
   * Error internals passed to the model: `String(err)`, `JSON.stringify(err)`, `err.stack`, `traceback.format_exc()`,
   * `str(e)`. Optional (Python): `ownException` when the stringified exception is caught only as classes the project
   * defines (their text is the author's message).
   */
  leaks: ErrorLeak[];
  /** Insertion point for a fix that adds a property to the returned object (TS: after the last property). */
  objectEndOffset?: number;
  /** Optional (rules B): the returned expression itself (Python: after `return`; TS: the returned object). */
  valueSpan?: Span;
  /** Optional (rules B): TS offset just after the `{` of the returned object literal (a property inserted there is always valid). */
  objectStartOffset?: number;
  /** Optional (rules B): TS the expression given to `structuredContent` (or the shorthand identifier). */
  structuredContentSpan?: Span;
  /** Optional (rules B): TS the `content` value when it is an array literal (`[ ... ]`). */
  contentArraySpan?: Span;
  /** Optional (rules B): the error message expression inside an error-looking return (`"..."` in `{"error": "..."}` / the returned string). */
  errorMessageSpan?: Span;
  /** Optional (rules B): TS top-level properties of the structuredContent value with their JSON type, from the type checker. */
  structuredShape?: { name: string; kind: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null' | 'unknown'; optional?: boolean }[];
}

export interface HandlerDefinition {
  span: Span;
  /** The function name (Python) or undefined for inline arrows. */
  name?: string;
  isAsync: boolean;
  /** Whole body span. */
  bodySpan: Span;
  calls: CallFact[];
  returns: ReturnFact[];
  /** Python: `raise` statements with their exception names (`ToolError`, `ValueError`). */
  raises: {
    exception: string;
    span: Span;
    message?: string;
    /** Optional (rules B): error internals in the raised message (`str(e)`, traceback). */ leaks?: ErrorLeak[];
  }[];
  /** Python return annotation as written (`dict`, `MyModel`, `list[str]`, `str`), undefined if none. */
  returnAnnotation?: string;
  /** The handler checks containment of a path (path.resolve + startsWith / relative, Path.resolve().is_relative_to). */
  hasPathContainmentCheck: boolean;
  /**
   * Optional (recall): the handler looks at a URL argument's scheme or host before using it: Python `urlparse` /
   * `urlsplit`, `.startswith(...)` on a parameter, a validator named for URLs; TS `new URL(param)`, `.startsWith` on a
   * parameter, a validator named for URLs.
   */
  checksUrl?: boolean;
  /**
   * Optional (TS): the handler declares no parameter, so what the model passes is never read on the server (an MCP
   * App's payload the host's view renders, such as a Three.js scene's code); absent in Python (the parameters are the input).
   */
  ignoresArguments?: boolean;
  /** Optional (rules B): Python offset of the `)` closing the def's parameter list (where a new parameter is appended). */
  paramsEndOffset?: number;
  /** Optional: Python offset just after the last parameter's text (before a trailing comma or comment); undefined without parameters. */
  paramsContentEndOffset?: number;
}

export interface ToolDefinition {
  language: Language;
  framework: Framework;
  /** Version of the framework read from the workspace (package.json / lock / pyproject / requirements), if known. */
  frameworkVersion?: string;
  /** Absolute path (or URI) of the file that registers the tool. */
  file: string;
  /** Identity of the server instance the tool is registered on (to group tools and find duplicates). */
  server: { id: string; variable: string; name?: string; span: Span };
  registration: {
    /** registerTool | tool (deprecated TS overloads) | decorator (Python @x.tool) | add_tool */
    kind: 'registerTool' | 'tool' | 'decorator' | 'add_tool';
    /** The whole call / decorated function. */
    span: Span;
    /** The callee expression (`server.registerTool`, `mcp.tool`) — used by fixes rewriting the call. */
    calleeSpan: Span;
    /** Python: decorator written without parentheses (`@mcp.tool`). */
    decoratorCalled?: boolean;
    /** TS `server.tool(...)`: which overload (argument kinds in order). */
    overload?: string[];
    /** Span of the config object literal (TS registerTool 2nd argument, Python decorator arguments). */
    configSpan?: Span;
    /**
     * TS: the guard the registration runs under in its function or file, as written (`clientSupportsRoots`,
     * `!o.skipImageDownloads`), or for a low-level list chosen at run time the condition its entry is in the list
     * under (`!readOnly && isToolAllowed(t.name)`): the tool is listed only when it holds at run time. The contract is unaffected.
     */
    condition?: { text: string; span: Span };
    /**
     * The arms of `if`/`else` (`elif`, `?:`) the registration sits in, outermost first: the statement (`<file>:<offset>`)
     * and which arm. Two registrations in different arms of one statement are never both made (the same name
     * registered in each arm is no duplicate).
     */
    arms?: RegistrationArm[];
  };
  name: Located<string>;
  /**
   * FastMCP `version=` (3.x+): this registration is one version of the tool named `name`. Only the highest version
   * of a name is listed (the analysis keeps that one; PythonContractTraits.toolVersions); set also on a release
   * without versions, where `version=` fails the server.
   */
  version?: Located<string>;
  /** Where tools/list places the tool when not at its registration: FastMCP's highest version, at its name's first registration. */
  listedAt?: Span;
  title?: Located<string>;
  description?: Located<string> & {
    /** Where it comes from: explicit (description:/description=), docstring, deprecated overload argument. */
    origin: 'explicit' | 'docstring' | 'argument';
  };
  /** Python: the docstring as written (raw text) and its parsed Args entries, whatever the framework does with them. */
  docstring?: {
    raw: string;
    span: Span;
    args: { name: string; description: string; span: Span }[];
    argsSectionSpan?: Span;
  };
  parameters: ParameterDefinition[];
  /** Where the input schema is written (TS inputSchema value / shape; Python the parameter list). */
  inputSchemaSpan?: Span;
  /** True when the TS inputSchema root is not an object / raw shape. */
  inputSchemaNotObject?: boolean;
  /** Optional (rules B): TS the object literal of the raw shape (or of `z.object({...})`'s argument), where a property can be added. */
  inputShapeSpan?: Span;
  outputSchemaSpan?: Span;
  annotations?: { span: Span; entries: AnnotationEntry[] };
  handler?: HandlerDefinition;
  /** The exact object tools/list will return for this tool (key order irrelevant). Undefined parts are listed in `unresolved`. */
  contract: JsonSchema;
  /** Everything that could not be resolved statically. Non-empty => the contract is partial. */
  unresolved: Unresolved[];
  /** Zod/pydantic constructs JSON Schema cannot carry (z.date(), .transform, z.bigint()...). */
  unrepresentable: { construct: string; span: Span }[];
}

/** Facts about a file that are not tied to one tool (server-level rules, suppression). */
export interface FileFacts {
  file: string;
  language: Language;
  framework?: Framework;
  /**
   * Python `from mcp.server.fastmcp import FastMCP` — the removed 1.x import. TypeScript: every import declaration
   * of the 1.x package `@modelcontextprotocol/sdk` (its v2 successors are other packages), with the module
   * specifier (`moduleSpan`: the string literal, quotes included) and the named imports.
   */
  v1Imports: { span: Span; text: string; module?: string; moduleSpan?: Span; names?: { imported: string; local: string; span: Span }[]; typeOnly?: boolean }[];
  /** TS, for a file with v1 imports: the v1 value imports of the modules it imports by relative path (one level). */
  moduleV1Imports?: { file: string; imports: FileFacts['v1Imports'] }[];
  /** Servers created/used in the file. */
  servers: { id: string; variable: string; name?: string; span: Span; constructorSpan?: Span }[];
  /**
   * Python: the servers this file's analysis composes into another (FastMCP `mount`, `import_server`, providers): their
   * tools are listed only through the servers composing them, so a whole-server prediction drops them where another
   * module, analysed alone, lists them as a server of their own.
   */
  composedServers?: string[];
  /** Python: the servers this file's analysis composes others into; their tools/list order is this analysis's. */
  composingServers?: string[];
  /** Files this file's tools depend on (imported schema modules), for re-analysis on change. */
  dependencies: string[];
  /** Syntax errors reported by the parser (analysis still returns what it could). */
  syntaxErrors: { message: string; span: Span }[];
  /**
   * TypeScript SDK 1.x: the libraries its contracts were rebuilt and converted with, and whose copies
   * (`workspace`: its own node_modules, trusted; `bundled`: Toolsmith's, with the reason when the workspace has one).
   */
  converters?: { library: string; version: string; source: 'workspace' | 'bundled'; reason?: string }[];
}

/** One prompt argument as prompts/list publishes it, with where its schema is written. */
export interface PromptArgumentDefinition {
  name: string;
  description?: string;
  required: boolean;
  span: Span;
}

/**
 * A prompt registration (TS `registerPrompt(name, config, cb)` on both SDK lines, 1.x `prompt(name, [description],
 * [argsSchema], cb)`; Python `@server.prompt(...)` on a def (`decorator`), `server.add_prompt(...)`, or a literal
 * `Prompt(...)` a low-level server's list_prompts handler returns (`handler`)): what prompts/list publishes for it,
 * like a tool's contract for tools/list.
 */
/** What a low-level server's list handler yields (prompts/list, resources/list, resources/templates/list), TS and Python alike. */
export interface ListHandlerSurfaces {
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
}

/** A part of a low-level list the analysis cannot read: one entry (`entry`), or a list of unknown length (`list`). */
export interface UnseenListPart {
  unseen: 'entry' | 'list';
  reason: string;
  span: Span;
}

/** One arm of an `if`/`else` (`elif`, `?:`) a registration sits in (ToolDefinition.registration.arms). */
export interface RegistrationArm {
  /** The statement, as `<file>:<offset>`. */
  statement: string;
  /** Which of its arms: `then`/`else` (TypeScript), the index of the body (Python). */
  arm: string;
}

export interface PromptDefinition {
  language: Language;
  framework: Framework;
  frameworkVersion?: string;
  file: string;
  server: ToolDefinition['server'];
  registration: { kind: 'registerPrompt' | 'prompt' | 'decorator' | 'add_prompt' | 'handler'; span: Span; calleeSpan: Span; configSpan?: Span };
  name: Located<string>;
  title?: Located<string>;
  description?: Located<string>;
  /** Undefined when the arguments are not statically known (then listed in `unresolved`). */
  arguments?: PromptArgumentDefinition[];
  /** The exact object prompts/list returns for this prompt (key order irrelevant). Undefined parts are listed in `unresolved`. */
  contract: { [key: string]: JsonValue };
  unresolved: Unresolved[];
}

/** One key of a resource's metadata object as written (`cacheHint: { ttlMs: -1 }`, `annotations: {...}`), for rules. */
export interface ResourceMetadataEntry {
  key: string;
  /** The JSON value, undefined when not statically known. */
  value: JsonValue | undefined;
  span: Span;
  /** Its entries when it is an object literal (annotations, cacheHint). */
  entries?: AnnotationEntry[];
}

/**
 * A resource registration (TS `registerResource(name, uriOrTemplate, config, cb)` on both SDK lines, 1.x
 * `resource(name, uriOrTemplate, [metadata], cb)`; Python `@server.resource(uri, ...)` on a def (`decorator`: a URI
 * with parameters is a template), `server.add_resource(...)`, or a literal a low-level server's list handler returns
 * (`handler`)): a static URI is one resources/list entry, a template one resources/templates/list entry (and, with a
 * TS `list` callback, resources/list entries known only at run time).
 */
export interface ResourceDefinition {
  language: Language;
  framework: Framework;
  frameworkVersion?: string;
  file: string;
  server: ToolDefinition['server'];
  registration: { kind: 'registerResource' | 'resource' | 'decorator' | 'add_resource' | 'handler'; span: Span; calleeSpan: Span; configSpan?: Span };
  /** `resource`: a static URI (resources/list); `template`: a ResourceTemplate (resources/templates/list). */
  kind: 'resource' | 'template';
  name: Located<string>;
  /** The URI (a resource) or the URI template (a template), where it is written. */
  uri: Located<string>;
  title?: Located<string>;
  description?: Located<string>;
  mimeType?: Located<string>;
  /** The metadata keys as written (config of registerResource, metadata of resource()), when it is an object literal. */
  metadata: ResourceMetadataEntry[];
  /** A template's `list` callback: resources/list also holds what it returns at run time (listed in `unresolved`). */
  listCallback?: Span;
  /**
   * What the SDK throws on at this registration (the server does not start): an invalid `cacheHint` (v2), a URI
   * template it cannot parse or whose variables are not the function's parameters (Python), a URI pydantic's AnyUrl
   * refuses (`uri`: Python mcp 1.x, FastMCP).
   */
  throws?: { part: 'cacheHint' | 'uriTemplate' | 'uri'; message: string; span: Span }[];
  /** The exact object resources/list (or resources/templates/list) returns for it. Undefined parts are listed in `unresolved`. */
  contract: { [key: string]: JsonValue };
  unresolved: Unresolved[];
}

export interface AnalysisResult {
  tools: ToolDefinition[];
  files: FileFacts[];
  /** The prompts registered in the file (absent where there are none). */
  prompts?: PromptDefinition[];
  /** The resources and resource templates registered in the file, in registration order (absent where there are none). */
  resources?: ResourceDefinition[];
  /**
   * Only from a whole-server analysis (`analysis/entry.ts`): the modules the entry's module graph ran, in the order
   * the runtime runs them; the imports it could not follow (part `module`, with the reason and where); and the
   * servers those modules construct.
   */
  graph?: ModuleGraphFacts;
}

/** What a whole-server analysis followed from its entry (AnalysisResult.graph). */
export interface ModuleGraphFacts {
  modules: string[];
  unfollowed: Unresolved[];
  servers: FileFacts['servers'];
}

/** Reads other workspace files (imports across files); returns undefined when the file does not exist. */
export interface FileHost {
  readFile(path: string): string | undefined;
  fileExists(path: string): boolean;
  /** Names in a directory, or undefined when it cannot be listed. Optional: a host without it sees no installed metadata. */
  listDir?(path: string): string[] | undefined;
}

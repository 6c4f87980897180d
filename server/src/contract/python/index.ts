/**
 * The exact tools/list entry each Python framework publishes for a tool:
 *  - `mcp` 2.x MCPServer (mcp/server/mcpserver/tools/base.py + utilities/func_metadata.py): pydantic model
 *    `<fn>Arguments` with titles and `$defs`; description = `description=` or the raw `__doc__` or "";
 *    output schema from the return annotation (`<fn>Output` wrapper, `<fn>DictOutput`, models as-is).
 *  - `mcp-v1` (the removed `mcp.server.fastmcp.FastMCP`): the same construction (MCPServer is its rename), proven
 *    live against mcp 1.30.0; content-block return types differ (no exclusion in 1.x) and are left unresolved.
 *  - standalone FastMCP (fastmcp/tools/function_parsing.py + tools/base.py): function TypeAdapter schema,
 *    titles pruned, docstring summary and Args descriptions, default title, `_meta.fastmcp.tags`,
 *    `$ref`s dereferenced at list time, non-object outputs wrapped with `x-fastmcp-wrap-result`.
 */
import type { Framework, JsonSchema, JsonValue, Span, Unresolved } from '../../analysis/model';
import type { ClassInfo, FieldInfo, PyType } from '../../analysis/python/pytypes';
import { cleandoc } from './cleandoc';
import { SchemaGenerator, Unresolvable, titleFromName, type FieldSpec, type GeneratorOptions } from './pydantic';
import { compressSchema, dereferenceRefs, isObjectSchema } from './fastmcp-schema';
import { FRAMEWORKS, type ContractBuilder, type PythonContractTraits } from '../../../../common/frameworks';

export interface PyParamSpec {
  name: string;
  /** Undefined when the parameter has no annotation. */
  type?: PyType;
  fields: FieldInfo[];
  default?: { value: JsonValue; python?: 'tuple' | 'set' } | 'factory';
  /** A default the analyser could not evaluate (the schema's `default` is then unresolved). */
  defaultUnresolved?: { reason: string; span: Span };
  span: Span;
}

/** What every Python registration (tool, prompt, resource) reads of its framework, its function and its arguments. */
export interface PyRegistrationSpec {
  framework: Framework;
  /** The framework version the workspace pins (undefined: none); its profile's contractTraits say what differs. */
  version?: string;
  /** The Python the workspace runs (major, minor), when known: below 3.12 pydantic refuses `typing.TypedDict`. */
  pythonVersion?: readonly [number, number];
  /** The Python function name (`fn.__name__`). */
  fnName: string;
  title?: string;
  /** `description=` given explicitly. */
  explicitDescription?: string;
  /** `fn.__doc__` as the running Python stores it. */
  rawDoc?: string;
  meta?: { [k: string]: JsonValue };
  tags?: string[];
  /** Registration arguments the analyser cannot model (each an unresolved part). */
  unresolvedArgs: Unresolved[];
  span: Span;
}

export interface PyToolSpec extends PyRegistrationSpec {
  name: string;
  /** FastMCP's parsed docstring. */
  parsedDoc?: { description?: string; args: { name: string; description: string }[]; unsupportedStyle?: string };
  params: PyParamSpec[];
  /** Return annotation: undefined = none written. */
  returnType?: PyType;
  structuredOutput?: boolean;
  /** FastMCP `output_schema=`: null disables, an object replaces; `model`: `Model.model_json_schema()` (pydantic's validation-mode schema of that class). */
  outputSchemaOverride?: { value: JsonSchema | null } | { model: PyType };
  annotations?: { [k: string]: JsonValue };
  /** FastMCP `version=` (3.x+): this registration's version, as the string FastMCP stores. */
  toolVersion?: string;
}

export interface PyContractResult {
  contract: JsonSchema;
  /** Per parameter: its published property schema. */
  properties: Map<string, JsonSchema>;
  unresolved: Unresolved[];
  /**
   * The tool makes its server fail at this version: at `import` (registration raises, the module lists nothing) or
   * at `list` (tools/list fails for the whole server). Every tool it takes down is unresolved with the reason.
   */
  serverFailure?: { when: 'import' | 'list'; reason: string; span: Span };
}

/** The traits of the spec's framework at its pinned version (undefined for a framework without any). */
export function traitsOf(spec: Pick<PyToolSpec, 'framework' | 'version'>): PythonContractTraits | undefined {
  return FRAMEWORKS[spec.framework].contractTraits?.(spec.version);
}

/** Below 3.12, pydantic refuses `typing.TypedDict`; undefined when the workspace does not say. */
function stdlibTypedDictAccepted(spec: PyToolSpec): boolean | undefined {
  const v = spec.pythonVersion;
  return v ? v[0] > 3 || (v[0] === 3 && v[1] >= 12) : undefined;
}

/** The `typing.TypedDict` classes a type reaches (through containers, unions and class fields). */
function stdlibTypedDicts(t: PyType, out: ClassInfo[] = [], seen = new Set<string>()): ClassInfo[] {
  switch (t.kind) {
    case 'annotated':
      return stdlibTypedDicts(t.base, out, seen);
    case 'union':
      for (const m of t.members) stdlibTypedDicts(m, out, seen);
      return out;
    case 'list':
    case 'set':
    case 'frozenset':
    case 'sequence':
      if (t.item) stdlibTypedDicts(t.item, out, seen);
      return out;
    case 'tuple':
      for (const i of t.items) stdlibTypedDicts(i, out, seen);
      return out;
    case 'dict':
      if (t.key) stdlibTypedDicts(t.key, out, seen);
      if (t.value) stdlibTypedDicts(t.value, out, seen);
      return out;
    case 'class':
      if (seen.has(t.cls.key)) return out;
      seen.add(t.cls.key);
      if (t.cls.kind === 'typeddict' && t.cls.stdlibTypedDict) out.push(t.cls);
      for (const f of t.cls.fields) stdlibTypedDicts(f.type, out, seen);
      return out;
    default:
      return out;
  }
}

/** Whether a class reaches itself through its fields (pydantic then emits a `$ref` root). */
function selfReferencing(cls: ClassInfo): boolean {
  const seen = new Set<string>();
  const walk = (t: PyType): boolean => {
    switch (t.kind) {
      case 'annotated':
        return walk(t.base);
      case 'union':
        return t.members.some(walk);
      case 'list':
      case 'set':
      case 'frozenset':
      case 'sequence':
        return !!t.item && walk(t.item);
      case 'tuple':
        return t.items.some(walk);
      case 'dict':
        return (!!t.key && walk(t.key)) || (!!t.value && walk(t.value));
      case 'class':
        if (t.cls.key === cls.key) return true;
        if (seen.has(t.cls.key)) return false;
        seen.add(t.cls.key);
        return t.cls.fields.some((f) => walk(f.type));
      default:
        return false;
    }
  };
  return cls.fields.some((f) => walk(f.type));
}

/** Whether any model a type reaches refers to itself. */
function reachesRecursiveModel(t: PyType, seen = new Set<string>()): boolean {
  switch (t.kind) {
    case 'annotated':
      return reachesRecursiveModel(t.base, seen);
    case 'union':
      return t.members.some((m) => reachesRecursiveModel(m, seen));
    case 'list':
    case 'set':
    case 'frozenset':
    case 'sequence':
      return !!t.item && reachesRecursiveModel(t.item, seen);
    case 'tuple':
      return t.items.some((i) => reachesRecursiveModel(i, seen));
    case 'dict':
      return (!!t.key && reachesRecursiveModel(t.key, seen)) || (!!t.value && reachesRecursiveModel(t.value, seen));
    case 'class':
      if (seen.has(t.cls.key)) return false;
      seen.add(t.cls.key);
      return selfReferencing(t.cls) || t.cls.fields.some((f) => reachesRecursiveModel(f.type, seen));
    default:
      return false;
  }
}

/** The Python builders, by the profile's contractBuilder (a new builder without an entry fails to compile). */
const PYTHON_BUILDERS: Record<Exclude<ContractBuilder, 'sdk-zod-compat' | 'sdk-standard-schema'>, (spec: PyToolSpec) => PyContractResult> = {
  'mcp-func-metadata': mcpContract,
  'fastmcp-function-parsing': fastmcpContract,
};

export function buildPythonContract(spec: PyToolSpec): PyContractResult {
  const builder = FRAMEWORKS[spec.framework].contractBuilder;
  if (builder === 'sdk-zod-compat' || builder === 'sdk-standard-schema') throw new Error(`${spec.framework} is not a Python framework: contract/typescript builds its contracts`);
  return PYTHON_BUILDERS[builder](spec);
}

/** Thrown where a construct makes the server itself fail at this version (see PyContractResult.serverFailure). */
class ServerFails extends Unresolvable {
  constructor(
    readonly when: 'import' | 'list',
    reason: string,
    span: Span,
  ) {
    super(reason, span);
  }
}

function collect(unresolved: Unresolved[], part: string, e: unknown, fallback: Span, result?: { serverFailure?: PyContractResult['serverFailure'] }): void {
  if (e instanceof ServerFails && result) result.serverFailure ??= { when: e.when, reason: e.reason, span: e.span };
  if (e instanceof Unresolvable) unresolved.push({ part, reason: e.reason, span: e.span });
  else unresolved.push({ part, reason: `internal: ${e instanceof Error ? e.message : String(e)}`, span: fallback });
}

// ------------------------------------------------------------------------------------------ official SDK

function generatorOptions(spec: PyToolSpec, traits: PythonContractTraits | undefined): GeneratorOptions {
  return { stdlibTypedDictAccepted: stdlibTypedDictAccepted(spec) === true, pydantic211: traits?.pydantic === '2.11' };
}

function mcpContract(spec: PyToolSpec): PyContractResult {
  const unresolved: Unresolved[] = [...spec.unresolvedArgs];
  const properties = new Map<string, JsonSchema>();
  const traits = traitsOf(spec);
  const options = generatorOptions(spec, traits);
  const gen = new SchemaGenerator('validation', options);
  const props: JsonSchema = {};
  const required: string[] = [];
  for (const p of spec.params) {
    const part = `inputSchema.properties.${p.name}`;
    if (p.defaultUnresolved) unresolved.push({ part: `${part}.default`, reason: p.defaultUnresolved.reason, span: p.defaultUnresolved.span });
    try {
      const fs: FieldSpec = { name: p.name, type: p.type ?? { kind: 'any', span: p.span }, fields: p.fields, default: p.default, span: p.span };
      // func_metadata: an unannotated parameter is WithJsonSchema({"title": name, "type": "string"}).
      if (!p.type) fs.withJsonSchema = { title: p.name, type: 'string' };
      const schema = gen.fieldSchema(fs);
      props[p.name] = schema;
      properties.set(p.name, schema);
    } catch (e) {
      collect(unresolved, part, e, p.span);
    }
    if (isRequired(p)) required.push(p.name);
  }
  const input: JsonSchema = { type: 'object', properties: props };
  if (required.length) input.required = required;
  input.title = `${spec.fnName}Arguments`;
  const defs = gen.defsObject();
  if (defs) input.$defs = defs;

  const contract: JsonSchema = { name: spec.name };
  if (spec.title !== undefined) contract.title = spec.title;
  contract.description = spec.explicitDescription ?? spec.rawDoc ?? '';
  contract.inputSchema = input;
  const result: PyContractResult = { contract, properties, unresolved };
  try {
    const out = mcpOutputSchema(spec, traits, options);
    if (out) contract.outputSchema = out;
  } catch (e) {
    collect(unresolved, 'outputSchema', e, spec.span, result);
  }
  if (spec.annotations) contract.annotations = spec.annotations;
  if (spec.meta) contract._meta = spec.meta;
  return result;
}

function isRequired(p: PyParamSpec): boolean {
  if (p.default !== undefined || p.defaultUnresolved) return false;
  return !p.fields.some((f) => f.default || f.defaultFactory);
}

function unwrapAnnotated(t: PyType): PyType {
  while (t.kind === 'annotated') t = t.base;
  return t;
}

function returnsContent(t: PyType): boolean {
  t = unwrapAnnotated(t);
  if (t.kind === 'content') return true;
  if (t.kind === 'union') return t.members.some(returnsContent);
  if (t.kind === 'list' || t.kind === 'sequence') return !!t.item && returnsContent(t.item);
  if (t.kind === 'tuple') return t.items.some(returnsContent);
  return false;
}

function mcpOutputSchema(spec: PyToolSpec, traits: PythonContractTraits | undefined, options: GeneratorOptions): JsonSchema | undefined {
  // mcp 1.8 has no structured output: no outputSchema whatever the annotation.
  if (spec.structuredOutput === false || traits?.structuredOutput === false) return undefined;
  const ret = spec.returnType;
  if (!ret) {
    if (spec.structuredOutput === true) throw new Unresolvable('structured_output=True without a return annotation: the SDK raises InvalidSignature', spec.span);
    return undefined;
  }
  const t = unwrapAnnotated(ret);
  if (t.kind === 'content' && t.name === 'CallToolResult') return undefined;
  const release = traits?.release ?? FRAMEWORKS[spec.framework].name;
  // mcp 1.x and 2.0 have no content-block exclusion: TextContent & co. are plain pydantic models there, published with
  // the schema of mcp.types as that release defines it (seen live; not modelled).
  if (traits?.contentBlockOutputSchema && returnsContentDeep(t))
    throw new Unresolvable(`${release} publishes the pydantic schema of the mcp.types content classes for ${t.kind === 'content' ? t.name : 'this return type'}; not modelled`, t.span);
  // typing.TypedDict below Python 3.12: the SDK rebuilds a top-level one (1.x and 2.0 as a model, 2.1+ as a
  // typing_extensions TypedDict); anywhere else pydantic refuses it while the tool is registered.
  const stdlib = stdlibTypedDicts(ret);
  const accepted = stdlibTypedDictAccepted(spec);
  const topLevel = t.kind === 'class' && t.cls.kind === 'typeddict' ? t.cls : undefined;
  if (stdlib.length && accepted === undefined)
    throw new Unresolvable(`${stdlib[0].name} derives from typing.TypedDict, which pydantic refuses below Python 3.12, and the workspace does not say which Python runs`, stdlib[0].span);
  if (stdlib.length && !accepted && stdlib.some((c) => c !== topLevel))
    throw new ServerFails(
      'import',
      `${stdlib.find((c) => c !== topLevel)!.name} derives from typing.TypedDict, which pydantic refuses below Python 3.12: ${release} raises PydanticUserError registering this tool, and the server lists no tools`,
      ret.span,
    );
  if (topLevel && traits?.typedDictOutput === 'model') {
    // _create_model_from_typeddict: a model named like the TypedDict, no docstring, a key that is not required gets default None.
    const gen = new SchemaGenerator('validation', { ...options, acceptedTypedDict: topLevel.key });
    const fields = topLevel.fields.map((f) => ((f.requiredOverride ?? topLevel.total !== false) ? { ...f, default: undefined } : { ...f, default: { value: null } }));
    const schema = gen.classSchema({ ...topLevel, kind: 'model', doc: undefined, fields, stdlibTypedDict: false }, t.span);
    const defs = gen.defsObject();
    if (defs) schema.$defs = defs;
    return schema;
  }
  if (spec.structuredOutput === undefined && returnsContent(t)) return undefined;
  if (t.kind === 'content') throw new Unresolvable(`structured output of ${t.name} is not modelled`, t.span);
  const wrapped = (): JsonSchema => {
    const gen = new SchemaGenerator('validation', options);
    const result = gen.fieldSchema({ name: 'result', type: ret, span: ret.span });
    const out: JsonSchema = { type: 'object', properties: { result }, required: ['result'], title: `${spec.fnName}Output` };
    const defs = gen.defsObject();
    if (defs) out.$defs = defs;
    return out;
  };
  switch (t.kind) {
    case 'none':
    case 'list':
    case 'set':
    case 'frozenset':
    case 'sequence':
    case 'tuple':
    case 'union':
    case 'literal':
      // _create_output_model: a class (bare `list`, `tuple`, `collections.abc.Sequence`) is read for type hints, finds
      // none and publishes no outputSchema; a typing alias (bare `List`, `Tuple`, `Sequence`) is no class and is wrapped.
      if ((t.kind === 'list' || t.kind === 'set' || t.kind === 'frozenset' || t.kind === 'sequence') && !t.item && t.spelling !== 'typing') return undefined;
      if (t.kind === 'tuple' && t.variadic && !t.items.length && t.spelling !== 'typing') return undefined;
      return wrapped();
    case 'any': {
      // typing.Any is a class from Python 3.11 on (no type hints: no outputSchema); before, a special form, wrapped.
      const py = spec.pythonVersion;
      if (t.object) return undefined;
      if (!py) throw new Unresolvable('-> Any publishes no outputSchema on Python 3.11+ and a {"result": ...} wrapper before, and the workspace does not say which Python runs', t.span);
      return py[0] > 3 || (py[0] === 3 && py[1] >= 11) ? undefined : wrapped();
    }
    case 'dict': {
      // Only the builtin `dict[str, X]` (a types.GenericAlias of origin dict) publishes the dict schema itself: the
      // typing alias `Dict[str, X]` and any Mapping are wrapped in {"result": ...}, in every mcp release with
      // structured output (func_metadata, 1.10 to 2.3). A bare class (`dict`, `collections.abc.Mapping`) has no type
      // hints: no outputSchema; a bare typing alias (`Dict`) is wrapped.
      if (!t.key && !t.value) return t.spelling === 'typing' ? wrapped() : undefined;
      const key = t.key ? unwrapAnnotated(t.key) : undefined;
      const builtinDict = t.spelling === undefined || t.spelling === 'builtin';
      if (builtinDict && key?.kind === 'scalar' && key.name === 'str' && t.key === key) {
        const gen = new SchemaGenerator('validation', options);
        const schema = gen.typeSchema(t);
        schema.title = `${spec.fnName}DictOutput`;
        const defs = gen.defsObject();
        if (defs) schema.$defs = defs;
        return schema;
      }
      return wrapped();
    }
    case 'scalar':
      if (['int', 'float', 'str', 'bool', 'bytes'].includes(t.name)) return wrapped();
      throw new Unresolvable(`return type ${t.name}: the SDK inspects its class annotations, which the analyser does not model`, t.span);
    case 'class': {
      if (t.cls.kind === 'enum') throw new Unresolvable(`Enum return type ${t.cls.name} is not modelled`, t.span);
      const gen = new SchemaGenerator('validation', { ...options, acceptedTypedDict: topLevel?.key });
      if (t.cls.kind === 'dataclass') {
        // _create_model_from_class: a new pydantic model named like the class, no docstring.
        const schema = gen.classSchema({ ...t.cls, kind: 'model', doc: undefined, extra: undefined }, t.span);
        const defs = gen.defsObject();
        if (defs) schema.$defs = defs;
        return schema;
      }
      gen.ref(t.cls, t.span);
      const defs = gen.defsObject() ?? {};
      const own = defs[t.cls.name] as JsonSchema;
      const referencedElsewhere = JSON.stringify({ ...defs, [t.cls.name]: undefined }).includes(`"#/$defs/${t.cls.name}"`) || JSON.stringify(own).includes(`"#/$defs/${t.cls.name}"`);
      if (referencedElsewhere && traits && !traits.inlinesRecursiveOutputRoot) {
        // The outputSchema root is then a bare `$ref`, not `type: object`: mcp 2.0's own ListToolsResult validation
        // refuses it (the server answers tools/list with an error); mcp 1.x sends it, and clients that validate the
        // result (the TypeScript SDK's, the playground's) refuse the whole list.
        throw new ServerFails(
          'list',
          spec.framework === 'mcp'
            ? `${release} publishes a bare $ref root for the self-referencing ${t.cls.name}, which fails its own tools/list validation: the server lists no tools`
            : `${release} publishes a bare $ref root (no "type": "object") for the self-referencing ${t.cls.name}: clients that validate tools/list (the TypeScript SDK's) refuse the whole list`,
          t.span,
        );
      }
      const schema: JsonSchema = { ...own };
      const rest: JsonSchema = {};
      for (const [k, v] of Object.entries(defs)) if (k !== t.cls.name || referencedElsewhere) rest[k] = v;
      if (Object.keys(rest).length) schema.$defs = rest;
      return schema;
    }
    default:
      throw new Unresolvable('return annotation is not resolved', t.span);
  }
}

// ------------------------------------------------------------------------------------------ FastMCP

function fastmcpContract(spec: PyToolSpec): PyContractResult {
  const unresolved: Unresolved[] = [...spec.unresolvedArgs];
  const properties = new Map<string, JsonSchema>();
  const traits = traitsOf(spec) ?? FRAMEWORKS.fastmcp.contractTraits!(undefined);
  const options = generatorOptions(spec, traits);
  const gen = new SchemaGenerator('validation', options);
  let serverFailure: PyContractResult['serverFailure'];
  // fastmcp 2.x dereferences a self-referencing model into a cyclic dict: tools/list then fails for the whole server.
  const recursive = traits.listFailsOnRecursiveSchema ? spec.params.find((p) => p.type && reachesRecursiveModel(p.type)) : undefined;
  if (recursive)
    serverFailure = {
      when: 'list',
      reason: `${traits.release} dereferences the self-referencing model of ${recursive.name} into a cycle: tools/list fails ("Circular reference detected") and the server lists no tools`,
      span: recursive.span,
    };
  const rawProps: JsonSchema = {};
  const required: string[] = [];
  for (const p of spec.params) {
    const part = `inputSchema.properties.${p.name}`;
    if (p.defaultUnresolved) unresolved.push({ part: `${part}.default`, reason: p.defaultUnresolved.reason, span: p.defaultUnresolved.span });
    try {
      let type = p.type ?? { kind: 'any' as const, span: p.span };
      // get_cached_typeadapter: Annotated[T, "text"] (exactly two args) becomes Field(description="text").
      if (traits.annotatedStringDescription && type.kind === 'annotated' && type.fields.length === 0 && type.descriptions.length === 1) {
        type = {
          kind: 'annotated',
          base: type.base,
          descriptions: [],
          span: type.span,
          fields: [{ span: type.span, constraints: [], unresolved: [], description: { value: type.descriptions[0], span: type.span } }],
        };
      }
      const field: JsonSchema = gen.fieldSchema({ name: p.name, type, fields: p.fields, default: p.default, span: p.span });
      // Unpruned (2.3.5): pydantic's arguments schema titles every argument by its name, a `$ref` or a Field(title=) too.
      rawProps[p.name] = traits.prunesTitles ? field : { ...field, title: titleFromName(p.name) };
    } catch (e) {
      collect(unresolved, part, e, p.span);
    }
    if (isRequired(p)) required.push(p.name);
  }
  const raw: JsonSchema = { type: 'object', properties: rawProps };
  if (required.length) raw.required = required;
  if (traits.closedInputSchema) raw.additionalProperties = false;
  const defs = gen.defsObject();
  if (defs) raw.$defs = defs;
  const input = compressSchema(raw, traits.prunesTitles, traits.prunesMetadataOnlyTitles);
  const props = (input.properties ?? {}) as { [k: string]: JsonSchema };
  if (traits.keepsParamTitles)
    for (const [name, rp] of Object.entries(rawProps) as [string, JsonSchema][]) {
      if (!props[name]) continue;
      if (typeof rp.title === 'string' && rp.title !== titleFromName(name)) props[name].title = rp.title;
    }
  // 2.x publishes inspect.getdoc() whole and never reads Args:; 3.x and 4.x parse it with griffe.
  if (traits.docstringDescription !== 'whole' && traits.docstringDescription !== 'raw') {
    if (spec.parsedDoc?.unsupportedStyle)
      unresolved.push({ part: 'description', reason: `${spec.parsedDoc.unsupportedStyle}-style docstring: FastMCP's griffe parse of it is not reproduced`, span: spec.span });
    else for (const a of spec.parsedDoc?.args ?? []) if (props[a.name] && !('description' in props[a.name])) props[a.name].description = a.description;
  }
  // Before 2.14 tools/list publishes the schema with its `$defs` (no dereference_refs).
  const listed = traits.dereferencesRefs ? dereferenceRefs(input) : input;
  for (const [name, s] of Object.entries((listed.properties ?? {}) as { [k: string]: JsonSchema })) properties.set(name, s);

  const contract: JsonSchema = { name: spec.name };
  const annTitle = spec.annotations && typeof spec.annotations.title === 'string' ? spec.annotations.title : undefined;
  const title = spec.title ?? annTitle ?? (traits.defaultTitle ? defaultTitle(spec.name) : undefined);
  if (title !== undefined) contract.title = title;
  const description = fastmcpDescription(spec, traits);
  if (description !== undefined) contract.description = description;
  contract.inputSchema = listed;
  const result: PyContractResult = { contract, properties, unresolved, ...(serverFailure ? { serverFailure } : {}) };
  try {
    const out = fastmcpOutputSchema(spec, traits, options);
    if (out) contract.outputSchema = out;
  } catch (e) {
    collect(unresolved, 'outputSchema', e, spec.span, result);
  }
  if (spec.annotations) contract.annotations = spec.annotations;
  if (traits.metaKey !== 'none') contract._meta = fastmcpMeta(spec.meta, spec.tags, traits, traits.toolVersions ? spec.toolVersion : undefined);
  return result;
}

/**
 * The `_meta` FastMCP publishes on every component (`get_meta()`): the given meta with the tags (sorted) and, from 3.x,
 * the component's `version=` (and the list of its versions) under `fastmcp` (`_fastmcp` in 2.x).
 */
export function fastmcpMeta(given: { [k: string]: JsonValue } | undefined, tagList: string[] | undefined, traits: PythonContractTraits, version?: string): { [k: string]: JsonValue } {
  const meta: { [k: string]: JsonValue } = { ...(given ?? {}) };
  const tags = [...new Set(tagList ?? [])].sort();
  if (traits.metaKey !== 'fastmcp') {
    // 2.x: `upstream _fastmcp | {"tags": ...}`.
    const upstream = meta._fastmcp && typeof meta._fastmcp === 'object' && !Array.isArray(meta._fastmcp) ? meta._fastmcp : {};
    meta._fastmcp = { ...upstream, tags };
  } else {
    const upstream = meta.fastmcp && typeof meta.fastmcp === 'object' && !Array.isArray(meta.fastmcp) ? meta.fastmcp : {};
    const pub: { [k: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(upstream)) if (!k.startsWith('_')) pub[k] = v;
    // A versioned component (3.x+) says its version; `versions` lists every version of its name (for tools the analysis
    // fills in the others when it keeps the highest: python/tool-versions.ts; a prompt or resource registered twice is unresolved).
    meta.fastmcp = version !== undefined ? { versions: [version], ...pub, tags, version } : { ...pub, tags };
  }
  return meta;
}

/** The description FastMCP publishes: `description=`, else the docstring as this major reads it. */
function fastmcpDescription(spec: PyToolSpec, traits: PythonContractTraits): string | undefined {
  // Before 2.9: `description or fn.__doc__ or ""`, the docstring as written.
  if (traits.docstringDescription === 'raw') return spec.explicitDescription || (spec.rawDoc ?? '');
  if (spec.explicitDescription !== undefined) return spec.explicitDescription;
  if (spec.rawDoc === undefined) return undefined;
  const whole = cleandoc(spec.rawDoc) || undefined;
  if (traits.docstringDescription === 'whole') return whole;
  // 3.x cuts the description only when a parser found Args: entries; otherwise the whole docstring.
  if (traits.docstringDescription === 'with-args' && !spec.parsedDoc?.args.length) return whole;
  return spec.parsedDoc?.description;
}

/** `_default_title`: name with `_`/`-` as spaces, then Python `str.title()`. */
function defaultTitle(name: string): string {
  const s = name.replace(/[_-]/g, ' ');
  let out = '';
  let prevCased = false;
  for (const ch of s) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (prevCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    prevCased = cased;
  }
  return out;
}

function fastmcpOutputSchema(spec: PyToolSpec, traits: PythonContractTraits, options: GeneratorOptions): JsonSchema | undefined {
  if (!traits.structuredOutput) return undefined;
  const override = spec.outputSchemaOverride;
  if (override) {
    const given = 'model' in override ? modelJsonSchema(override.model, options) : override.value;
    if (!given) return undefined;
    return traits.dereferencesExplicitOutputSchema ? dereferenceRefs(given) : given;
  }
  const ret = spec.returnType;
  if (!ret) return undefined;
  const t = unwrapAnnotated(ret);
  if (t.kind === 'none' || t.kind === 'any') return undefined;
  if (containsBytes(t) || returnsContentDeep(t)) return undefined;
  const stdlib = stdlibTypedDicts(ret);
  if (stdlib.length) {
    const accepted = stdlibTypedDictAccepted(spec);
    if (accepted === undefined)
      throw new Unresolvable(`${stdlib[0].name} derives from typing.TypedDict, which pydantic refuses below Python 3.12, and the workspace does not say which Python runs`, stdlib[0].span);
    if (!accepted)
      throw new ServerFails(
        'import',
        `${stdlib[0].name} derives from typing.TypedDict, which pydantic refuses below Python 3.12: ${traits.release} raises PydanticUserError registering this tool, and the server lists no tools`,
        ret.span,
      );
  }
  if ((t.kind === 'list' || t.kind === 'sequence') && (!t.item || unwrapAnnotated(t.item).kind === 'any')) return undefined;
  if (t.kind === 'tuple' && t.variadic && (!t.items.length || unwrapAnnotated(t.items[0]).kind === 'any')) return undefined;
  const gen = new SchemaGenerator('serialization', options);
  let base = gen.typeSchema(ret);
  const defs = gen.defsObject();
  const isRef = typeof base.$ref === 'string';
  if (defs) base = { ...base, $defs: defs };
  let out: JsonSchema;
  if (!isObjectSchema(base)) {
    const g2 = new SchemaGenerator('serialization', options);
    const result = g2.fieldSchema({ name: 'result', type: ret, span: ret.span });
    out = { type: 'object', properties: { result }, required: ['result'], title: '_WrappedResult' };
    if (traits.wrapperDescription) out.description = 'Generic wrapper for non-object return types.';
    const d2 = g2.defsObject();
    if (d2) out.$defs = d2;
    out['x-fastmcp-wrap-result'] = true;
  } else out = base;
  // A self-referencing model's schema is a bare `$ref` at the root: before 2.14 nothing resolves it, the outputSchema is
  // published without `type: "object"`, and a client that validates tools/list (the TypeScript SDK's) refuses the whole list.
  if (isRef && !traits.dereferencesRefs && t.kind === 'class' && t.cls.kind === 'model' && selfReferencing(t.cls))
    throw new ServerFails(
      'list',
      `${t.cls.name} refers to itself: ${traits.release} publishes its output schema as a bare \`$ref\` (no \`type: "object"\`), and a client validating tools/list (the TypeScript SDK's) refuses the whole list`,
      ret.span,
    );
  const compressed = compressSchema(out, true, traits.prunesMetadataOnlyTitles);
  return traits.dereferencesRefs ? dereferenceRefs(compressed) : compressed;
}

/** pydantic's `Model.model_json_schema()` (validation mode): the model's own schema at the root, the classes it uses in `$defs`. */
function modelJsonSchema(t: PyType, options: GeneratorOptions): JsonSchema {
  const m = unwrapAnnotated(t);
  if (m.kind !== 'class' || m.cls.kind !== 'model') throw new Unresolvable('model_json_schema() of something that is not a pydantic model class the analyser can read', t.span);
  if (selfReferencing(m.cls)) throw new Unresolvable(`${m.cls.name} refers to itself: its model_json_schema() root is a $ref (not modelled)`, t.span);
  const gen = new SchemaGenerator('validation', options);
  const schema = gen.classSchema(m.cls, t.span);
  const defs = gen.defsObject();
  if (defs) schema.$defs = defs;
  return schema;
}

function containsBytes(t: PyType): boolean {
  t = unwrapAnnotated(t);
  if (t.kind === 'scalar' && t.name === 'bytes') return true;
  if (t.kind === 'union') return t.members.some(containsBytes);
  return false;
}

function returnsContentDeep(t: PyType): boolean {
  t = unwrapAnnotated(t);
  switch (t.kind) {
    case 'content':
      return true;
    case 'union':
      return t.members.some(returnsContentDeep);
    case 'list':
    case 'set':
    case 'frozenset':
    case 'sequence':
      return !!t.item && returnsContentDeep(t.item);
    case 'tuple':
      return t.items.some(returnsContentDeep);
    case 'dict':
      return (!!t.key && returnsContentDeep(t.key)) || (!!t.value && returnsContentDeep(t.value));
    default:
      return false;
  }
}

/**
 * A FastMCP tool as the server it is mounted on or imported into publishes it under `name` (`<prefix>_<name>`, a
 * `tool_names` rename): the same entry, renamed. 4.x derives the default title from the published name at list time
 * (`to_mcp_tool`), so a tool without `title=` or `annotations.title` gets the new name's; `name` undefined (a prefix
 * computed at run time) leaves both out.
 */
export function renamedFastmcpContract(contract: JsonSchema, name: string | undefined, explicitTitle: boolean, traits: PythonContractTraits): JsonSchema {
  const annotations = contract.annotations as { title?: unknown } | undefined;
  const derivedTitle = traits.defaultTitle && !explicitTitle && typeof annotations?.title !== 'string';
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(contract)) {
    if (k === 'name') {
      if (name !== undefined) out.name = name;
    } else if (k === 'title' && derivedTitle) {
      if (name !== undefined) out.title = defaultTitle(name);
    } else out[k] = v;
  }
  return out;
}

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
import type { FieldInfo, PyType } from '../../analysis/python/pytypes';
import { SchemaGenerator, Unresolvable, titleFromName, type FieldSpec } from './pydantic';
import { compressSchema, dereferenceRefs, isObjectSchema } from './fastmcp-schema';
import { FRAMEWORKS, type ContractBuilder } from '../../../../common/frameworks';

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

export interface PyToolSpec {
  framework: Framework;
  /** The Python function name (`fn.__name__`). */
  fnName: string;
  name: string;
  title?: string;
  /** `description=` given explicitly. */
  explicitDescription?: string;
  /** `fn.__doc__` as the running Python stores it. */
  rawDoc?: string;
  /** FastMCP's parsed docstring. */
  parsedDoc?: { description?: string; args: { name: string; description: string }[]; unsupportedStyle?: string };
  params: PyParamSpec[];
  /** Return annotation: undefined = none written. */
  returnType?: PyType;
  structuredOutput?: boolean;
  /** FastMCP `output_schema=`: null disables, an object replaces. */
  outputSchemaOverride?: { value: JsonSchema | null };
  annotations?: { [k: string]: JsonValue };
  meta?: { [k: string]: JsonValue };
  tags?: string[];
  /** Registration arguments the analyser cannot model (each an unresolved part). */
  unresolvedArgs: Unresolved[];
  span: Span;
}

export interface PyContractResult {
  contract: JsonSchema;
  /** Per parameter: its published property schema. */
  properties: Map<string, JsonSchema>;
  unresolved: Unresolved[];
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

function collect(unresolved: Unresolved[], part: string, e: unknown, fallback: Span): void {
  if (e instanceof Unresolvable) unresolved.push({ part, reason: e.reason, span: e.span });
  else unresolved.push({ part, reason: `internal: ${e instanceof Error ? e.message : String(e)}`, span: fallback });
}

// ------------------------------------------------------------------------------------------ official SDK

function mcpContract(spec: PyToolSpec): PyContractResult {
  const unresolved: Unresolved[] = [...spec.unresolvedArgs];
  const properties = new Map<string, JsonSchema>();
  const gen = new SchemaGenerator('validation');
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
  try {
    const out = mcpOutputSchema(spec);
    if (out) contract.outputSchema = out;
  } catch (e) {
    collect(unresolved, 'outputSchema', e, spec.span);
  }
  if (spec.annotations) contract.annotations = spec.annotations;
  if (spec.meta) contract._meta = spec.meta;
  return { contract, properties, unresolved };
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

function mcpOutputSchema(spec: PyToolSpec): JsonSchema | undefined {
  if (spec.structuredOutput === false) return undefined;
  const ret = spec.returnType;
  if (!ret) {
    if (spec.structuredOutput === true) throw new Unresolvable('structured_output=True without a return annotation: the SDK raises InvalidSignature', spec.span);
    return undefined;
  }
  const t = unwrapAnnotated(ret);
  if (t.kind === 'content' && t.name === 'CallToolResult') return undefined;
  // mcp 1.x has no content-block exclusion: TextContent & co. are plain pydantic models there, published with the
  // schema of mcp.types as that release defines it (proven live for 1.30.0; not modelled).
  const profile = FRAMEWORKS[spec.framework];
  if (profile.publishesContentBlockSchemas && returnsContentDeep(t))
    throw new Unresolvable(`${profile.name} publishes the pydantic schema of the mcp.types content classes for ${t.kind === 'content' ? t.name : 'this return type'}; not modelled`, t.span);
  if (spec.structuredOutput === undefined && returnsContent(t)) return undefined;
  if (t.kind === 'content') throw new Unresolvable(`structured output of ${t.name} is not modelled`, t.span);
  const wrapped = (): JsonSchema => {
    const gen = new SchemaGenerator('validation');
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
    case 'any':
      if ((t.kind === 'list' || t.kind === 'set' || t.kind === 'frozenset' || t.kind === 'tuple') && isBare(t) && t.kind !== 'tuple') return undefined; // a bare `list`/`set` class: get_type_hints() is empty -> no output schema
      if (t.kind === 'tuple' && t.variadic && !t.items.length) return undefined;
      if (t.kind === 'sequence' && !t.item) throw new Unresolvable('bare Sequence return annotation is not modelled', t.span);
      return wrapped();
    case 'dict': {
      if (!t.key && !t.value) return undefined; // bare `dict`: no type hints -> unstructured
      const key = t.key ? unwrapAnnotated(t.key) : undefined;
      if (key?.kind === 'scalar' && key.name === 'str' && t.key === key) {
        const gen = new SchemaGenerator('validation');
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
      const gen = new SchemaGenerator('validation');
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

function isBare(t: PyType): boolean {
  return (t.kind === 'list' || t.kind === 'set' || t.kind === 'frozenset' || t.kind === 'sequence') && !t.item;
}

// ------------------------------------------------------------------------------------------ FastMCP

function fastmcpContract(spec: PyToolSpec): PyContractResult {
  const unresolved: Unresolved[] = [...spec.unresolvedArgs];
  const properties = new Map<string, JsonSchema>();
  const gen = new SchemaGenerator('validation');
  const rawProps: JsonSchema = {};
  const required: string[] = [];
  for (const p of spec.params) {
    const part = `inputSchema.properties.${p.name}`;
    if (p.defaultUnresolved) unresolved.push({ part: `${part}.default`, reason: p.defaultUnresolved.reason, span: p.defaultUnresolved.span });
    try {
      let type = p.type ?? { kind: 'any' as const, span: p.span };
      // get_cached_typeadapter: Annotated[T, "text"] (exactly two args) becomes Field(description="text").
      if (type.kind === 'annotated' && type.fields.length === 0 && type.descriptions.length === 1) {
        type = {
          kind: 'annotated',
          base: type.base,
          descriptions: [],
          span: type.span,
          fields: [{ span: type.span, constraints: [], unresolved: [], description: { value: type.descriptions[0], span: type.span } }],
        };
      }
      rawProps[p.name] = gen.fieldSchema({ name: p.name, type, fields: p.fields, default: p.default, span: p.span });
    } catch (e) {
      collect(unresolved, part, e, p.span);
    }
    if (isRequired(p)) required.push(p.name);
  }
  const raw: JsonSchema = { type: 'object', properties: rawProps };
  if (required.length) raw.required = required;
  raw.additionalProperties = false;
  const defs = gen.defsObject();
  if (defs) raw.$defs = defs;
  const input = compressSchema(raw, true);
  const props = (input.properties ?? {}) as { [k: string]: JsonSchema };
  for (const [name, rp] of Object.entries(rawProps) as [string, JsonSchema][]) {
    if (!props[name]) continue;
    if (typeof rp.title === 'string' && rp.title !== titleFromName(name)) props[name].title = rp.title;
  }
  if (spec.parsedDoc?.unsupportedStyle)
    unresolved.push({ part: 'description', reason: `${spec.parsedDoc.unsupportedStyle}-style docstring: FastMCP's griffe parse of it is not reproduced`, span: spec.span });
  else for (const a of spec.parsedDoc?.args ?? []) if (props[a.name] && !('description' in props[a.name])) props[a.name].description = a.description;
  const listed = dereferenceRefs(input);
  for (const [name, s] of Object.entries((listed.properties ?? {}) as { [k: string]: JsonSchema })) properties.set(name, s);

  const contract: JsonSchema = { name: spec.name };
  const annTitle = spec.annotations && typeof spec.annotations.title === 'string' ? spec.annotations.title : undefined;
  contract.title = spec.title ?? annTitle ?? defaultTitle(spec.name);
  const description = spec.explicitDescription ?? spec.parsedDoc?.description;
  if (description !== undefined) contract.description = description;
  contract.inputSchema = listed;
  try {
    const out = fastmcpOutputSchema(spec);
    if (out) contract.outputSchema = out;
  } catch (e) {
    collect(unresolved, 'outputSchema', e, spec.span);
  }
  if (spec.annotations) contract.annotations = spec.annotations;
  const meta: { [k: string]: JsonValue } = { ...(spec.meta ?? {}) };
  const upstream = meta.fastmcp && typeof meta.fastmcp === 'object' && !Array.isArray(meta.fastmcp) ? meta.fastmcp : {};
  const pub: { [k: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(upstream)) if (!k.startsWith('_')) pub[k] = v;
  meta.fastmcp = { ...pub, tags: [...new Set(spec.tags ?? [])].sort() };
  contract._meta = meta;
  return { contract, properties, unresolved };
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

function fastmcpOutputSchema(spec: PyToolSpec): JsonSchema | undefined {
  if (spec.outputSchemaOverride) return spec.outputSchemaOverride.value ?? undefined;
  const ret = spec.returnType;
  if (!ret) return undefined;
  const t = unwrapAnnotated(ret);
  if (t.kind === 'none' || t.kind === 'any') return undefined;
  if (containsBytes(t) || returnsContentDeep(t)) return undefined;
  if ((t.kind === 'list' || t.kind === 'sequence') && (!t.item || unwrapAnnotated(t.item).kind === 'any')) return undefined;
  if (t.kind === 'tuple' && t.variadic && (!t.items.length || unwrapAnnotated(t.items[0]).kind === 'any')) return undefined;
  const gen = new SchemaGenerator('serialization');
  let base = gen.typeSchema(ret);
  const defs = gen.defsObject();
  const isRef = typeof base.$ref === 'string';
  if (defs) base = { ...base, $defs: defs };
  let out: JsonSchema;
  if (!isObjectSchema(base)) {
    const g2 = new SchemaGenerator('serialization');
    const result = g2.fieldSchema({ name: 'result', type: ret, span: ret.span });
    out = { type: 'object', properties: { result }, required: ['result'], title: '_WrappedResult' };
    const d2 = g2.defsObject();
    if (d2) out.$defs = d2;
    out['x-fastmcp-wrap-result'] = true;
  } else out = base;
  void isRef;
  return dereferenceRefs(compressSchema(out, true));
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

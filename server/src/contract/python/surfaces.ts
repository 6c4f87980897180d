/**
 * The prompts/list, resources/list and resources/templates/list entries each Python framework publishes for a
 * decorated function (`@server.prompt(...)`, `@server.resource(uri, ...)`), read from their sources and checked live
 * at every release of the version matrix (test/fidelity/python-matrix.test.ts, the `*_surfaces*` fixtures):
 *  - mcp 2.x MCPServer (mcp/server/mcpserver/prompts/base.py, resources/types.py, resources/templates.py, server.py)
 *    and the removed 1.x import (mcp/server/fastmcp/..., the same code): a prompt is `{name, title, description,
 *    arguments, icons}` with `description or __doc__ or ""` and one argument per property of the function's argument
 *    model (func_metadata; 1.8/1.10: `TypeAdapter(fn)`), `{name, description, required}`; a resource is `{uri, name,
 *    title, description, mimeType, icons, annotations, _meta}`, a template `{uriTemplate, name, ...}` (the same keys;
 *    mimeType, icons and annotations from 1.23, `_meta` from 1.26). 1.x passes a static URI through pydantic's AnyUrl.
 *  - standalone FastMCP (fastmcp/prompts/function_prompt.py, resources/function_resource.py, resources/template.py):
 *    the docstring as each major reads it, prompt arguments from the function's TypeAdapter schema (titles pruned,
 *    docstring Args: descriptions from 3.x) with a note giving the JSON Schema of every argument not annotated `str`,
 *    `inspect.getdoc` for resources, `_meta.fastmcp.tags` (`_fastmcp` in 2.x) on every entry.
 * Undefined keys are not on the wire (the SDKs serialize with exclude_none).
 */
import type { Framework, JsonSchema, JsonValue, Span, Unresolved } from '../../analysis/model';
import type { PyType } from '../../analysis/python/pytypes';
import { cleandoc } from './cleandoc';
import { buildPythonContract, fastmcpMeta, traitsOf, type PyContractResult, type PyParamSpec, type PyRegistrationSpec, type PyToolSpec } from './index';
import { SchemaGenerator, Unresolvable } from './pydantic';
import { pythonUriTemplateError, pythonUriTemplateVariables } from './uri-template';
import { FRAMEWORKS, type PythonContractTraits } from '../../../../common/frameworks';

/** What the front-end read of one `@server.prompt(...)` registration and its function. */
export interface PyPromptSpec extends PyRegistrationSpec {
  /** `name=` (or the function's name). */
  name: string;
  parsedDoc?: PyToolSpec['parsedDoc'];
  /** The parameters that reach the argument model (Context, `*args` and the refused ones left out by the front-end). */
  params: PyParamSpec[];
  /** A Context parameter (skipped from 1.23 on; an argument before). */
  contextParam?: { name: string; span: Span };
  /** `from __future__ import annotations`: every annotation is a string at run time. */
  stringAnnotations?: boolean;
  /** FastMCP `version=`. */
  componentVersion?: string;
}

/** What the front-end read of one `@server.resource(uri, ...)` registration and its function. */
export interface PyResourceSpec extends PyRegistrationSpec {
  /** `name=` when given. */
  explicitName?: string;
  /** The URI as written (undefined: not a literal). */
  uri: string | undefined;
  uriSpan: Span;
  mimeType?: string;
  annotations?: { [k: string]: JsonValue };
  /** FastMCP `version=`. */
  componentVersion?: string;
  /** The function's parameters (Context included, marked), in order. */
  params: { name: string; hasDefault: boolean; isContext: boolean; variadic?: 'args' | 'kwargs'; span: Span }[];
}

export interface PySurfaceResult {
  contract: { [key: string]: JsonValue };
  /** A prompt's arguments as published (undefined when not statically known). */
  arguments?: { name: string; description?: string; required: boolean }[];
  /** A resource registration: `resource` (resources/list) or `template` (resources/templates/list); undefined when not known. */
  kind?: 'resource' | 'template';
  unresolved: Unresolved[];
  /** What the SDK raises at this registration: the module fails at import and the server lists nothing. */
  throws?: { part: 'uriTemplate' | 'uri'; message: string; span: Span };
}

function traitsFor(spec: { framework: Framework; version?: string }): PythonContractTraits {
  return traitsOf(spec) ?? FRAMEWORKS.mcp.contractTraits!(undefined);
}

const isFastmcp = (f: Framework) => FRAMEWORKS[f].contractBuilder === 'fastmcp-function-parsing';

// ------------------------------------------------------------------------------------------------ prompts

export function buildPythonPromptContract(spec: PyPromptSpec): PySurfaceResult {
  const traits = traitsFor(spec);
  const unresolved: Unresolved[] = [...spec.unresolvedArgs];
  if (spec.contextParam && !isFastmcp(spec.framework) && !traits.surfaceContext)
    unresolved.push({
      part: `arguments.${spec.contextParam.name}`,
      reason: `${traits.release} does not find a prompt's Context parameter: it reads ${spec.contextParam.name} as an argument (not modelled)`,
      span: spec.contextParam.span,
    });
  // The argument model is the one a tool of the same function gets (func_metadata / FastMCP's TypeAdapter schema).
  const toolSpec: PyToolSpec = {
    framework: spec.framework,
    ...(spec.version !== undefined ? { version: spec.version } : {}),
    ...(spec.pythonVersion ? { pythonVersion: spec.pythonVersion } : {}),
    fnName: spec.fnName,
    name: spec.name,
    rawDoc: spec.rawDoc,
    parsedDoc: spec.parsedDoc,
    params: spec.params,
    unresolvedArgs: [],
    span: spec.span,
  };
  const built: PyContractResult = buildPythonContract(toolSpec);
  const input = built.contract.inputSchema as { properties?: { [k: string]: JsonSchema }; required?: string[] } | undefined;
  let args: PySurfaceResult['arguments'] = [];
  for (const u of built.unresolved) {
    // Only what changes an argument's name, description or required flag: a default or a type does not.
    const m = /^inputSchema\.properties\.([^.]+)$/.exec(u.part);
    if (m) unresolved.push({ ...u, part: `arguments.${m[1]}` });
  }
  for (const p of spec.params) {
    const prop = input?.properties?.[p.name];
    let description = typeof prop?.description === 'string' ? prop.description : undefined;
    const arg: { name: string; title?: string; description?: string; required: boolean } = { name: p.name, required: !!input?.required?.includes(p.name) };
    if (traits.promptArgumentNote !== 'none' && p.type && !isPlainStr(p.type)) {
      try {
        if (spec.stringAnnotations) throw new Unresolvable('the module has `from __future__ import annotations`: FastMCP reads the annotation as a string (not modelled)', p.span);
        const schemaText = pythonJsonDumps(pydanticSorted(annotationSchema(p.type, spec)));
        const note =
          traits.promptArgumentNote === 'value'
            ? `Provide a value matching the following JSON schema: ${schemaText}. Encode non-string values as JSON.`
            : `Provide as a JSON string matching the following schema: ${schemaText}`;
        description = description ? `${description}\n\n${note}` : note;
      } catch (e) {
        unresolved.push({
          part: `arguments.${p.name}.description`,
          reason: e instanceof Unresolvable ? `FastMCP appends the JSON Schema of the annotation: ${e.reason}` : `internal: ${String(e)}`,
          span: e instanceof Unresolvable ? e.span : p.span,
        });
      }
    }
    if (traits.promptArgumentTitles) {
      const title = [...p.fields, ...annotatedFields(p.type)].reverse().find((f) => f.title)?.title?.value;
      if (title !== undefined) arg.title = title;
    }
    if (description !== undefined) arg.description = description;
    args.push(arg);
  }
  if (unresolved.some((u) => u.part === 'arguments')) args = undefined;

  const contract: { [key: string]: JsonValue } = { name: spec.name };
  if (spec.title !== undefined) contract.title = spec.title;
  const description = isFastmcp(spec.framework) ? fastmcpPromptDescription(spec, traits) : spec.explicitDescription || spec.rawDoc || '';
  if (description !== undefined) contract.description = description;
  if (args) contract.arguments = args;
  if (isFastmcp(spec.framework)) contract._meta = fastmcpMeta(spec.meta, spec.tags, traits, spec.componentVersion);
  return { contract, ...(args ? { arguments: args } : {}), unresolved };
}

function isPlainStr(t: PyType): boolean {
  return t.kind === 'scalar' && t.name === 'str';
}

function annotatedFields(t: PyType | undefined): NonNullable<Extract<PyType, { kind: 'annotated' }>['fields']> {
  const out: Extract<PyType, { kind: 'annotated' }>['fields'] = [];
  for (let x = t; x && x.kind === 'annotated'; x = x.base) out.push(...x.fields);
  return out;
}

/** 2.x: `description or inspect.getdoc(fn)`; 3.x/4.x: `description=` else the parsed docstring's description. */
function fastmcpPromptDescription(spec: PyPromptSpec, traits: PythonContractTraits): string | undefined {
  const whole = spec.rawDoc !== undefined ? cleandoc(spec.rawDoc) || undefined : undefined;
  if (traits.docstringDescription === 'whole') return spec.explicitDescription || whole;
  if (spec.explicitDescription !== undefined) return spec.explicitDescription;
  if (spec.rawDoc === undefined) return undefined;
  if (traits.docstringDescription === 'with-args' && !spec.parsedDoc?.args.length) return whole;
  return spec.parsedDoc?.description ?? whole;
}

/** `TypeAdapter(annotation).json_schema()`: the type's validation schema, its Field() metadata applied, no title. */
function annotationSchema(t: PyType, spec: PyPromptSpec): JsonSchema {
  const traits = traitsFor(spec);
  const gen = new SchemaGenerator('validation', { stdlibTypedDictAccepted: false, pydantic211: traits.pydantic === '2.11' });
  const infos = annotatedFields(t);
  let base = t;
  while (base.kind === 'annotated') base = base.base;
  for (const info of infos) if (info.unresolved.length) throw new Unresolvable(`Field ${info.unresolved[0].part}: ${info.unresolved[0].reason}`, info.unresolved[0].span);
  const schema = gen.typeSchema(
    base,
    infos.flatMap((i) => i.constraints),
  );
  for (const i of infos) {
    if (i.default || i.defaultFactory) throw new Unresolvable('a default inside Annotated[...] (not modelled in the schema note)', i.span);
    if (i.title) schema.title = i.title.value;
    if (i.description) schema.description = i.description.value;
    if (i.examples) schema.examples = i.examples.value;
  }
  const defs = gen.defsObject();
  if (defs) schema.$defs = defs;
  checkNumbers(schema, t.span);
  return schema;
}

/** Python prints an integral float as `1.0`, JavaScript as `1`: a number the note cannot spell for sure is unresolved. */
function checkNumbers(v: JsonValue, span: Span, integerNode = false): void {
  if (typeof v === 'number') {
    if (!integerNode && (Number.isInteger(v) || !/^-?\d+\.\d+$/.test(String(v)))) throw new Unresolvable(`the number ${v} may be a float, which Python spells differently`, span);
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) checkNumbers(x, span, integerNode);
    return;
  }
  if (v && typeof v === 'object') {
    const node = v;
    const intNode = node.type === 'integer' || (Array.isArray(node.enum) && node.enum.every((x) => typeof x !== 'number' || Number.isInteger(x)) && node.type !== 'number');
    for (const [k, x] of Object.entries(node)) {
      // The keys and names of properties are never numbers; `enum`/`const` of an int Literal are ints.
      checkNumbers(x, span, k === 'properties' || k === '$defs' ? false : intNode);
    }
  }
}

/** pydantic's GenerateJsonSchema.sort: keys sorted recursively, except directly under `properties` and `default`. */
export function pydanticSorted(value: JsonValue, parentKey?: string): JsonValue {
  if (Array.isArray(value)) return value.map((x) => pydanticSorted(x, parentKey));
  if (!value || typeof value !== 'object') return value;
  const obj = value;
  const keys = parentKey === 'properties' || parentKey === 'default' ? Object.keys(obj) : Object.keys(obj).sort();
  const out: { [k: string]: JsonValue } = {};
  for (const k of keys) out[k] = pydanticSorted(obj[k], k);
  return out;
}

/** Python's `json.dumps(v, separators=(",", ":"))` (ensure_ascii: every non-ASCII character escaped). */
export function pythonJsonDumps(value: JsonValue): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => (c === '\u007f' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

// ------------------------------------------------------------------------------------------------ resources

/** What pydantic's AnyUrl makes of a URI (the WHATWG URL parser both implement): the normalized form, or undefined when refused. */
export function anyUrl(uri: string): string | undefined {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
}

export function buildPythonResourceContract(spec: PyResourceSpec): PySurfaceResult {
  const traits = traitsFor(spec);
  const fastmcp = isFastmcp(spec.framework);
  const unresolved: Unresolved[] = [...spec.unresolvedArgs];
  const uri = spec.uri;
  const fnParams = spec.params.filter((p) => !p.variadic);
  // Context is found (and left out of the URI check) except by mcp 1.x before 1.23.
  const checked = fnParams.filter((p) => !(p.isContext && (fastmcp || traits.surfaceContext)));
  let kind: PySurfaceResult['kind'];
  let throws: PySurfaceResult['throws'];
  const fail = (part: 'uriTemplate' | 'uri', message: string) => (throws ??= { part, message, span: spec.uriSpan });
  if (uri === undefined) {
    kind = undefined;
  } else if (traits.resourceTemplates === 'rfc6570') {
    const parseError = pythonUriTemplateError(uri);
    if (parseError) fail('uriTemplate', `InvalidUriTemplate: ${parseError}`);
    else {
      const vars = pythonUriTemplateVariables(uri);
      const names = new Set(vars.names);
      const params = new Set(checked.map((p) => p.name));
      kind = names.size ? 'template' : 'resource';
      if (names.size && !sameSet(names, params)) fail('uriTemplate', `ValueError: Mismatch between URI parameters ${pySet(names)} and function parameters ${pySet(params)}`);
      else if (names.size) {
        const missing = [...vars.query].filter((n) => checked.find((p) => p.name === n && !p.hasDefault)).sort();
        if (missing.length) fail('uriTemplate', `ValueError: Resource '${uri}': query parameter(s) [${missing.map((m) => `'${m}'`).join(', ')}] have no default value`);
      } else if (params.size) fail('uriTemplate', `ValueError: Resource '${uri}' has no URI template variables, but the handler declares parameters ${pySet(params)}`);
      else if (fnParams.some((p) => p.isContext)) fail('uriTemplate', `ValueError: Resource '${uri}' has no URI template variables, but the handler declares a Context parameter`);
    }
  } else {
    const braces = uri.includes('{') && uri.includes('}');
    // mcp 1.x counts every parameter (Context too) to decide; FastMCP only the ones it does not inject.
    const anyParams = (fastmcp ? checked : fnParams).length > 0;
    kind = braces || anyParams ? 'template' : 'resource';
    if (kind === 'template') {
      if (traits.resourceTemplates === 'braces') {
        const names = new Set([...uri.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
        const params = new Set(checked.map((p) => p.name));
        if (!sameSet(names, params)) fail('uriTemplate', `ValueError: Mismatch between URI parameters ${pySet(names)} and function parameters ${pySet(params)}`);
      } else {
        const names = new Set([...uri.matchAll(/\{([\w-]+)\*?\}/g)].map((m) => m[1].replace(/-/g, '_')));
        const params = new Set(checked.map((p) => p.name));
        // FastMCP's other checks (operators, query parameters, subsets) are not modelled: only a template whose path
        // variables are exactly the parameters is predicted.
        if (!/^[^{}]*(\{[\w-]+\*?\}[^{}]*)*$/.test(uri) || !sameSet(names, params))
          unresolved.push({ part: 'uriTemplate', reason: `FastMCP's checks of a URI template whose variables are not exactly the function's parameters are not modelled`, span: spec.uriSpan });
      }
    } else if (traits.resourceUriValidation === 'any-url' && anyUrl(uri) === undefined) {
      fail('uri', `ValidationError: pydantic's AnyUrl refuses ${JSON.stringify(uri)} (not an absolute URL with a scheme)`);
    }
  }

  const contract: { [key: string]: JsonValue } = {};
  const name = spec.explicitName || undefined;
  if (kind === 'template') {
    contract.uriTemplate = uri!;
    contract.name = name ?? spec.fnName;
  } else if (kind === 'resource') {
    const listed = traits.resourceUriValidation === 'any-url' ? (anyUrl(uri!) ?? uri!) : uri!;
    contract.uri = listed;
    contract.name = name ?? (traits.staticResourceDefaults === 'uri' ? listed : spec.fnName);
  } else {
    unresolved.push({ part: 'uri', reason: 'the URI is not a string literal: whether it is a resource or a template, and what it is, is not known', span: spec.uriSpan });
    if (name !== undefined) contract.name = name;
  }
  if (spec.title !== undefined) contract.title = spec.title;
  const description = resourceDescription(spec, traits, kind);
  if (description !== undefined) contract.description = description;
  if (fastmcp || kind !== 'template' || traits.templateMimeType) {
    contract.mimeType = spec.mimeType || 'text/plain';
    if (spec.annotations) contract.annotations = spec.annotations;
  }
  if (fastmcp) contract._meta = fastmcpMeta(spec.meta, spec.tags, traits, spec.componentVersion);
  else if (spec.meta) contract._meta = spec.meta;
  return { contract, ...(kind ? { kind } : {}), unresolved, ...(throws ? { throws } : {}) };
}

function resourceDescription(spec: PyResourceSpec, traits: PythonContractTraits, kind: PySurfaceResult['kind']): string | undefined {
  // FastMCP: `description=` when given (even empty), else `inspect.getdoc(fn)` (None without a docstring).
  if (isFastmcp(spec.framework)) return spec.explicitDescription ?? (spec.rawDoc !== undefined ? cleandoc(spec.rawDoc) : undefined);
  // mcp 1.8 builds a static resource without reading the docstring.
  if (kind === 'resource' && traits.staticResourceDefaults === 'uri') return spec.explicitDescription;
  return spec.explicitDescription || spec.rawDoc || '';
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** A Python set as its repr prints it (the order is the hash's; only the members are meant). */
function pySet(s: Set<string>): string {
  return s.size ? `{${[...s].map((x) => `'${x}'`).join(', ')}}` : 'set()';
}

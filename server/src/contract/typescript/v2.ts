/**
 * The tools/list entry @modelcontextprotocol/server 2.x (TypeScript SDK v2, 2.0.0 to 2.4.0) publishes for one tool,
 * built from the values the TypeScript front-end rebuilt. In a trusted workspace with the SDK installed, its own
 * `normalizeRawShapeSchema` and `standardSchemaToJsonSchema` run (libraries.ts); otherwise the model below, at the
 * release's traits (`tsV2ContractTraits`, common/frameworks.ts).
 *
 * What v2 does (dist/mcp-*.mjs, McpServer):
 *  - registerTool stores `normalizeRawShapeSchema(inputSchema)` / `(outputSchema)`: a plain object whose values are
 *    ALL zod 4 schemas is wrapped in `z.object()`; one holding zod 3 fields, or anything that is not a Standard
 *    Schema, throws at registration.
 *  - tools/list publishes `{ name, title, description, inputSchema, annotations, icons, execution, _meta }` and
 *    `outputSchema` when given. `execution` is never set by registerTool (and the 2026-07-28 codec deletes it), so
 *    the key is absent on the wire; an absent inputSchema is `{ type: "object", properties: {} }`.
 *  - each schema goes through `standardSchemaToJsonSchema(schema, io)`: the schema library's own
 *    `~standard.jsonSchema[io]({ target: "draft-2020-12" })` (zod >= 4.2, ArkType, Valibot through
 *    `@valibot/to-json-schema`), zod 4 without it through `z.toJSONSchema(schema, { target, io })`, zod 3 refused;
 *    then an input root gets `type: "object"` first (a non-object `type` throws), an output root keeps its own
 *    `type` and gets `type: "object"` only when provably object-shaped (a local `$ref` to an object counts from 2.4.0).
 *  - the wire is the 2025-11-25 era's (what clients negotiate by default): see legacyWireOutputSchema.
 * That post-processing is reproduced below; the conversion itself is the library's own code on the rebuilt schema.
 */
import * as z4 from 'zod/v4';
import { toJSONSchema as z4CoreToJSONSchema } from 'zod/v4/core';
import type { JsonSchema } from '../../analysis/model';
import type { TsV2ContractTraits } from '../../../../common/frameworks';
import type { TsLibraries } from './libraries';

/** The v2 release a contract is built for and the copies converting its schemas (default: the newest release, the model). */
export interface V2BuildTarget {
  traits: TsV2ContractTraits;
  libs: TsLibraries;
}

/** The draft every v2 conversion targets (the SDK's JSON_SCHEMA_CONVERSION_TARGET). */
export const V2_JSON_SCHEMA_TARGET = 'draft-2020-12';

const EMPTY_OBJECT_SCHEMA = (): JsonSchema => ({ type: 'object', properties: {} });

type StandardProps = {
  vendor?: unknown;
  validate?: unknown;
  jsonSchema?: { input?: (o: { target: string }) => unknown; output?: (o: { target: string }) => unknown };
};

function standardProps(v: unknown): StandardProps | undefined {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return undefined;
  if (!('~standard' in v)) return undefined;
  const std = (v as { '~standard'?: StandardProps })['~standard'];
  return typeof std?.validate === 'function' ? std : undefined;
}

function isZod4(v: unknown): boolean {
  return typeof v === 'object' && v !== null && '_zod' in v;
}

function looksLikeZod3(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !('_zod' in v) && '_def' in v && typeof (v as { _def?: { typeName?: unknown } })._def?.typeName === 'string';
}

/** What registerTool stores for an inputSchema/outputSchema value (normalizeRawShapeSchema); throws where the SDK throws. */
export function storedSchemaV2(v: unknown, target?: V2BuildTarget): object | undefined {
  if (v === undefined) return undefined;
  const sdk = target?.libs.v2;
  if (sdk) return sdk.normalizeRawShapeSchema(v) as object | undefined;
  if (typeof v === 'object' && v !== null && !standardProps(v)) {
    const proto = Object.getPrototypeOf(v) as unknown;
    if ((proto === Object.prototype || proto === null) && Object.values(v).every(isZod4)) return z4.object(v as Record<string, z4.ZodType>);
    if (Object.values(v).some(looksLikeZod3)) {
      throw new TypeError('Raw-shape inputSchema/outputSchema/argsSchema fields must be Zod v4 schemas. Got a Zod v3 field schema.');
    }
  }
  if (!standardProps(v)) throw new TypeError('inputSchema/outputSchema/argsSchema must be a Standard Schema (e.g. z.object({...})) or a raw Zod shape ({ field: z.string() }).');
  return v as object;
}

const LOCAL_DEFINITION_REF = /^#\/(\$defs|definitions)\/([^/~%]+)$/;

/** A typeless root the SDK can prove is an object (object keywords, a local $ref to an object from 2.4.0, every member of a composition). */
function provablyObjectShaped(schema: Record<string, unknown>, root: Record<string, unknown>, followsRef: boolean): boolean {
  if ('properties' in schema || 'patternProperties' in schema || 'additionalProperties' in schema || 'required' in schema) return true;
  const ref = followsRef && typeof schema.$ref === 'string' ? LOCAL_DEFINITION_REF.exec(schema.$ref) : null;
  if (ref) {
    const defs = root[ref[1]] as Record<string, { type?: unknown } | undefined> | undefined;
    if (defs?.[ref[2]]?.type === 'object') return true;
  }
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0) {
      return members.every(
        (m: unknown) => m !== null && typeof m === 'object' && ((m as { type?: unknown }).type === 'object' || provablyObjectShaped(m as Record<string, unknown>, '$id' in m ? {} : root, followsRef)),
      );
    }
  }
  return false;
}

/** standardSchemaToJsonSchema(schema, io): the library's converter, then the SDK's root `type` handling. */
export function standardSchemaToJsonSchemaV2(schema: object, io: 'input' | 'output', target?: V2BuildTarget): JsonSchema {
  const sdk = target?.libs.v2;
  if (sdk) return sdk.standardSchemaToJsonSchema(schema, io) as JsonSchema;
  const std = standardProps(schema)!;
  let result: Record<string, unknown>;
  const convert = std.jsonSchema?.[io];
  if (std.jsonSchema) {
    if (typeof convert !== 'function') throw new Error(`the schema's ~standard.jsonSchema has no ${io} converter`);
    result = convert({ target: V2_JSON_SCHEMA_TARGET }) as Record<string, unknown>;
  } else if (std.vendor === 'zod') {
    if (!('_zod' in schema)) {
      throw new Error('Schema appears to be from zod 3, which the SDK cannot convert to JSON Schema. Upgrade to zod >=4.2.0, or wrap your JSON Schema with fromJsonSchema().');
    }
    result = z4.toJSONSchema(schema as z4.ZodType, { target: V2_JSON_SCHEMA_TARGET, io });
  } else {
    throw new Error(`Schema library "${String(std.vendor)}" does not implement StandardJSONSchemaV1 (\`~standard.jsonSchema\`).`);
  }
  if (io === 'output') {
    if (result.type !== undefined) return result as JsonSchema;
    return (provablyObjectShaped(result, result, target?.traits.outputRootFollowsRef ?? true) ? { type: 'object', ...result } : result) as JsonSchema;
  }
  if (result.type !== undefined && result.type !== 'object') {
    throw new Error(`MCP tool and prompt schemas must describe objects (got type: ${JSON.stringify(result.type)}). Wrap your schema in z.object({...}) or equivalent.`);
  }
  return { type: 'object', ...result };
}

/** Keywords whose value is instance data: a `$ref` inside is a literal, never a pointer. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
/** Keywords whose value maps author-chosen names to subschemas (a name there may spell a keyword). */
const NAME_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
const DRAFT_2019_09 = new Set(['https://json-schema.org/draft/2019-09/schema', 'http://json-schema.org/draft/2019-09/schema']);
const WRAPPED_ROOT = '#/properties/result';

/** An `$id` that moves the base URI pointers resolve against (a fragment-only `$id` is an anchor, not a base). */
function newBase(id: unknown): boolean {
  return id !== undefined && !(typeof id === 'string' && id.startsWith('#'));
}

/** A same-document pointer of the natural root, as it reads once that root sits at `properties.result`. */
function intoWrapper(pointer: string): string {
  return pointer === '#' ? WRAPPED_ROOT : pointer.startsWith('#/') ? `${WRAPPED_ROOT}${pointer.slice(1)}` : pointer;
}

/**
 * The natural schema with its same-document pointers moved under the wrapper: `$ref` / `$dynamicRef` (`#` and
 * `#/...`; other documents' untouched), and a 2019-09 `$recursiveRef: "#"` (without `$recursiveAnchor: true` at the
 * root) turned into a `$ref` to the wrapped root. Data keywords are not descended; a subtree with its own base
 * (`$id`) keeps its pointers; entries of a name map are subschemas whatever their name.
 */
function movePointers(node: unknown, inNameMap: boolean, recursiveToRef: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => movePointers(item, false, recursiveToRef));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  if (!inNameMap && newBase(obj.$id)) return node;
  const out: Record<string, unknown> = {};
  let recursion = false;
  for (const [key, value] of Object.entries(obj)) {
    if (inNameMap) out[key] = movePointers(value, false, recursiveToRef);
    else if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string') out[key] = intoWrapper(value);
    else if (key === '$recursiveRef' && value === '#' && recursiveToRef) recursion = true;
    else if (DATA_KEYWORDS.has(key)) out[key] = value;
    else out[key] = movePointers(value, NAME_MAP_KEYWORDS.has(key), recursiveToRef);
  }
  if (recursion) {
    if ('$ref' in out) out.allOf = [...(Array.isArray(out.allOf) ? (out.allOf as unknown[]) : []), { $ref: WRAPPED_ROOT }];
    else out.$ref = WRAPPED_ROOT;
  }
  return out;
}

/**
 * The outputSchema as a 2025-era client receives it. Both SDK clients negotiate the 2025-11-25 era by default
 * (`versionNegotiation.mode: 'legacy'`), and so does every client that does not speak 2026-07-28: the server's
 * 2025 codec wraps a root whose `type` is not "object" (SEP-2106) into
 * `{ $schema?, type: "object", properties: { result }, required: ["result"] }`, moving the root's same-document
 * pointers under `properties.result` (the same code in every release from 2.0.0 to 2.4.0); structuredContent is
 * wrapped the same way. A 2026-07-28 client gets the natural root.
 */
export function legacyWireOutputSchema(natural: JsonSchema): JsonSchema {
  if (natural.type === 'object') return natural;
  const $schema = typeof natural.$schema === 'string' ? natural.$schema : undefined;
  const wrap = (result: unknown): JsonSchema => ({ ...($schema !== undefined ? { $schema } : {}), type: 'object', properties: { result }, required: ['result'] }) as JsonSchema;
  if (newBase(natural.$id)) return wrap(natural);
  const recursiveToRef = $schema !== undefined && DRAFT_2019_09.has($schema.replace(/#$/, '')) && natural.$recursiveAnchor !== true;
  return wrap(movePointers(natural, false, recursiveToRef));
}

/** The published inputSchema / outputSchema of a registerTool value (undefined: no outputSchema). */
export function convertSchemaV2(v: unknown, io: 'input' | 'output', target?: V2BuildTarget): JsonSchema | undefined {
  const stored = storedSchemaV2(v, target);
  if (!stored) return io === 'input' ? EMPTY_OBJECT_SCHEMA() : undefined;
  const json = standardSchemaToJsonSchemaV2(stored, io, target);
  return io === 'output' ? legacyWireOutputSchema(json) : json;
}

/**
 * The zod 4 schema instances that make v2's conversion of `v` fail, in the order zod meets them: same target and io
 * as the SDK, zod's `unrepresentable` hook reports each failing site instead of throwing at the first one.
 */
export function unrepresentableSchemasV2(v: unknown, io: 'input' | 'output', target?: V2BuildTarget): object[] {
  let stored: object | undefined;
  try {
    stored = storedSchemaV2(v, target);
  } catch {
    return [];
  }
  if (!stored || !('_zod' in stored)) return [];
  return zod4UnrepresentableSites(stored, V2_JSON_SCHEMA_TARGET, io, target?.libs.z4CoreToJSONSchema);
}

/** The zod 4 schema instances zod's `unrepresentable` hook reports while converting `schema` (both SDK lines use it). */
export function zod4UnrepresentableSites(
  schema: object,
  target: 'draft-7' | typeof V2_JSON_SCHEMA_TARGET,
  io: 'input' | 'output',
  // zod 4 core's toJSONSchema: the bundled one, or the workspace's (SDK 1.x with the workspace's own zod).
  toJSONSchema: (schema: never, options: object) => unknown = z4CoreToJSONSchema,
): object[] {
  const hits: object[] = [];
  try {
    toJSONSchema(schema as never, {
      target,
      io,
      unrepresentable: (info: { zodSchema: object }) => {
        hits.push(info.zodSchema);
        return 'any';
      },
    });
  } catch {
    /* another kind of failure (cycles...): reported as unresolved by the caller, nothing to locate here */
  }
  return hits;
}

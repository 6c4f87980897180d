/**
 * The tools/list entry @modelcontextprotocol/sdk 1.x publishes for one tool, built from the values the
 * TypeScript front-end rebuilt (real zod schemas, static strings and objects).
 *
 * It follows McpServer at the workspace's release (dist/cjs/server/mcp.js; what differs between releases is
 * `TsContractTraits` in common/frameworks.ts). 1.32.x: registerTool/tool store `getZodSchemaObject(inputSchema)`
 * and `execution: { taskSupport: "forbidden" }`; the tools/list handler publishes
 * `normalizeObjectSchema(schema) ? toJsonSchemaCompat(obj, { strictUnions: true, pipeStrategy: "input" }) : EMPTY`
 * and the output schema with pipeStrategy "output". Before 1.23: `zodToJsonSchema(z.object(shape), { strictUnions })`.
 * The conversion calls the SDK's own helpers (the workspace's copies when trusted, see libraries.ts), so zod 4 goes
 * through `toJSONSchema` (draft-7) and zod 3 through `zod-to-json-schema`, with the SDK's options.
 */
import type { JsonSchema, JsonValue } from '../../analysis/model';
import { tsContractTraits, type ContractBuilder, type TsContractTraits } from '../../../../common/frameworks';
import { convertSchemaV2, unrepresentableSchemasV2, zod4UnrepresentableSites, type V2BuildTarget } from './v2';
import { bundledLibraries, type TsLibraries } from './libraries';

/** The SDK release and the library copies a 1.x contract is built for (default: the newest release, the bundled copies). */
export interface TsBuildTarget {
  traits: TsContractTraits;
  libs: TsLibraries;
}
const NEWEST_TARGET = (): TsBuildTarget => ({ traits: tsContractTraits(undefined), libs: bundledLibraries() });

/** The TypeScript builders: @modelcontextprotocol/sdk 1.x (zod-compat) and @modelcontextprotocol/server 2.x (Standard Schema). */
export type TsContractBuilder = Extract<ContractBuilder, 'sdk-zod-compat' | 'sdk-standard-schema'>;

export interface TsToolValues {
  name: string | undefined;
  title?: unknown;
  description?: unknown;
  /** The evaluated inputSchema (zod schema or raw shape); undefined when not given. */
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  /** v2 publishes `icons` as given; 1.x drops the key. */
  icons?: unknown;
  _meta?: unknown;
  /** registerToolTask's execution (default: registerTool's `{ taskSupport: "forbidden" }`). */
  execution?: unknown;
}

export interface TsContractResult {
  contract: JsonSchema;
  /** The inputSchema is given but is not an object schema / raw shape: the SDK publishes an empty object. */
  inputSchemaNotObject: boolean;
  /** Parts that cannot be published (the SDK itself would throw at registration or at tools/list). */
  errors: { part: 'inputSchema' | 'outputSchema' | 'annotations' | 'icons' | '_meta'; reason: string }[];
}

function isZodTypeLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { parse?: unknown }).parse === 'function' && typeof (v as { safeParse?: unknown }).safeParse === 'function';
}
function isZodSchemaInstance(v: object): boolean {
  return '_def' in v || '_zod' in v || isZodTypeLike(v);
}
/** Same test as the SDK's isZodRawShapeCompat. */
function isRawShape(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  if (isZodSchemaInstance(v)) return false;
  if (Object.keys(v).length === 0) return true;
  return Object.values(v).some(isZodTypeLike);
}

function isZod4(v: unknown): boolean {
  return typeof v === 'object' && v !== null && ('_zod' in v || Object.values(v).some((f) => typeof f === 'object' && f !== null && '_zod' in f));
}

/** What `_createRegisteredTool` stores (getZodSchemaObject, or `z.object(shape)` before 1.22); throws like the SDK does on a non-schema. */
function storedSchema(v: unknown, target: TsBuildTarget): object | undefined {
  if (!v) return undefined;
  const { traits, libs } = target;
  if (traits.conversion === 'zod-to-json-schema' && isZod4(v)) {
    throw new Error(`${traits.release} converts zod 3 schemas only (zod-to-json-schema); zod 4 support came in 1.23.0`);
  }
  if (isRawShape(v)) return (traits.conversion === 'zod-compat' ? libs.objectFromShape(v) : libs.zodObject(v)) as object;
  if (typeof v !== 'object' || !isZodSchemaInstance(v)) throw new Error('inputSchema must be a Zod schema or raw shape, received an unrecognized object');
  // Before 1.22 registerTool wraps whatever it gets in z.object(): a schema's own fields become the "shape" (not modelled).
  if (!traits.acceptsSchemaObject) {
    throw new Error(`${traits.release} takes a raw shape only: it wraps this schema in z.object() again, and tools/list then fails for the whole server (a z.object() in 1.22.0+)`);
  }
  return v;
}

function toJson(v: unknown): JsonValue {
  // The wire format: what JSON.stringify keeps (undefined dropped, -0 -> 0, Infinity -> null).
  const copy = plainJsonCopy(v, 0);
  if (copy !== NOT_PLAIN) return copy;
  return JSON.parse(JSON.stringify(v) ?? 'null') as JsonValue;
}

const NOT_PLAIN = Symbol('not plain JSON');

function plainOrCopy(json: JsonSchema | undefined): JsonSchema | undefined {
  return json === undefined ? undefined : (toJson(json) as JsonSchema);
}

/**
 * A copy of `v` when it is already plain JSON data (what a converted schema is), which JSON.stringify + parse would
 * return unchanged — without serialising; NOT_PLAIN as soon as anything would be transformed (undefined, -0,
 * non-finite numbers, toJSON, class instances, "__proto__" keys), and the caller takes the exact round trip.
 */
function plainJsonCopy(v: unknown, depth: number): JsonValue | typeof NOT_PLAIN {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? v : NOT_PLAIN;
  if (typeof v !== 'object' || depth > 200) return NOT_PLAIN;
  if (Array.isArray(v)) {
    const out: JsonValue[] = new Array<JsonValue>(v.length);
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) return NOT_PLAIN;
      const c = plainJsonCopy(v[i], depth + 1);
      if (c === NOT_PLAIN) return NOT_PLAIN;
      out[i] = c;
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  const out: { [key: string]: JsonValue } = {};
  for (const k of Object.keys(v)) {
    if (k === '__proto__') return NOT_PLAIN;
    const c = plainJsonCopy((v as Record<string, unknown>)[k], depth + 1);
    if (c === NOT_PLAIN) return NOT_PLAIN;
    out[k] = c;
  }
  return out;
}

/** True when the stored schema is an object schema (what normalizeObjectSchema accepts). */
export function isObjectSchema(v: unknown, builder: TsContractBuilder = 'sdk-zod-compat', target: TsBuildTarget = NEWEST_TARGET()): boolean {
  if (builder === 'sdk-standard-schema') {
    try {
      return convertSchemaV2(v, 'input') !== undefined;
    } catch {
      return false;
    }
  }
  try {
    const stored = storedSchema(v, target);
    return !!stored && !!target.libs.normalizeObjectSchema(stored);
  } catch {
    return false;
  }
}

/** A schema already converted (reused from an earlier analysis of the same text). */
export class ConvertedSchema {
  readonly json: JsonSchema | undefined;
  /** Keeps its own copy: the JSON of the analysis that converted it is handed out and may be changed by its reader. */
  constructor(
    json: JsonSchema | undefined,
    readonly notObject: boolean,
  ) {
    this.json = json === undefined ? undefined : (toJson(json) as JsonSchema);
  }
}

/**
 * The published JSON Schema of an inputSchema / outputSchema value. `shared` is set when `json` is a cached
 * ConvertedSchema's (it belongs to the cache: copy it before handing it out); otherwise `json` is a fresh plain copy.
 */
function convertSchema(
  v: unknown,
  io: 'input' | 'output',
  builder: TsContractBuilder,
  target: TsBuildTarget,
  v2Target: V2BuildTarget | undefined,
): { json?: JsonSchema; notObject: boolean; shared?: boolean } {
  if (v instanceof ConvertedSchema) return { json: v.json, notObject: v.notObject, shared: true };
  // v2 refuses a non-object input root (throws, as the SDK does at tools/list) instead of publishing an empty object.
  if (builder === 'sdk-standard-schema') return { json: plainOrCopy(convertSchemaV2(v, io, v2Target)), notObject: false };
  const { traits, libs } = target;
  const stored = storedSchema(v, target);
  // A fresh object each time (nested ones too): the result is handed out as is.
  const empty = (): JsonSchema => (traits.emptyInputSchema === 'with-properties' ? { type: 'object', properties: {} } : { type: 'object' });
  if (traits.conversion === 'zod-to-json-schema') {
    // Before 1.23 the stored schema itself is converted, object or not.
    if (!stored) return { json: io === 'input' ? empty() : undefined, notObject: false };
    const json = libs.zodToJsonSchema(stored, traits.pipeStrategy ? { strictUnions: true, pipeStrategy: io } : { strictUnions: true });
    return { json: toJson(json) as JsonSchema, notObject: false };
  }
  const obj = stored ? libs.normalizeObjectSchema(stored) : undefined;
  if (!obj) return { json: io === 'input' ? empty() : undefined, notObject: !!stored };
  const json = libs.toJsonSchemaCompat(obj, { strictUnions: true, pipeStrategy: io });
  return { json: toJson(json) as JsonSchema, notObject: false };
}

/**
 * Stands for a converted schema in the tool object while the rest of it is copied to plain JSON; the schema (plain
 * JSON already) is put back in its place afterwards instead of being copied a second time.
 */
const SCHEMA_SLOT = null;

/**
 * The zod 4 schema instances that make the SDK's conversion of `v` fail (zod: "... cannot be represented in JSON
 * Schema"), in the order zod meets them. Same converter, target and io as the SDK; zod's own `unrepresentable`
 * hook reports each failing site instead of throwing at the first one. Empty for zod 3 and for schemas that convert.
 */
export function unrepresentableSchemas(v: unknown, io: 'input' | 'output', builder: TsContractBuilder = 'sdk-zod-compat', target: TsBuildTarget = NEWEST_TARGET(), v2Target?: V2BuildTarget): object[] {
  if (v instanceof ConvertedSchema) return [];
  if (builder === 'sdk-standard-schema') return unrepresentableSchemasV2(v, io, v2Target);
  if (target.traits.conversion !== 'zod-compat') return [];
  let obj: object | undefined;
  try {
    const stored = storedSchema(v, target);
    obj = stored ? (target.libs.normalizeObjectSchema(stored) as object | undefined) : undefined;
  } catch {
    return [];
  }
  if (!obj || !('_zod' in obj)) return [];
  // Same converter, target and io as the SDK: zod's own `unrepresentable` hook reports each failing site.
  return zod4UnrepresentableSites(obj, 'draft-7', io, target.libs.z4CoreToJSONSchema);
}

/**
 * Builds the published tool object. `inputResolved`/`outputResolved` false means the schema could not be rebuilt:
 * the key is then left out (and the front-end lists it as unresolved) rather than guessed.
 */
export function buildTsContract(
  values: TsToolValues,
  // target: the 1.x release and copies; v2Target: the v2 release and copies (each read by its builder only).
  opts: { inputResolved: boolean; outputResolved: boolean; builder?: TsContractBuilder; target?: TsBuildTarget; v2Target?: V2BuildTarget },
): TsContractResult {
  const builder = opts.builder ?? 'sdk-zod-compat';
  const v2 = builder === 'sdk-standard-schema';
  const target = opts.target ?? NEWEST_TARGET();
  const traits = target.traits;
  const errors: TsContractResult['errors'] = [];
  const tool: Record<string, unknown> = { name: values.name };
  if (values.title !== undefined && (v2 || traits.title)) tool.title = values.title;
  if (values.description !== undefined) tool.description = values.description;
  let inputSchemaNotObject = false;
  let input: { json?: JsonSchema; shared?: boolean } | undefined;
  let output: { json?: JsonSchema; shared?: boolean } | undefined;
  if (opts.inputResolved) {
    try {
      const r = convertSchema(values.inputSchema, 'input', builder, target, opts.v2Target);
      // An undefined json stays as is: the copy below drops the key, as it always did.
      tool.inputSchema = r.json === undefined ? undefined : SCHEMA_SLOT;
      input = r;
      inputSchemaNotObject = r.notObject;
    } catch (err) {
      errors.push({ part: 'inputSchema', reason: err instanceof Error ? err.message : String(err) });
    }
  }
  // Annotations and _meta go on the wire as written: a value JSON cannot carry (a schema, a cycle) is not guessed.
  for (const key of v2 ? (['annotations', 'icons', '_meta'] as const) : (['annotations', '_meta'] as const)) {
    const v = values[key];
    if (v === undefined) continue;
    // Releases before 1.11 (annotations) and 1.18 (_meta) do not publish the key.
    if (!v2 && ((key === 'annotations' && !traits.annotations) || (key === '_meta' && !traits.meta))) continue;
    try {
      if (typeof v === 'object' && v !== null && ('_zod' in v || '_def' in v)) throw new Error('a zod schema is not a plain object');
      tool[key] = toJson(v);
    } catch (err) {
      errors.push({ part: key, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  // 1.x: registerTool stores execution { taskSupport: "forbidden" } (registerToolTask its own); v2 never sets it (and its 2026 codec deletes it).
  // Before 1.24 there is no execution at all.
  if (!v2 && traits.execution) tool.execution = values.execution !== undefined ? toJson(values.execution) : { taskSupport: 'forbidden' };
  // v2 publishes outputSchema whenever one is given (normalizeRawShapeSchema keeps any Standard Schema).
  if (opts.outputResolved && (v2 ? values.outputSchema !== undefined : values.outputSchema && traits.outputSchema)) {
    try {
      const r = convertSchema(values.outputSchema, 'output', builder, target, opts.v2Target);
      if (r.json) {
        tool.outputSchema = SCHEMA_SLOT;
        output = r;
      }
    } catch (err) {
      errors.push({ part: 'outputSchema', reason: err instanceof Error ? err.message : String(err) });
    }
  }
  const contract = toJson(tool) as JsonSchema;
  // Same keys, same order: each slot is replaced by its schema (a copy of a cached one, never the cache's own).
  if (input?.json !== undefined) contract.inputSchema = input.shared ? toJson(input.json) : input.json;
  if (output?.json !== undefined) contract.outputSchema = output.shared ? toJson(output.json) : output.json;
  return { contract, inputSchemaNotObject, errors };
}

/**
 * The prompts/list entry each TypeScript SDK line publishes for one prompt, built from the values the front-end
 * rebuilt (real zod schemas, static strings and objects).
 *
 * 1.x (@modelcontextprotocol/sdk 1.32, dist/cjs/server/mcp.js): registerPrompt and prompt() store
 * `objectFromShape(argsSchema)` (argsSchema is a raw shape); the prompts/list handler publishes
 * `{ name, title, description, arguments }` with `arguments = promptArgumentsFromSchema(schema)`: one
 * `{ name, description: getSchemaDescription(field), required: !isSchemaOptional(field) }` per shape entry, with the
 * SDK's own zod-compat helpers (zod 4: `required` unless the field's def is `optional`, so `.default()` is required).
 * 2.x (@modelcontextprotocol/server 2.4): registerPrompt stores `normalizeRawShapeSchema(argsSchema)` and publishes
 * `{ name, title, description, arguments, icons, _meta }`, `arguments` read from the input JSON Schema of the
 * Standard Schema (`properties` and `required`, so `.default()` is not required). Undefined keys are not on the wire.
 */
import { getObjectShape, getSchemaDescription, isSchemaOptional, objectFromShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { JsonValue } from '../../analysis/model';
import type { TsContractBuilder } from './index';
import { standardSchemaToJsonSchemaV2, storedSchemaV2 } from './v2';

export interface TsPromptValues {
  name: string | undefined;
  title?: unknown;
  description?: unknown;
  /** The evaluated argsSchema (raw shape, or a Standard Schema on v2); undefined when not given. */
  argsSchema?: unknown;
  icons?: unknown;
  _meta?: unknown;
}

export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface TsPromptContractResult {
  contract: { [key: string]: JsonValue };
  /** undefined when the prompt has no argsSchema (the key is then absent) or it cannot be published. */
  arguments?: PromptArgument[];
  /** What the SDK itself would refuse (it throws at registration or at prompts/list). */
  errors: { part: 'argsSchema'; reason: string }[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** 1.x: `promptArgumentsFromSchema(objectFromShape(shape))` with the SDK's helpers. */
function argumentsV1(argsSchema: unknown): PromptArgument[] {
  // 1.x takes a raw shape: `objectFromShape` of a z.object() would read the schema's own properties as fields.
  if (!isPlainObject(argsSchema)) throw new Error('argsSchema of @modelcontextprotocol/sdk 1.x must be a raw shape ({ field: z.string() }), not a schema');
  const schema = objectFromShape(argsSchema as Parameters<typeof objectFromShape>[0]);
  const shape = getObjectShape(schema as Parameters<typeof getObjectShape>[0]);
  if (!shape) return [];
  return Object.entries(shape).map(([name, field]) => {
    const description = getSchemaDescription(field);
    return { name, ...(description !== undefined ? { description } : {}), required: !isSchemaOptional(field) };
  });
}

/** 2.x: `promptArgumentsFromStandardSchema(normalizeRawShapeSchema(argsSchema))`. */
function argumentsV2(argsSchema: unknown): PromptArgument[] {
  const stored = storedSchemaV2(argsSchema)!;
  const json = standardSchemaToJsonSchemaV2(stored, 'input') as { properties?: Record<string, { description?: unknown }>; required?: string[] };
  const required = json.required ?? [];
  return Object.entries(json.properties ?? {}).map(([name, prop]) => {
    const description = prop?.description;
    return { name, ...(typeof description === 'string' ? { description } : {}), required: required.includes(name) };
  });
}

/** The wire form of a value (what JSON.stringify keeps). */
function wire(v: unknown): JsonValue {
  return JSON.parse(JSON.stringify(v) ?? 'null') as JsonValue;
}

/**
 * The prompts/list entry. `argsResolved` false: the argsSchema is written but not statically known, so `arguments`
 * is left out (the caller reports it unresolved).
 */
export function buildTsPromptContract(values: TsPromptValues, opts: { argsResolved: boolean; builder: TsContractBuilder }): TsPromptContractResult {
  const errors: TsPromptContractResult['errors'] = [];
  let args: PromptArgument[] | undefined;
  if (values.argsSchema !== undefined && opts.argsResolved) {
    try {
      args = opts.builder === 'sdk-standard-schema' ? argumentsV2(values.argsSchema) : argumentsV1(values.argsSchema);
    } catch (err) {
      errors.push({ part: 'argsSchema', reason: err instanceof Error ? err.message : String(err) });
    }
  }
  const entry: Record<string, unknown> = { name: values.name, title: values.title, description: values.description, arguments: args };
  if (opts.builder === 'sdk-standard-schema') {
    entry.icons = values.icons;
    entry._meta = values._meta;
  }
  return { contract: wire(entry) as { [key: string]: JsonValue }, arguments: args, errors };
}

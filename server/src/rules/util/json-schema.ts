/** JSON Schema helpers over a parameter's published schema (anyOf/oneOf/allOf branches and local $refs followed). */
import type { JsonSchema, JsonValue, ParameterDefinition, ToolDefinition } from '../../analysis/model';
import { frozen, memoByObjectPair } from './memo';

export function isObj(v: JsonValue | undefined): v is { [key: string]: JsonValue } {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Resolves `#/$defs/X` / `#/definitions/X` against the tool's inputSchema. */
export function deref(schema: JsonSchema, root: JsonSchema | undefined): JsonSchema {
  let s = schema;
  for (let guard = 0; guard < 16 && typeof s.$ref === 'string' && root; guard++) {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref);
    const defs = m ? root[m[1]] : undefined;
    const target = isObj(defs) ? defs[decodeURIComponent(m![2])] : undefined;
    if (!isObj(target)) break;
    s = target;
  }
  return s;
}

/** The schema and every alternative/conjunct branch below it (non-null). */
export function branches(schema: JsonSchema | undefined, root?: JsonSchema): JsonSchema[] {
  if (!schema) return [];
  return cachedBranches(schema, root);
}

// Most parameter rules ask for the branches, types and keywords of every parameter: walk each schema once per pass.
const cachedBranches = memoByObjectPair((schema: JsonSchema, root: JsonSchema | undefined) => frozen(computeBranches(schema, root)));

function computeBranches(schema: JsonSchema, root: JsonSchema | undefined): JsonSchema[] {
  const out: JsonSchema[] = [];
  const visit = (s: JsonSchema, depth: number) => {
    if (depth > 8) return;
    const d = deref(s, root);
    out.push(d);
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const list = d[key];
      if (Array.isArray(list)) for (const b of list) if (isObj(b)) visit(b, depth + 1);
    }
  };
  visit(schema, 0);
  return out;
}

/** Every JSON type the schema admits, across branches ("integer" also counts as "number" when asked via hasType). */
export function schemaTypes(schema: JsonSchema | undefined, root?: JsonSchema): Set<string> {
  return schema ? cachedTypes(schema, root) : computeTypes(schema, root);
}

// Shared by every caller of a pass: read it, never add to it.
const cachedTypes = memoByObjectPair((schema: JsonSchema, root: JsonSchema | undefined) => computeTypes(schema, root));

function computeTypes(schema: JsonSchema | undefined, root: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  for (const b of branches(schema, root)) {
    const t = b.type;
    if (typeof t === 'string') types.add(t);
    else if (Array.isArray(t)) for (const x of t) if (typeof x === 'string') types.add(x);
    if (Array.isArray(b.enum)) for (const v of b.enum) types.add(jsonTypeOf(v));
    if ('const' in b) types.add(jsonTypeOf(b.const));
  }
  return types;
}

export function jsonTypeOf(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The non-null type when the schema admits exactly one (besides null), e.g. "string" for `str | None`. */
export function mainType(schema: JsonSchema | undefined, root?: JsonSchema): string | undefined {
  return schema ? cachedMainType(schema, root) : computeMainType(schema, root);
}

const cachedMainType = memoByObjectPair((schema: JsonSchema, root: JsonSchema | undefined) => computeMainType(schema, root));

function computeMainType(schema: JsonSchema | undefined, root: JsonSchema | undefined): string | undefined {
  const t = [...schemaTypes(schema, root)].filter((x) => x !== 'null');
  const uniq = new Set(t.map((x) => (x === 'integer' && t.includes('number') ? 'number' : x)));
  return uniq.size === 1 ? [...uniq][0] : undefined;
}

/** A keyword set on the schema or any of its branches. */
export function keywordValue(schema: JsonSchema | undefined, keyword: string, root?: JsonSchema): JsonValue | undefined {
  for (const b of branches(schema, root)) if (keyword in b) return b[keyword];
  return undefined;
}

export function hasKeyword(schema: JsonSchema | undefined, keyword: string, root?: JsonSchema): boolean {
  return keywordValue(schema, keyword, root) !== undefined;
}

/** The tool's published inputSchema (for $ref resolution). */
export function inputSchemaOf(tool: ToolDefinition): JsonSchema | undefined {
  const s = tool.contract.inputSchema;
  return isObj(s) ? s : undefined;
}

/** The parameter's enum values (across branches) if it is restricted to a list. */
export function enumValues(param: ParameterDefinition, root?: JsonSchema): JsonValue[] | undefined {
  for (const b of branches(param.schema, root)) {
    if (Array.isArray(b.enum)) return b.enum;
    if ('const' in b) return [b.const];
  }
  return undefined;
}

/** A parameter whose description the model sees (from the published schema, else from the model). */
export function paramDescription(param: ParameterDefinition): string | undefined {
  if (param.description?.value !== undefined) return param.description.value;
  const d = keywordValue(param.schema, 'description');
  return typeof d === 'string' ? d : undefined;
}

/**
 * FastMCP's schema post-processing (fastmcp/utilities/json_schema.py): `compress_schema` with title pruning and
 * unused-$defs removal at registration, then `dereference_refs` at tools/list time (the default
 * DereferenceRefsMiddleware): `$ref`s inlined with their sibling keywords, `$defs` dropped, cycles kept.
 */
import type { JsonSchema, JsonValue } from '../../analysis/model';

const SCHEMA_KEYWORDS = new Set(['type', 'properties', '$ref', 'items', 'allOf', 'oneOf', 'anyOf', 'required']);
const METADATA_KEYS = new Set(['title', 'description', 'deprecated', 'readOnly', 'writeOnly']);
const LITERAL_KEYWORDS = new Set(['default', 'const', 'examples', 'example', 'enum']);
const SUBSCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
const SUBSCHEMA_VALUE_KEYS = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'if',
  'then',
  'else',
  'not',
]);
const SUBSCHEMA_LIST_KEYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

function clone<T extends JsonValue>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function isObj(v: unknown): v is { [k: string]: JsonValue } {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * `compress_schema(schema, prune_titles=True)` (no dereference, no additionalProperties pruning). `metadataOnlyTitles`:
 * also drop the title of a node holding only metadata (`{"title": "Value"}` of an `Any` field; fastmcp 3+).
 */
export function compressSchema(input: JsonSchema, pruneTitles = true, metadataOnlyTitles = true): JsonSchema {
  const schema = resolveRootRef(clone(input));
  const rootRefs = new Set<string>();
  const deps = new Map<string, string[]>();
  let truncated = false;
  const walk = (node: JsonValue, current: string | undefined, skipDefs: boolean, depth: number, inSchema: boolean): void => {
    if (depth > 50) {
      truncated = true;
      return;
    }
    if (isObj(node)) {
      const ref = node.$ref;
      if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
        const name = refTargetName(ref);
        if (name !== undefined) {
          if (current) deps.set(name, [...(deps.get(name) ?? []), current]);
          else rootRefs.add(name);
        }
      }
      if (inSchema && pruneTitles && typeof node.title === 'string') {
        const keys = Object.keys(node);
        if (keys.some((k) => SCHEMA_KEYWORDS.has(k)) || (metadataOnlyTitles && keys.every((k) => METADATA_KEYS.has(k)))) delete node.title;
      }
      for (const [key, value] of Object.entries(node)) {
        if (skipDefs && key === '$defs') continue;
        if (!inSchema) {
          walk(value, current, false, depth + 1, false);
          continue;
        }
        if (SUBSCHEMA_MAP_KEYS.has(key) && isObj(value)) {
          for (const sub of Object.values(value)) walk(sub, current, false, depth + 1, true);
          continue;
        }
        if (LITERAL_KEYWORDS.has(key)) continue;
        if (SUBSCHEMA_LIST_KEYS.has(key) && Array.isArray(value)) {
          for (const item of value) walk(item, current, false, depth + 1, true);
          continue;
        }
        if (SUBSCHEMA_VALUE_KEYS.has(key)) {
          walk(value, current, false, depth + 1, true);
          continue;
        }
        walk(value, current, false, depth + 1, false);
      }
    } else if (Array.isArray(node)) for (const item of node) walk(item, current, false, depth + 1, inSchema);
  };
  walk(schema, undefined, true, 0, true);
  const defs = schema.$defs;
  if (isObj(defs)) {
    for (const [name, def] of Object.entries(defs)) walk(def, name, false, 0, true);
    if (truncated) return schema;
    const used = (name: string, visiting: Set<string> = new Set()): boolean => {
      if (rootRefs.has(name)) return true;
      const refs = deps.get(name) ?? [];
      if (visiting.has(name)) return false;
      const next = new Set([...visiting, name]);
      return refs.some((r) => !next.has(r) && used(r, next));
    };
    for (const name of Object.keys(defs)) if (!used(name)) delete defs[name];
    if (!Object.keys(defs).length) delete schema.$defs;
  }
  return schema;
}

function refTargetName(ref: string): string | undefined {
  const parts = decodeURIComponent(ref.slice(1).replace(/^\/+/, '')).split('/');
  if (parts[0] === '$defs' && parts[1]) return parts[1].replace(/~1/g, '/').replace(/~0/g, '~');
  return undefined;
}

function resolvePointer(root: JsonSchema, ref: string): JsonValue | undefined {
  const parts = ref.slice(1) ? decodeURIComponent(ref.slice(1).replace(/^\/+/, '')).split('/') : [];
  let node: JsonValue = root;
  for (const part of parts) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObj(node)) node = node[key];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** `resolve_root_ref`: a root that is only a `$ref` gets the definition's content (keeping `$defs`). */
function resolveRootRef(schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if ('type' in schema || typeof ref !== 'string' || !ref.startsWith('#')) return schema;
  const target = resolvePointer(schema, ref);
  if (!isObj(target)) return schema;
  const rest: JsonSchema = {};
  for (const [k, v] of Object.entries(schema)) if (k !== '$ref') rest[k] = v;
  return { ...target, ...rest };
}

/** True when the schema (following local refs) has `$defs` references that form a cycle. */
function hasCycle(schema: JsonSchema): boolean {
  const defs = isObj(schema.$defs) ? schema.$defs : {};
  const refsOf = (node: JsonValue, out: Set<string>) => {
    if (isObj(node)) {
      if (typeof node.$ref === 'string') {
        const n = refTargetName(node.$ref);
        if (n !== undefined) out.add(n);
      }
      for (const v of Object.values(node)) refsOf(v, out);
    } else if (Array.isArray(node)) for (const v of node) refsOf(v, out);
  };
  const graph = new Map<string, Set<string>>();
  for (const [n, d] of Object.entries(defs)) {
    const s = new Set<string>();
    refsOf(d, s);
    graph.set(n, s);
  }
  const state = new Map<string, number>();
  const visit = (n: string): boolean => {
    if (state.get(n) === 1) return true;
    if (state.get(n) === 2) return false;
    state.set(n, 1);
    for (const m of graph.get(n) ?? []) if (graph.has(m) && visit(m)) return true;
    state.set(n, 2);
    return false;
  };
  return [...graph.keys()].some((n) => visit(n));
}

/**
 * `dereference_refs`: inline every local `$defs` reference; keywords next to a `$ref` override the definition's.
 * Cyclic schemas only get their root `$ref` resolved.
 */
export function dereferenceRefs(schema: JsonSchema): JsonSchema {
  if (!schema.$defs && !JSON.stringify(schema).includes('"$ref"')) return schema;
  if (hasCycle(schema)) return resolveRootRef(schema);
  const defs = isObj(schema.$defs) ? schema.$defs : {};
  const inline = (node: JsonValue, depth: number): JsonValue => {
    if (depth > 200) throw new Error('schema too deep to inline');
    if (Array.isArray(node)) return node.map((n) => inline(n, depth + 1));
    if (!isObj(node)) return node;
    const out: { [k: string]: JsonValue } = {};
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
      const name = refTargetName(ref);
      const target = name !== undefined ? defs[name] : undefined;
      if (isObj(target)) {
        const base = inline(target, depth + 1) as { [k: string]: JsonValue };
        Object.assign(out, base);
        for (const [k, v] of Object.entries(node)) if (k !== '$ref' && k !== '$defs') out[k] = LITERAL_KEYWORDS.has(k) ? v : inline(v, depth + 1);
        return out;
      }
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === '$defs') continue;
      out[k] = LITERAL_KEYWORDS.has(k) ? v : inline(v, depth + 1);
    }
    return out;
  };
  const result = inline(schema, 0) as JsonSchema;
  return stripDiscriminator(result) as JsonSchema;
}

function stripDiscriminator(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(stripDiscriminator);
  if (!isObj(node)) return node;
  const skip = 'discriminator' in node && ('anyOf' in node || 'oneOf' in node);
  const out: { [k: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'discriminator' && skip) continue;
    if (SUBSCHEMA_MAP_KEYS.has(k) && isObj(v)) {
      const m: { [k: string]: JsonValue } = {};
      for (const [n, s] of Object.entries(v)) m[n] = stripDiscriminator(s);
      out[k] = m;
    } else if (LITERAL_KEYWORDS.has(k)) out[k] = v;
    else out[k] = stripDiscriminator(v);
  }
  return out;
}

/** `is_object_schema`. */
export function isObjectSchema(schema: JsonSchema, root: JsonSchema = schema, seen: Set<string> = new Set()): boolean {
  const t = schema.type;
  if (Array.isArray(t)) return JSON.stringify(t.filter((x) => x !== 'null')) === '["object"]';
  if ('type' in schema) return t === 'object';
  if ('properties' in schema) return true;
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || seen.has(ref)) return false;
  const target = resolvePointer(root, ref);
  if (!isObj(target)) return false;
  return isObjectSchema(target, root, new Set([...seen, ref]));
}

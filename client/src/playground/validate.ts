/**
 * JSON Schema validation of tool arguments (inputSchema) and of structuredContent (outputSchema) with ajv.
 * It runs in the extension host, not the webview: ajv compiles schemas with `new Function`, which the
 * webview's strict CSP (no unsafe-eval) rightly forbids.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';

export interface Violation {
  /** JSON pointer of the value the message is about ("" = the whole object). */
  path: string;
  message: string;
  keyword: string;
}

export interface ValidationResult {
  valid: boolean;
  violations: Violation[];
  /** Set when the schema itself could not be compiled (the call may still be sent). */
  schemaError?: string;
}

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/**
 * Schemas come from the server: a `pattern` like `^(a+)+$` would backtrack for minutes in the extension host with
 * JavaScript's engine. RE2 matches in linear time; a pattern it cannot compile (look-around, back-references) makes
 * the schema not validated here, said as a schema error (the server still validates its own input).
 */
const linearTimeRegExp = Object.assign(
  (pattern: string, flags: string) => {
    const re = RE2JS.compile(pattern);
    // ajv keys its compiled patterns by toString(): each must say which pattern it is.
    return { test: (s: string) => re.matcher(s).find(), toString: () => `/${pattern}/${flags}` };
  },
  { code: 'RE2JS' },
);

/** Deeper schemas are not validated here: ajv's compiled code recurses once per level and would overflow the stack. */
export const MAX_SCHEMA_DEPTH = 64;

/** Nesting depth of a JSON value, measured without recursion (the value itself may be deep enough to overflow). */
function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, d + 1]);
  }
  return max;
}
const engines = new Map<string, AnyAjv>();

function engine(draft: '07' | '2019' | '2020'): AnyAjv {
  let a = engines.get(draft);
  if (!a) {
    const opts = { allErrors: true, strict: false, validateFormats: true, allowUnionTypes: true, code: { regExp: linearTimeRegExp } };
    a = draft === '2020' ? new Ajv2020(opts) : draft === '2019' ? new Ajv2019(opts) : new Ajv(opts);
    addFormats(a);
    engines.set(draft, a);
  }
  return a;
}

const cache = new Map<string, ValidateFunction | Error>();

function compile(schema: unknown): ValidateFunction | Error {
  // Checked before the cache key: JSON.stringify itself overflows on a deep enough schema.
  if (depthOf(schema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH) return new Error(`the schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep: not validated here`);
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit;
  let fn: ValidateFunction | Error;
  try {
    const s = { ...(schema as Record<string, unknown>) };
    const declared = typeof s.$schema === 'string' ? s.$schema : '';
    const draft = /2020-12/.test(declared) ? '2020' : /2019-09/.test(declared) ? '2019' : /draft-0[4-7]/.test(declared) ? '07' : s.$defs || s.prefixItems ? '2020' : '07';
    // ajv only knows its own meta-schemas by exact URI; the draft is chosen above instead.
    delete s.$schema;
    delete s.$id;
    fn = engine(draft).compile(s);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    fn = new Error(/error parsing regexp/.test(message) ? `a pattern uses syntax the linear-time regex engine does not support (${message}): not validated here` : message);
  }
  if (cache.size > 500) cache.clear();
  cache.set(key, fn);
  return fn;
}

function toViolation(e: ErrorObject): Violation {
  let path = e.instancePath;
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'required') {
    const p = (e.params as { missingProperty: string }).missingProperty;
    path = `${path}/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    message = 'is required';
  } else if (e.keyword === 'additionalProperties') {
    const p = (e.params as { additionalProperty: string }).additionalProperty;
    message = `unknown property "${p}" is not allowed`;
  } else if (e.keyword === 'enum') {
    message = `must be one of ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (e.keyword === 'const') {
    message = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
  }
  return { path, message, keyword: e.keyword };
}

/**
 * One error per failed anyOf/oneOf: ajv reports each branch's failure and then "must match a schema in anyOf" (three
 * messages for a two-way union). The branch errors are folded into the union's: "must be string or number" when every
 * branch failed on its type, else the branches' messages, each once. A union nested in a branch folds first.
 */
function unionsCollapsed(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (!unions.length) return errors;
  // Innermost first (the longest schema path), so an outer union folds the inner one's single error.
  unions.sort((a, b) => b.schemaPath.length - a.schemaPath.length);
  let out = errors;
  for (const u of unions) {
    const prefix = `${u.schemaPath}/`;
    const branches = out.filter((e) => e !== u && e.schemaPath.startsWith(prefix));
    if (!branches.length || (u.keyword === 'oneOf' && (u.params as { passingSchemas?: unknown }).passingSchemas != null)) continue;
    const sameLevelTypes = branches.every((e) => e.keyword === 'type' && e.instancePath === u.instancePath);
    const messages = [...new Set(branches.map((e) => toViolation(e)).map((v) => (v.path === u.instancePath ? v.message : `${v.path.slice(u.instancePath.length + 1)} ${v.message}`)))];
    const message = sameLevelTypes
      ? `must be ${[...new Set(branches.map((e) => String((e.params as { type: unknown }).type)))].join(' or ')}`
      : `matches none of the ${u.keyword} alternatives: ${messages.join('; ')}`;
    const folded: ErrorObject = { ...u, message };
    out = out.filter((e) => !branches.includes(e)).map((e) => (e === u ? folded : e));
  }
  return out;
}

/** Validates a value; violations are de-duplicated and, for unions, folded into one per union. */
export function validate(schema: unknown, value: unknown): ValidationResult {
  if (!schema || typeof schema !== 'object') return { valid: true, violations: [] };
  const fn = compile(schema);
  if (fn instanceof Error) return { valid: true, violations: [], schemaError: fn.message };
  let valid: boolean;
  try {
    valid = fn(value);
  } catch (err) {
    // A value deep enough to overflow the compiled validator: said, never thrown into the caller.
    return { valid: true, violations: [], schemaError: `validation failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (valid) return { valid: true, violations: [] };
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const e of unionsCollapsed(fn.errors ?? [])) {
    const v = toViolation(e);
    const key = `${v.path}|${v.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push(v);
  }
  return { valid: false, violations };
}

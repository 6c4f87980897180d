/**
 * Turns a JSON Schema node (zod, pydantic, hand-written) into the kind of editor the form shows.
 * Anything not understood becomes `json`: the author edits that part as JSON instead of losing it.
 */
export type Schema = { [key: string]: unknown };

export interface Option {
  value: unknown;
  label: string;
}

export type Model =
  | { kind: 'string'; format?: string; minLength?: number; maxLength?: number; pattern?: string }
  | { kind: 'number' | 'integer'; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number; multipleOf?: number }
  | { kind: 'boolean' }
  | { kind: 'enum'; options: Option[] }
  | { kind: 'multiselect'; options: Option[] }
  | { kind: 'array'; items: Schema; minItems?: number; maxItems?: number }
  | { kind: 'object'; properties: { name: string; schema: Schema; required: boolean }[] }
  | { kind: 'record'; values: Schema }
  | { kind: 'nullable'; inner: Schema }
  | { kind: 'union'; variants: { label: string; schema: Schema }[] }
  | { kind: 'json'; reason: string };

const isObj = (v: unknown): v is Schema => !!v && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Follows a local `$ref` (`#/$defs/X`, `#/definitions/X`, any JSON pointer); sibling keywords win over the target's. */
export function deref(schema: Schema, root: Schema, depth = 0): Schema {
  if (typeof schema.$ref !== 'string' || depth > 32) return schema;
  const ref = schema.$ref;
  if (!ref.startsWith('#')) return schema;
  let target: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const seg = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObj(target) ? target[seg] : undefined;
  }
  if (!isObj(target)) return schema;
  const { $ref: _drop, ...siblings } = schema;
  return deref({ ...target, ...siblings }, root, depth + 1);
}

/** allOf with a single entry (pydantic wraps $refs that carry a description this way) is merged in. */
function flatten(schema: Schema, root: Schema): Schema {
  let s = deref(schema, root);
  if (Array.isArray(s.allOf) && s.allOf.length === 1 && isObj(s.allOf[0])) {
    const { allOf, ...rest } = s;
    s = { ...deref(allOf[0] as Schema, root), ...rest };
  }
  return s;
}

function constOf(s: Schema): { ok: true; value: unknown } | { ok: false } {
  if ('const' in s) return { ok: true, value: s.const };
  if (Array.isArray(s.enum) && s.enum.length === 1) return { ok: true, value: s.enum[0] };
  return { ok: false };
}

function label(value: unknown, title?: unknown): string {
  const v = typeof value === 'string' ? value : JSON.stringify(value);
  return typeof title === 'string' && title && title !== v ? `${title} (${v})` : v;
}

function enumOptions(s: Schema, root: Schema): Option[] | undefined {
  if (Array.isArray(s.enum)) return (s.enum as unknown[]).map((v) => ({ value: v, label: label(v) }));
  if ('const' in s) return [{ value: s.const, label: label(s.const, s.title) }];
  const alts = (Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined) as unknown[] | undefined;
  if (!alts || alts.length === 0) return undefined;
  const opts: Option[] = [];
  for (const a of alts) {
    if (!isObj(a)) return undefined;
    const r = flatten(a, root);
    const c = constOf(r);
    if (!c.ok) return undefined;
    opts.push({ value: c.value, label: label(c.value, r.title ?? r.description) });
  }
  return opts;
}

const isNullSchema = (s: Schema) => s.type === 'null' || (constOf(s).ok && (constOf(s) as { value: unknown }).value === null);

function variantLabel(s: Schema, i: number): string {
  if (typeof s.title === 'string') return s.title;
  if (typeof s.type === 'string') {
    if (s.type === 'object' && isObj(s.properties)) return `object {${Object.keys(s.properties).slice(0, 3).join(', ')}}`;
    if (s.type === 'array') return 'array';
    return s.format ? `${s.type} (${String(s.format)})` : s.type;
  }
  return `option ${i + 1}`;
}

export function classify(input: Schema, root: Schema): Model {
  const s = flatten(input, root);
  if (typeof s.$ref === 'string') return { kind: 'json', reason: `unresolved $ref ${s.$ref}` };

  // Enums, consts, and unions of consts: one select with titles.
  if (Array.isArray(s.enum)) {
    const values = s.enum as unknown[];
    if (values.includes(null) && values.length > 1) return { kind: 'nullable', inner: { ...s, enum: values.filter((v) => v !== null) } };
    return { kind: 'enum', options: enumOptions(s, root)! };
  }
  if ('const' in s) return { kind: 'enum', options: enumOptions(s, root)! };

  const alts = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as unknown[] | undefined;
  if (alts && alts.length) {
    const { anyOf: _a, oneOf: _o, ...outer } = s;
    const variants = alts.filter(isObj).map((a) => flatten({ ...a }, root));
    const nonNull = variants.filter((v) => !isNullSchema(v));
    if (nonNull.length < variants.length) {
      if (nonNull.length === 0) return { kind: 'enum', options: [{ value: null, label: 'null' }] };
      const inner: Schema = nonNull.length === 1 ? { ...nonNull[0], ...stripMeta(outer) } : { ...stripMeta(outer), anyOf: nonNull };
      return { kind: 'nullable', inner };
    }
    const opts = enumOptions({ anyOf: variants }, root);
    if (opts) return { kind: 'enum', options: opts };
    return { kind: 'union', variants: variants.map((v, i) => ({ label: variantLabel(v, i), schema: v })) };
  }

  let type = s.type;
  if (Array.isArray(type)) {
    const types = (type as unknown[]).filter((t) => t !== 'null');
    if (types.length < type.length) return { kind: 'nullable', inner: { ...s, type: types.length === 1 ? types[0] : types } };
    if (types.length === 1) type = types[0];
    else return { kind: 'union', variants: types.map((t) => ({ label: String(t), schema: { ...s, type: t } })) };
  }
  if (type === undefined) {
    if (isObj(s.properties) || isObj(s.additionalProperties)) type = 'object';
    else if (isObj(s.items)) type = 'array';
  }
  switch (type) {
    case 'string':
      return {
        kind: 'string',
        format: typeof s.format === 'string' ? s.format : undefined,
        minLength: num(s.minLength),
        maxLength: num(s.maxLength),
        pattern: typeof s.pattern === 'string' ? s.pattern : undefined,
      };
    case 'number':
    case 'integer':
      return {
        kind: type,
        minimum: num(s.minimum),
        maximum: num(s.maximum),
        // draft-04 booleans are rare in tools; numbers are the draft-06+ form.
        exclusiveMinimum: num(s.exclusiveMinimum),
        exclusiveMaximum: num(s.exclusiveMaximum),
        multipleOf: num(s.multipleOf),
      };
    case 'boolean':
      return { kind: 'boolean' };
    case 'null':
      return { kind: 'enum', options: [{ value: null, label: 'null' }] };
    case 'array': {
      if (Array.isArray(s.prefixItems) || Array.isArray(s.items)) return { kind: 'json', reason: 'tuple arrays are edited as JSON' };
      const items = isObj(s.items) ? flatten(s.items, root) : {};
      const opts = enumOptions(items, root);
      if (opts && opts.length && !opts.some((o) => o.value === null)) return { kind: 'multiselect', options: opts };
      return { kind: 'array', items, minItems: num(s.minItems), maxItems: num(s.maxItems) };
    }
    case 'object': {
      const props = isObj(s.properties) ? s.properties : undefined;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      if (!props || Object.keys(props).length === 0) {
        // `properties: {}` is how SDKs publish a tool without arguments: nothing to fill in, not a free-form map.
        if (s.additionalProperties === false || (props && !isObj(s.additionalProperties))) return { kind: 'object', properties: [] };
        const values = isObj(s.additionalProperties) ? s.additionalProperties : {};
        if (isObj(s.patternProperties) || (isObj(s.propertyNames) && Object.keys(s.propertyNames).some((k) => k !== 'type'))) return { kind: 'json', reason: 'patternProperties are edited as JSON' };
        return { kind: 'record', values };
      }
      return {
        kind: 'object',
        properties: Object.entries(props)
          .filter(([, v]) => isObj(v) || v === true)
          .map(([name, v]) => ({ name, schema: isObj(v) ? v : {}, required: required.includes(name) })),
      };
    }
    default:
      return { kind: 'json', reason: Object.keys(s).some((k) => ['allOf', 'not', 'if'].includes(k)) ? 'allOf/not/if are edited as JSON' : 'no type: edited as JSON' };
  }
}

function stripMeta(s: Schema): Schema {
  // Keep what describes the field (title, description, default) when unwrapping Optional[...].
  const out: Schema = {};
  for (const k of ['title', 'description', 'default', 'examples']) if (k in s) out[k] = s[k];
  return out;
}

/** Loose "does this value fit that schema" used to pick a union variant when a value is set from outside. */
export function fits(value: unknown, schema: Schema, root: Schema): boolean {
  const s = flatten(schema, root);
  const c = constOf(s);
  if (c.ok) return JSON.stringify(c.value) === JSON.stringify(value);
  if (Array.isArray(s.enum)) return s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value));
  const t = s.type;
  const types = Array.isArray(t) ? t : t === undefined ? [] : [t];
  const jt = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
  if (types.length && !types.some((x) => x === jt || (x === 'number' && jt === 'integer'))) return false;
  if (jt === 'object' && isObj(value) && isObj(s.properties)) {
    const req = Array.isArray(s.required) ? (s.required as string[]) : [];
    if (!req.every((k) => k in value)) return false;
    // A discriminator-like const property must match.
    for (const [k, ps] of Object.entries(s.properties)) {
      if (isObj(ps) && k in value) {
        const pc = constOf(flatten(ps, root));
        if (pc.ok && JSON.stringify(pc.value) !== JSON.stringify(value[k])) return false;
      }
    }
  }
  return true;
}

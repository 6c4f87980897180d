/**
 * JSON Schema exactly as pydantic 2 generates it (pydantic/json_schema.py, GenerateJsonSchema), for the type
 * facts the Python front-end extracts. Field titles, `$defs`/`$ref`, nullable unions, constraints pushed through
 * `Optional`, defaults encoded as JSON, enum/literal typing rules. What it cannot reproduce is reported, not guessed.
 */
import type { JsonSchema, JsonValue, Span } from '../../analysis/model';
import type { ClassInfo, FieldInfo, PyType } from '../../analysis/python/pytypes';
import { cleandoc } from './cleandoc';

export class Unresolvable extends Error {
  constructor(
    readonly reason: string,
    readonly span: Span,
  ) {
    super(reason);
  }
}

/** Python `str.title()` then pydantic's `.replace('_', ' ').strip()`. */
export function titleFromName(name: string): string {
  let out = '';
  let prevCased = false;
  for (const ch of name) {
    const lower = ch.toLowerCase();
    const upper = ch.toUpperCase();
    const cased = lower !== upper;
    out += cased ? (prevCased ? lower : upper) : ch;
    prevCased = cased;
  }
  return out.replace(/_/g, ' ').trim();
}

export interface FieldSpec {
  name: string;
  type: PyType;
  /** Field(...) infos from `Annotated[...]` and from a `= Field(...)` default. */
  fields?: FieldInfo[];
  default?: { value: JsonValue; python?: 'tuple' | 'set' } | 'factory';
  /** Replace the generated type schema (MCPServer's WithJsonSchema for unannotated parameters). */
  withJsonSchema?: JsonSchema;
  span: Span;
}

type Mode = 'validation' | 'serialization';

interface Constraint {
  key: string;
  value: JsonValue;
  span: Span;
}

const NUMERIC: Record<string, string> = { ge: 'minimum', le: 'maximum', gt: 'exclusiveMinimum', lt: 'exclusiveMaximum', multiple_of: 'multipleOf' };
const STRING: Record<string, string> = { min_length: 'minLength', max_length: 'maxLength', pattern: 'pattern' };
const ARRAY: Record<string, string> = { min_length: 'minItems', max_length: 'maxItems' };
const OBJECT: Record<string, string> = { min_length: 'minProperties', max_length: 'maxProperties' };

function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: JsonValue | undefined): JsonValue | undefined {
  if (Array.isArray(v)) return v.map((x) => sortKeys(x) as JsonValue);
  if (v && typeof v === 'object') {
    const out: { [k: string]: JsonValue } = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k]) as JsonValue;
    return out;
  }
  return v;
}

/** Python ordering for sorting set defaults (numbers and strings; mixed types stay unsorted like pydantic). */
function sortSet(values: JsonValue[]): JsonValue[] {
  if (values.length < 2) return values;
  if (values.every((v) => typeof v === 'number')) return [...values].sort((a, b) => a - b);
  if (values.every((v) => typeof v === 'string'))
    return [...values].sort((a, b) => {
      // Python compares code points, not UTF-16 units.
      const A = [...a].map((c) => c.codePointAt(0)!);
      const B = [...b].map((c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(A.length, B.length); i++) if (A[i] !== B[i]) return A[i] - B[i];
      return A.length - B.length;
    });
  return values;
}

export interface GeneratorOptions {
  /** The Python runs 3.12+ (pydantic accepts `typing.TypedDict`); unknown: a `typing.TypedDict` is unresolved. */
  stdlibTypedDictAccepted?: boolean;
  /** This exact class (a rebuilt top-level return type) is accepted even below 3.12. */
  acceptedTypedDict?: string;
  /** pydantic 2.11: a dataclass docstring is not published, and a set default keeps Python's hash order. */
  pydantic211?: boolean;
}

export class SchemaGenerator {
  readonly defs = new Map<string, { cls: ClassInfo; schema?: JsonSchema }>();
  private defNames = new Map<string, string>();
  private building = new Set<string>();

  constructor(
    readonly mode: Mode = 'validation',
    readonly options: GeneratorOptions = {},
  ) {}

  /** `$defs` object for the classes referenced so far (undefined when none). */
  defsObject(): JsonSchema | undefined {
    if (!this.defs.size) return undefined;
    const out: JsonSchema = {};
    for (const [, d] of this.defs) if (d.schema) out[d.cls.name] = d.schema;
    return out;
  }

  ref(cls: ClassInfo, span: Span): JsonSchema {
    const taken = this.defNames.get(cls.name);
    if (taken && taken !== cls.key) throw new Unresolvable(`two classes named ${cls.name}: pydantic would rename their $defs`, span);
    this.defNames.set(cls.name, cls.key);
    if (!this.defs.has(cls.key)) {
      const entry: { cls: ClassInfo; schema?: JsonSchema } = { cls };
      this.defs.set(cls.key, entry);
      this.building.add(cls.key);
      try {
        entry.schema = this.classSchema(cls, span);
      } catch (e) {
        this.defs.delete(cls.key);
        this.defNames.delete(cls.name);
        throw e;
      } finally {
        this.building.delete(cls.key);
      }
    }
    return { $ref: `#/$defs/${cls.name}` };
  }

  /** The schema a class definition gets in `$defs`. */
  classSchema(cls: ClassInfo, span: Span): JsonSchema {
    if (cls.unresolved.length) throw new Unresolvable(`${cls.unresolved[0].part}: ${cls.unresolved[0].reason}`, cls.unresolved[0].span);
    if (cls.kind === 'enum') {
      const values = cls.enumValues ?? [];
      const out: JsonSchema = { title: cls.name };
      const description = cls.doc ? cleandoc(cls.doc) : undefined;
      if (description && description !== 'An enumeration.') out.description = description;
      out.enum = values;
      const t = jsonTypeOfAll(values);
      if (t && t !== 'null') out.type = t;
      return out;
    }
    if (cls.kind === 'typeddict' && cls.stdlibTypedDict && !this.options.stdlibTypedDictAccepted && this.options.acceptedTypedDict !== cls.key)
      throw new Unresolvable(`${cls.name} derives from typing.TypedDict, which pydantic refuses below Python 3.12 (use typing_extensions.TypedDict)`, cls.span);
    const properties: JsonSchema = {};
    const required: string[] = [];
    for (const f of cls.fields) {
      const name = f.field?.alias ?? f.name;
      properties[name] = this.fieldSchema({ name, type: f.type, fields: f.field ? [f.field] : [], default: f.default, span: f.span });
      const isRequired = cls.kind === 'typeddict' ? (f.requiredOverride ?? cls.total !== false) : f.default === undefined;
      if (isRequired) required.push(name);
    }
    const out: JsonSchema = { properties };
    if (required.length) out.required = required;
    out.title = cls.name;
    out.type = 'object';
    let doc = cls.doc;
    if (cls.kind === 'dataclass' && (doc?.startsWith(`${cls.name}(`) || this.options.pydantic211)) doc = undefined;
    if (doc) {
      const d = cleandoc(doc);
      if (d) out.description = d;
    }
    if (cls.extra === 'forbid') out.additionalProperties = false;
    else if (cls.extra === 'allow') out.additionalProperties = true;
    void span;
    return out;
  }

  /** One property of an object schema: type schema + default + field metadata + title (pydantic's field rules). */
  fieldSchema(spec: FieldSpec): JsonSchema {
    const infos: FieldInfo[] = [...(spec.fields ?? [])];
    let type = spec.type;
    // Peel Annotated at the field level: its Field() infos become field infos.
    while (type.kind === 'annotated') {
      infos.unshift(...type.fields);
      type = type.base;
    }
    for (const info of infos) if (info.unresolved.length) throw new Unresolvable(`Field ${info.unresolved[0].part}: ${info.unresolved[0].reason}`, info.unresolved[0].span);
    const constraints: Constraint[] = infos.flatMap((i) => i.constraints);
    let schema: JsonSchema = spec.withJsonSchema ? { ...spec.withJsonSchema } : this.typeSchema(type, constraints);
    if (spec.withJsonSchema && constraints.length) throw new Unresolvable('constraints on an unannotated parameter', spec.span);
    let def = spec.default;
    // A default written in Field(...) wins over none; the last Field with a default wins.
    for (const i of infos) {
      if (i.default) def = { value: i.default.value, python: i.default.python };
      else if (i.defaultFactory) def = 'factory';
    }
    if (def && def !== 'factory') {
      let value = def.value;
      if (def.python === 'set' && Array.isArray(value)) {
        if (this.options.pydantic211 && value.length > 1 && value.some((v) => typeof v === 'string'))
          throw new Unresolvable('pydantic 2.11 publishes a set default in hash order, which changes with every start for strings', spec.span);
        value = sortSet(value);
      }
      schema.default = value;
    }
    // Field-level json schema updates (last one wins per key).
    let title: string | undefined;
    for (const i of infos) {
      if (i.title) title = i.title.value;
      if (i.description) schema.description = i.description.value;
      if (i.examples) schema.examples = i.examples.value;
    }
    if (title !== undefined) schema.title = title;
    if (!('title' in schema) && titleShouldBeSet(type)) schema.title = titleFromName(spec.name);
    schema = this.handleRefOverrides(schema);
    return schema;
  }

  private handleRefOverrides(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
    const name = ref.slice('#/$defs/'.length);
    const key = this.defNames.get(name);
    const target = key ? this.defs.get(key)?.schema : undefined;
    if (!target) return schema;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(schema)) if (k === '$ref' || !(k in target) || !jsonEqual(target[k], v)) out[k] = v;
    return out;
  }

  /** The schema of a type (no field title). Constraints are applied where pydantic applies them. */
  typeSchema(t: PyType, constraints: Constraint[] = []): JsonSchema {
    const apply = (schema: JsonSchema, map: Record<string, string>): JsonSchema => {
      for (const c of constraints) {
        const k = map[c.key];
        if (!k) throw new Unresolvable(`constraint ${c.key} does not apply to this type`, c.span);
        schema[k] = c.value;
      }
      return schema;
    };
    switch (t.kind) {
      case 'any':
        if (constraints.length) throw new Unresolvable('constraints on Any', t.span);
        return {};
      case 'none':
        if (constraints.length) throw new Unresolvable('constraints on None', t.span);
        return { type: 'null' };
      case 'scalar':
        switch (t.name) {
          case 'int':
            return apply({ type: 'integer' }, NUMERIC);
          case 'float':
            return apply({ type: 'number' }, NUMERIC);
          case 'str':
            return apply({ type: 'string' }, STRING);
          case 'bool':
            if (constraints.length) throw new Unresolvable('constraints on bool', t.span);
            return { type: 'boolean' };
          case 'bytes':
            return apply({ type: 'string', format: 'binary' }, { min_length: 'minLength', max_length: 'maxLength' });
          case 'datetime':
            return apply({ type: 'string', format: 'date-time' }, {});
          case 'date':
            return apply({ type: 'string', format: 'date' }, {});
          case 'time':
            return apply({ type: 'string', format: 'time' }, {});
          case 'timedelta':
            return apply({ type: 'string', format: 'duration' }, {});
          case 'uuid':
            return apply({ type: 'string', format: 'uuid' }, {});
          case 'path':
            return apply({ type: 'string', format: 'path' }, {});
          case 'email':
            return apply({ type: 'string', format: 'email' }, {});
          case 'url':
            return apply({ type: 'string', format: 'uri', minLength: 1 }, {});
          case 'http-url':
            return apply({ type: 'string', format: 'uri', minLength: 1, maxLength: 2083 }, {});
          default:
            throw new Unresolvable(`the JSON Schema of ${t.name} is not modelled`, t.span);
        }
      case 'list':
      case 'sequence':
        return apply({ type: 'array', items: t.item ? this.innerSchema(t.item) : {} }, ARRAY);
      case 'set':
      case 'frozenset':
        return apply({ type: 'array', uniqueItems: true, items: t.item ? this.innerSchema(t.item) : {} }, ARRAY);
      case 'tuple': {
        const out: JsonSchema = { type: 'array' };
        if (t.variadic) out.items = t.items[0] ? this.innerSchema(t.items[0]) : {};
        else {
          const prefix = t.items.map((i) => this.innerSchema(i));
          if (prefix.length) out.prefixItems = prefix;
          out.minItems = prefix.length;
          out.maxItems = prefix.length;
        }
        return apply(out, ARRAY);
      }
      case 'dict': {
        const out: JsonSchema = { type: 'object' };
        const keys = t.key ? { ...this.innerSchema(t.key) } : {};
        let keyPattern: JsonValue | undefined;
        if (!('$ref' in keys)) {
          keyPattern = keys.pattern;
          delete keys.pattern;
          delete keys.title;
        }
        const values = t.value ? { ...this.innerSchema(t.value) } : {};
        delete values.title;
        if (Object.keys(values).length || keyPattern !== undefined) {
          if (keyPattern === undefined) out.additionalProperties = values;
          else out.patternProperties = { [String(keyPattern)]: values };
        } else out.additionalProperties = true;
        if ((keys.type === 'string' && Object.keys(keys).length > 1) || '$ref' in keys) {
          delete keys.type;
          out.propertyNames = keys;
        }
        return apply(out, OBJECT);
      }
      case 'union': {
        const nonNull = t.members.filter((m) => m.kind !== 'none');
        const hasNull = nonNull.length < t.members.length;
        if (constraints.length && !(nonNull.length === 1)) throw new Unresolvable('constraints on a union of several types', t.span);
        const schemas = nonNull.map((m) => this.innerSchema(m, constraints));
        if (hasNull) {
          // nullable(inner): inner is the union (or single member); the null arm goes last.
          const inner = schemas.length === 1 ? schemas[0] : flattenedAnyOf(schemas);
          if (schemas.length === 0) return { type: 'null' };
          return flattenedAnyOf([inner, { type: 'null' }]);
        }
        if (schemas.length === 1) return schemas[0];
        return flattenedAnyOf(schemas);
      }
      case 'literal': {
        if (constraints.length) throw new Unresolvable('constraints on a Literal', t.span);
        if (t.values.includes(null) && t.values.length > 1) throw new Unresolvable('Literal mixing None with values', t.span);
        const out: JsonSchema = {};
        if (t.values.length === 1) out.const = t.values[0];
        else out.enum = t.values;
        const ty = jsonTypeOfAll(t.values);
        if (ty) out.type = ty;
        return out;
      }
      case 'annotated': {
        for (const f of t.fields) if (f.unresolved.length) throw new Unresolvable(`Field ${f.unresolved[0].part}: ${f.unresolved[0].reason}`, f.unresolved[0].span);
        if (t.fields.some((f) => f.default || f.defaultFactory)) throw new Unresolvable('a default inside a nested Annotated', t.span);
        const schema = this.typeSchema(t.base, [...t.fields.flatMap((f) => f.constraints), ...constraints]);
        for (const f of t.fields) {
          if (f.title) schema.title = f.title.value;
          if (f.description) schema.description = f.description.value;
          if (f.examples) schema.examples = f.examples.value;
        }
        return schema;
      }
      case 'class':
        if (constraints.length) throw new Unresolvable(`constraints on ${t.cls.name}`, t.span);
        return this.ref(t.cls, t.span);
      case 'context':
        throw new Unresolvable('a Context parameter nested inside another type', t.span);
      case 'content':
        throw new Unresolvable(`${t.name} as a parameter type is not modelled`, t.span);
      case 'unknown':
        throw new Unresolvable(t.reason, t.span);
    }
  }

  private innerSchema(t: PyType, constraints: Constraint[] = []): JsonSchema {
    return this.typeSchema(t, constraints);
  }
}

/** pydantic's `field_title_should_be_set`: no automatic title for references (models, enums) and nullable references. */
function titleShouldBeSet(t: PyType): boolean {
  while (t.kind === 'annotated') t = t.base;
  if (t.kind === 'class') return false;
  if (t.kind === 'union') {
    const nonNull = t.members.filter((m) => m.kind !== 'none');
    if (nonNull.length === 1 && nonNull.length < t.members.length) return titleShouldBeSet(nonNull[0]);
  }
  return true;
}

function jsonTypeOfAll(values: JsonValue[]): string | undefined {
  const types = new Set(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)));
  if (types.size !== 1) return undefined;
  const [t] = [...types];
  if (t === 'string' || t === 'integer' || t === 'number' || t === 'boolean' || t === 'array' || t === 'null') return t;
  return undefined;
}

function flattenedAnyOf(schemas: JsonSchema[]): JsonSchema {
  const members: JsonSchema[] = [];
  for (const s of schemas) {
    const keys = Object.keys(s);
    if (keys.length === 1 && keys[0] === 'anyOf' && Array.isArray(s.anyOf)) members.push(...(s.anyOf as JsonSchema[]));
    else members.push(s);
  }
  const unique: JsonSchema[] = [];
  for (const m of members) if (!unique.some((u) => jsonEqual(u, m))) unique.push(m);
  if (unique.length === 1) return unique[0];
  return { anyOf: unique };
}

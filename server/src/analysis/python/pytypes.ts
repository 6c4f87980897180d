/**
 * The type facts the Python front-end extracts from annotations, framework-neutral. The contract module
 * turns them into JSON Schema the way pydantic does (server/src/contract/python/pydantic.ts).
 */
import type { JsonValue, Span } from '../model';

export type ScalarName = 'int' | 'float' | 'str' | 'bool' | 'bytes' | 'datetime' | 'date' | 'time' | 'timedelta' | 'uuid' | 'path' | 'decimal' | 'email' | 'url' | 'http-url';

export interface FieldInfo {
  span: Span;
  description?: { value: string; span: Span };
  title?: { value: string; span: Span };
  examples?: { value: JsonValue; span: Span };
  /** Numeric / length / pattern constraints by pydantic keyword name (ge, le, gt, lt, multiple_of, min_length, max_length, pattern). */
  constraints: { key: string; value: JsonValue; span: Span }[];
  /** `Field(default)` / `Field(default=...)`; `required` when `...` or absent. */
  default?: { value: JsonValue; span: Span; python?: 'tuple' | 'set' };
  defaultFactory?: Span;
  alias?: string;
  /** Parts of the Field(...) call the analyser could not evaluate. */
  unresolved: { part: string; reason: string; span: Span }[];
}

export type PyType =
  /** `object` is a class on every Python, `typing.Any` only from 3.11 (mcp's structured output tells them apart). */
  | { kind: 'any'; object?: boolean; span: Span }
  | { kind: 'none'; span: Span }
  | { kind: 'scalar'; name: ScalarName; span: Span }
  | { kind: 'list' | 'set' | 'frozenset' | 'sequence'; item?: PyType; spelling?: ContainerSpelling; span: Span }
  | { kind: 'tuple'; items: PyType[]; variadic: boolean; spelling?: ContainerSpelling; span: Span }
  | { kind: 'dict'; key?: PyType; value?: PyType; spelling?: ContainerSpelling; span: Span }
  | { kind: 'union'; members: PyType[]; span: Span }
  | { kind: 'literal'; values: JsonValue[]; span: Span }
  | { kind: 'annotated'; base: PyType; fields: FieldInfo[]; descriptions: string[]; span: Span }
  | { kind: 'class'; cls: ClassInfo; span: Span }
  | { kind: 'context'; span: Span }
  | { kind: 'content'; name: string; span: Span }
  | { kind: 'unknown'; reason: string; span: Span };

/**
 * How a container annotation is spelled, which decides its run-time object: the builtin class (`dict`, `dict[str, X]`:
 * a class, a `types.GenericAlias` of origin dict), a collections.abc class (`Mapping[str, X]`: a class, a GenericAlias of
 * another origin) or a typing alias (`typing.Dict[str, X]`: `typing._GenericAlias`, not a class). pydantic validates
 * them alike; mcp's structured output does not (`-> dict[str, X]` publishes the dict schema, `-> Dict[str, X]` wraps it
 * in `{"result": ...}`). Undefined: not known (treated as builtin).
 */
export type ContainerSpelling = 'builtin' | 'abc' | 'typing';

export interface ClassField {
  name: string;
  type: PyType;
  /** Default as JSON (pydantic dumps it); `factory` when default_factory=; undefined when required. */
  default?: { value: JsonValue; python?: 'tuple' | 'set' } | 'factory';
  field?: FieldInfo;
  /** TypedDict: Required[] / NotRequired[] wrapper. */
  requiredOverride?: boolean;
  span: Span;
}

export interface ClassInfo {
  /** Unique key (file + name). */
  key: string;
  name: string;
  kind: 'model' | 'enum' | 'typeddict' | 'dataclass';
  /** Raw `__doc__` (undefined when none). */
  doc?: string;
  fields: ClassField[];
  enumValues?: JsonValue[];
  /** TypedDict total= */
  total?: boolean;
  /** model_config extra=... */
  extra?: 'forbid' | 'allow' | 'ignore';
  /** typing.TypedDict (pydantic refuses it below Python 3.12). */
  stdlibTypedDict?: boolean;
  span: Span;
  unresolved: { part: string; reason: string; span: Span }[];
}

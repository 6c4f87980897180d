/**
 * Parameter facts with source spans: which object key declares each inputSchema property, the zod expression that
 * types it, and every constraint written in its chain (`.max(100)`, `.describe("...")`, `.default(5)`...).
 * The values themselves come from the converted JSON Schema (the truth the model sees); this module only locates them.
 */
import ts from './ts';
import type { ConstraintFact, JsonSchema, JsonValue, ParameterDefinition, Span } from '../model';
import { evaluateDetached, Unresolvable, ZodFn, ZodNs, ZOD4_STRING_FORMATS, type EvalContext } from './evaluate';
import { lookupName, skipOuter, spanOf, type Decl, type ParsedFile } from './project';

export interface ShapeEntry {
  name: string;
  keyNode: ts.Node;
  valueNode: ts.Expression;
  propNode: ts.Node;
  pf: ParsedFile;
}

const OBJECT_CTORS = new Set(['object', 'strictObject', 'looseObject']);
const PASS_THROUGH = new Set(['strict', 'passthrough', 'strip', 'loose', 'catchall', 'describe', 'meta', 'readonly', 'brand', 'refine', 'superRefine', 'check', 'optional', 'nullable', 'default']);

function resolveConst(id: ts.Identifier, pf: ParsedFile, ctx: EvalContext): { node: ts.Expression; pf: ParsedFile } | undefined {
  let d: Decl | undefined = lookupName(id.text, id, pf);
  if (d?.kind === 'import') d = ctx.project.resolveImport(d);
  if (d?.kind === 'var' && d.node.initializer) return { node: d.node.initializer, pf: d.pf };
  if (d?.kind === 'expr') return { node: d.node, pf: d.pf };
  return undefined;
}

function resolveMemberConst(p: ts.PropertyAccessExpression, pf: ParsedFile, ctx: EvalContext): { node: ts.Expression; pf: ParsedFile } | undefined {
  if (!ts.isIdentifier(p.expression)) return undefined;
  const d = lookupName(p.expression.text, p.expression, pf);
  if (d?.kind === 'import' && d.imported === '*') {
    const target = ctx.project.loadModule(d.pf.file, d.module);
    const e = target && ctx.project.resolveExport(target, p.name.text);
    if (e?.kind === 'var' && e.node.initializer) return { node: e.node.initializer, pf: e.pf };
  }
  return undefined;
}

/** The properties of a raw shape / z.object(...) as written, following consts, imports, spreads, extend/merge/pick/omit. */
function shapeEntries(expr0: ts.Expression, pf: ParsedFile, ctx: EvalContext, depth = 0): ShapeEntry[] | undefined {
  if (depth > 20) return undefined;
  const expr = skipOuter(expr0);
  if (ts.isIdentifier(expr)) {
    const c = resolveConst(expr, pf, ctx);
    return c ? shapeEntries(c.node, c.pf, ctx, depth + 1) : undefined;
  }
  if (ts.isObjectLiteralExpression(expr)) {
    const out: ShapeEntry[] = [];
    for (const p of expr.properties) {
      if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p) || ts.isGetAccessorDeclaration(p)) && p.name) {
        const name = ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name) ? p.name.text : undefined;
        if (name === undefined) continue;
        const valueNode = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : getterReturn(p);
        if (!valueNode) continue;
        upsert(out, { name, keyNode: p.name, valueNode, propNode: p, pf });
      } else if (ts.isSpreadAssignment(p)) {
        for (const e of shapeEntries(p.expression, pf, ctx, depth + 1) ?? []) upsert(out, e);
      }
    }
    return out;
  }
  if (ts.isPropertyAccessExpression(expr)) {
    if (expr.name.text === 'shape') return shapeEntries(expr.expression, pf, ctx, depth + 1);
    const c = resolveMemberConst(expr, pf, ctx);
    return c ? shapeEntries(c.node, c.pf, ctx, depth + 1) : undefined;
  }
  if (ts.isCallExpression(expr) && ts.isPropertyAccessExpression(expr.expression)) {
    const method = expr.expression.name.text;
    const base = expr.expression.expression;
    const arg0 = expr.arguments[0];
    if (OBJECT_CTORS.has(method) && isZodNamespace(base, pf, ctx)) return arg0 ? shapeEntries(arg0, pf, ctx, depth + 1) : [];
    if (method === 'extend' || method === 'merge') {
      const out = shapeEntries(base, pf, ctx, depth + 1) ?? [];
      for (const e of (arg0 && shapeEntries(arg0, pf, ctx, depth + 1)) ?? []) upsert(out, e);
      return out;
    }
    if ((method === 'pick' || method === 'omit') && arg0 && ts.isObjectLiteralExpression(skipOuter(arg0))) {
      const keys = new Set((skipOuter(arg0) as ts.ObjectLiteralExpression).properties.map((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : '')));
      const all = shapeEntries(base, pf, ctx, depth + 1);
      return all?.filter((e) => (method === 'pick' ? keys.has(e.name) : !keys.has(e.name)));
    }
    if (PASS_THROUGH.has(method) || method === 'partial' || method === 'required') return shapeEntries(base, pf, ctx, depth + 1);
  }
  return undefined;
}

function getterReturn(p: ts.GetAccessorDeclaration): ts.Expression | undefined {
  const st = p.body?.statements;
  return st && st.length === 1 && ts.isReturnStatement(st[0]) ? st[0].expression : undefined;
}

function upsert(list: ShapeEntry[], e: ShapeEntry): void {
  const i = list.findIndex((x) => x.name === e.name);
  if (i >= 0) list[i] = e;
  else list.push(e);
}

function isZodNamespace(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): boolean {
  const n = skipOuter(node);
  if (!ts.isIdentifier(n) && !(ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression))) return false;
  try {
    return evaluateDetached(n, pf, ctx) instanceof ZodNs;
  } catch {
    return false;
  }
}

function isZodNamespaceFunction(node: ts.Identifier, pf: ParsedFile, ctx: EvalContext): boolean {
  try {
    const v = evaluateDetached(node, pf, ctx);
    return v instanceof ZodFn && v.onNamespace;
  } catch {
    return false;
  }
}

type Kind = 'string' | 'number' | 'array' | 'other' | 'any';
const STRING_ROOTS = new Set(['string', ...ZOD4_STRING_FORMATS, 'date', 'datetime', 'time', 'duration']);
const NUMBER_ROOTS = new Set(['number', 'int', 'int32', 'uint32', 'float32', 'float64']);
const FORMAT_METHODS: Record<string, string> = {
  email: 'email',
  url: 'uri',
  httpUrl: 'uri',
  uuid: 'uuid',
  uuidv4: 'uuid',
  uuidv6: 'uuid',
  uuidv7: 'uuid',
  guid: 'uuid',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
  datetime: 'date-time',
  date: 'date',
  time: 'time',
  duration: 'duration',
  base64: 'contentEncoding',
  emoji: 'emoji',
  cuid: 'cuid',
  nanoid: 'nanoid',
  hostname: 'hostname',
};

export interface ChainFacts {
  kind: Kind;
  constraints: ConstraintFact[];
  description?: { span: Span; origin: 'describe' | 'meta' };
  defaultSpan?: Span;
}

function staticArg(node: ts.Expression | undefined, pf: ParsedFile, ctx: EvalContext): JsonValue | undefined {
  if (!node) return undefined;
  try {
    const v = evaluateDetached(node, pf, ctx);
    // What the JSON round trip below returns unchanged.
    if (typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0))) return v;
    if (v instanceof RegExp) return v.source;
    if (v === undefined || typeof v === 'function' || (typeof v === 'object' && v !== null && ('_zod' in v || '_def' in v))) return undefined;
    return JSON.parse(JSON.stringify(v)) as JsonValue;
  } catch (err) {
    if (err instanceof Unresolvable) return undefined;
    return undefined;
  }
}

/** Walks `z.string().min(1).max(10).describe("...")` (through consts) and lists the constraints with their spans. */
function chainFacts(expr0: ts.Expression, pf0: ParsedFile, ctx: EvalContext): ChainFacts {
  const calls: { name: string; call: ts.CallExpression; pf: ParsedFile }[] = [];
  let root: { name: string; call: ts.CallExpression; pf: ParsedFile } | undefined;
  let expr = skipOuter(expr0);
  let pf = pf0;
  for (let guard = 0; guard < 200; guard++) {
    if (ts.isCallExpression(expr)) {
      const callee = skipOuter(expr.expression);
      if (ts.isPropertyAccessExpression(callee)) {
        if (isZodNamespace(callee.expression, pf, ctx)) {
          root = { name: callee.name.text, call: expr, pf };
          break;
        }
        calls.push({ name: callee.name.text, call: expr, pf });
        expr = skipOuter(callee.expression);
        continue;
      }
      if (ts.isIdentifier(callee) && isZodNamespaceFunction(callee, pf, ctx)) {
        // `string()` imported by name from zod
        const d = lookupName(callee.text, callee, pf);
        root = { name: d?.kind === 'import' ? d.imported : callee.text, call: expr, pf };
      }
      break;
    }
    if (ts.isIdentifier(expr)) {
      const c = resolveConst(expr, pf, ctx);
      if (!c) break;
      expr = skipOuter(c.node);
      pf = c.pf;
      continue;
    }
    if (ts.isPropertyAccessExpression(expr)) {
      const c = resolveMemberConst(expr, pf, ctx);
      if (!c) break;
      expr = skipOuter(c.node);
      pf = c.pf;
      continue;
    }
    break;
  }
  const constraints: ConstraintFact[] = [];
  let kind: Kind = 'other';
  if (root) {
    const n = root.name;
    kind = STRING_ROOTS.has(n) ? 'string' : NUMBER_ROOTS.has(n) ? 'number' : n === 'array' ? 'array' : n === 'any' || n === 'unknown' ? 'any' : 'other';
    const span = spanOf(root.call, root.pf);
    if (FORMAT_METHODS[n] && n !== 'string') constraints.push({ keyword: 'format', value: FORMAT_METHODS[n], span });
    if (n === 'int') constraints.push({ keyword: 'type', value: 'integer', span });
    if (n === 'enum') constraints.push({ keyword: 'enum', value: staticArg(root.call.arguments[0], root.pf, ctx), span });
    if (n === 'literal') constraints.push({ keyword: 'const', value: staticArg(root.call.arguments[0], root.pf, ctx), span });
  }
  let description: ChainFacts['description'];
  let defaultSpan: Span | undefined;
  // innermost first: the order zod applies them
  // (No closures per call here: `v()` and `push()` below are inlined, one allocation less each per chain call.)
  for (let ci = calls.length - 1; ci >= 0; ci--) {
    const c = calls[ci];
    const span = methodSpan(c.call, c.pf);
    const a0 = c.call.arguments[0];
    switch (c.name) {
      case 'array':
        kind = 'array';
        break;
      case 'min':
      case 'gte':
        constraints.push(cf(kind === 'string' ? 'minLength' : kind === 'array' ? 'minItems' : 'minimum', staticArg(a0, c.pf, ctx), span));
        break;
      case 'max':
      case 'lte':
        constraints.push(cf(kind === 'string' ? 'maxLength' : kind === 'array' ? 'maxItems' : 'maximum', staticArg(a0, c.pf, ctx), span));
        break;
      case 'length':
        constraints.push(cf(kind === 'array' ? 'minItems' : 'minLength', staticArg(a0, c.pf, ctx), span));
        constraints.push(cf(kind === 'array' ? 'maxItems' : 'maxLength', staticArg(a0, c.pf, ctx), span));
        break;
      case 'nonempty':
        constraints.push(cf(kind === 'array' ? 'minItems' : 'minLength', 1, span));
        break;
      case 'gt':
        constraints.push(cf('exclusiveMinimum', staticArg(a0, c.pf, ctx), span));
        break;
      case 'lt':
        constraints.push(cf('exclusiveMaximum', staticArg(a0, c.pf, ctx), span));
        break;
      case 'positive':
        constraints.push(cf('exclusiveMinimum', 0, span));
        break;
      case 'negative':
        constraints.push(cf('exclusiveMaximum', 0, span));
        break;
      case 'nonnegative':
        constraints.push(cf('minimum', 0, span));
        break;
      case 'nonpositive':
        constraints.push(cf('maximum', 0, span));
        break;
      case 'int':
        constraints.push(cf('type', 'integer', span));
        break;
      case 'multipleOf':
      case 'step':
        constraints.push(cf('multipleOf', staticArg(a0, c.pf, ctx), span));
        break;
      case 'regex':
      case 'startsWith':
      case 'endsWith':
      case 'includes':
        constraints.push(cf('pattern', staticArg(a0, c.pf, ctx), span));
        break;
      case 'describe':
        constraints.push(cf('description', staticArg(a0, c.pf, ctx), span));
        description = { span: argSpan(c.call, c.pf) ?? span, origin: 'describe' };
        break;
      case 'meta': {
        const m = staticArg(a0, c.pf, ctx);
        if (m && typeof m === 'object' && !Array.isArray(m)) {
          for (const [k, val] of Object.entries(m)) constraints.push(cf(k, val, span));
          if ('description' in m) description = { span: argSpan(c.call, c.pf) ?? span, origin: 'meta' };
        }
        break;
      }
      case 'default':
      case 'prefault':
      case 'catch':
        constraints.push(cf('default', staticArg(a0, c.pf, ctx), span));
        defaultSpan = argSpan(c.call, c.pf) ?? span;
        break;
      default:
        if (FORMAT_METHODS[c.name] && kind === 'string') constraints.push(cf('format', FORMAT_METHODS[c.name], span));
    }
  }
  return { kind, constraints, description, defaultSpan };
}

function cf(keyword: string, value: JsonValue | undefined, span: Span): ConstraintFact {
  return { keyword, value, span };
}

/** `.max(100)`: from the method name to the closing parenthesis. */
function methodSpan(call: ts.CallExpression, pf: ParsedFile): Span {
  const callee = call.expression;
  const start = ts.isPropertyAccessExpression(callee) ? callee.name.getStart(pf.sf) : call.getStart(pf.sf);
  return { file: pf.file, start, end: call.getEnd() };
}
function argSpan(call: ts.CallExpression, pf: ParsedFile): Span | undefined {
  return call.arguments[0] ? spanOf(call.arguments[0], pf) : undefined;
}

/** A key other than description/default/title (what `Object.keys(schema).filter(...).length > 0` said, stopping at the first). */
function hasTypingKey(schema: JsonSchema): boolean {
  for (const k of Object.keys(schema)) if (k !== 'description' && k !== 'default' && k !== 'title') return true;
  return false;
}

/** One ParameterDefinition per published property, located in source where the shape is written statically. */
export function parametersOf(inputExpr: ts.Expression | undefined, pf: ParsedFile, ctx: EvalContext, inputJson: JsonSchema | undefined, fallback: Span): ParameterDefinition[] {
  const entries = inputExpr ? (shapeEntries(inputExpr, pf, ctx) ?? []) : [];
  const props = (inputJson?.properties ?? undefined) as Record<string, JsonSchema> | undefined;
  const required = new Set(Array.isArray(inputJson?.required) ? (inputJson.required as string[]) : []);
  const names = props ? Object.keys(props) : entries.map((e) => e.name);
  const out: ParameterDefinition[] = [];
  for (const name of names) {
    const e = entries.find((x) => x.name === name);
    const schema = props?.[name];
    const facts = e ? chainFacts(e.valueNode, e.pf, ctx) : undefined;
    const typeSpan = e ? spanOf(e.valueNode, e.pf) : undefined;
    const p: ParameterDefinition = {
      name,
      nameSpan: e ? spanOf(e.keyNode, e.pf) : fallback,
      span: e ? spanOf(e.propNode, e.pf) : fallback,
      typeSpan,
      typeText: e ? e.valueNode.getText(e.pf.sf) : undefined,
      schema,
      required: props ? required.has(name) : false,
      constraints: facts?.constraints ?? [],
      untyped: facts?.kind === 'any' || (schema !== undefined && !hasTypingKey(schema)),
    };
    const desc = schema?.description;
    if (typeof desc === 'string') {
      p.description = { value: desc, span: facts?.description?.span ?? typeSpan ?? fallback, origin: facts?.description?.origin ?? 'other' };
    }
    if (schema && 'default' in schema) p.defaultValue = { value: schema.default, span: facts?.defaultSpan ?? typeSpan ?? fallback };
    out.push(p);
  }
  return out;
}

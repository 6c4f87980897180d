/**
 * Static evaluation of the expressions a tool definition is written with — never running user code.
 *
 * Literals, templates, `+`, `[...].join()`, object/array literals, consts and imports are folded to values.
 * Zod expressions are rebuilt as REAL zod schemas (so the SDK's own converter can turn them into JSON Schema)
 * by calling only allow-listed zod functions and methods with statically known arguments. Anything else throws
 * `Unresolved` with the span and a reason; the caller turns it into an `unresolved` entry.
 */
import ts from './ts';
import * as z4 from 'zod/v4';
import * as z3 from 'zod/v3';
import type { Span } from '../model';
import type { Framework } from '../../../../common/frameworks';
import { isFunctionLikeKind, isReassigned, lookupName, mutationsOf, skipOuter, spanOf, type Decl, type ParsedFile, type Project } from './project';
import { zodToJsonSchemaAsPublished } from '../../contract/typescript/lowlevel';
import type { SchemaLibrary, TsLibraries, ZodEntry } from '../../contract/typescript/libraries';
import { inlinedZod, inlinedZodModule } from './bundles';

/** SyntaxKind read once: `SK.X` in a hot switch is a chain of property reads per case. */
const SK = ts.SyntaxKind;

/**
 * Thrown when an expression cannot be resolved statically. Deliberately not an Error: it is thrown and caught a
 * lot on ordinary code, and capturing a stack trace each time would cost more than the analysis itself.
 */
export class Unresolvable {
  private where: Span | { node: ts.Node; pf: ParsedFile };
  constructor(
    readonly reason: string,
    where: Span | { node: ts.Node; pf: ParsedFile },
  ) {
    this.where = where;
  }
  /** Computed when asked: most Unresolvables are caught and dropped (a guess that did not work out). */
  get span(): Span {
    if ('node' in this.where) this.where = spanOf(this.where.node, this.where.pf);
    return this.where;
  }
  get message(): string {
    return this.reason;
  }
}

/** A zod namespace (`z`, `z.iso`, `z.coerce`) of one zod major. */
export class ZodNs {
  constructor(
    readonly obj: Record<string, unknown>,
    readonly major: 3 | 4,
    readonly path: string,
  ) {}
}
/** A method or namespace function read off a zod value, not yet called. */
export class ZodFn {
  constructor(
    readonly target: object,
    readonly name: string,
    readonly major: 3 | 4,
    readonly onNamespace: boolean,
    /** The namespace a namespace function is read from: "z", "iso" (`z.iso.date`), "coerce". */
    readonly nsPath = 'z',
  ) {}
}
/** `import * as ns from "./file"` of a workspace file. */
export class ModuleNs {
  constructor(readonly pf: ParsedFile) {}
}
/** An arrow / function expression: only used as a zod argument (lazy, default, catch, refine...). */
export class FnExpr {
  constructor(
    readonly node: ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration,
    readonly pf: ParsedFile,
    /** A method read off an instance: what `this` is in its body. */
    readonly thisValue?: Instance,
  ) {}
}

/**
 * `new C(args)` of a workspace class, read as its constructor writes it: field initializers and `this.x = value`
 * statements of each constructor (base first, through `super(...)`), evaluated only when read, with the
 * constructor's parameters bound to the arguments. Methods are read off the class (derived first) and never run.
 */
export class Instance {
  /** Field name -> where its last write is (the expression, its file, the bindings it is evaluated in). */
  private fields?: Map<string, { node: ts.Expression | undefined; pf: ParsedFile; env: Map<ts.Node, unknown> }>;
  /** Why the fields cannot be known (a constructor writing `this` under run-time conditions), if so. */
  private opaque?: { reason: string; node: ts.Node; pf: ParsedFile };
  private readonly values = new Map<string, { value: unknown } | { error: Unresolvable }>();
  constructor(
    readonly cls: ts.ClassLikeDeclaration,
    readonly pf: ParsedFile,
    private readonly args: readonly ts.Expression[],
    private readonly argsPf: ParsedFile,
    private readonly argsEnv: Map<ts.Node, unknown>,
  ) {}

  get label(): string {
    return this.cls.name ? `\`${this.cls.name.text}\`` : 'an anonymous class';
  }

  member(name: string, at: ts.Node, atPf: ParsedFile, ctx: EvalContext): unknown {
    const fields = this.construct(ctx);
    const field = fields.get(name);
    // A constructor writing fields under run-time conditions: no field holds a value we know.
    if (field && this.opaque) throw new Unresolvable(this.opaque.reason, { node: this.opaque.node, pf: this.opaque.pf });
    if (field) {
      let r = this.values.get(name);
      if (!r) {
        try {
          r = { value: field.node ? evaluate(field.node, field.pf, { ...ctx, env: field.env }) : undefined };
        } catch (err) {
          if (!(err instanceof Unresolvable)) throw err;
          r = { error: err };
        }
        this.values.set(name, r);
      }
      if ('error' in r) throw r.error;
      return r.value;
    }
    for (const c of classChain(this.cls, this.pf, ctx)) {
      for (const m of c.cls.members) {
        if (ts.isMethodDeclaration(m) && m.body && m.name && ts.isIdentifier(m.name) && m.name.text === name && !isStatic(m)) return new FnExpr(m, c.pf, this);
      }
    }
    if (this.opaque) throw new Unresolvable(this.opaque.reason, { node: this.opaque.node, pf: this.opaque.pf });
    return fail(`\`${name}\` is not a field or method of ${this.label}`, at, atPf);
  }

  /** Runs the constructors as written: a base class's first (through `super(...)`), recording each write to `this`. */
  private construct(ctx: EvalContext): NonNullable<Instance['fields']> {
    if (this.fields) return this.fields;
    const fields: NonNullable<Instance['fields']> = new Map();
    this.fields = fields;
    const chain = classChain(this.cls, this.pf, ctx);
    const run = (level: number, args: readonly ts.Expression[], argsPf: ParsedFile, argsEnv: Map<ts.Node, unknown>): void => {
      const { cls, pf } = chain[level];
      const env = new Map(argsEnv);
      env.set(cls, this);
      const ctor = cls.members.find((m): m is ts.ConstructorDeclaration => ts.isConstructorDeclaration(m) && !!m.body);
      if (ctor) {
        const ctorEnv = new Map<ts.Node, unknown>([...ctx.env, [cls, this]]);
        ctor.parameters.forEach((p, i) => {
          if (ts.isIdentifier(p.name) && !p.dotDotDotToken) ctorEnv.set(p, args[i] ? new Deferred(args[i], argsPf, argsEnv) : undefined);
          // `constructor(private readonly name: string)`: a parameter property is a field.
          if (ts.isIdentifier(p.name) && ts.getModifiers(p)?.some((m) => PARAMETER_PROPERTY.has(m.kind))) fields.set(p.name.text, { node: args[i], pf: argsPf, env: argsEnv });
        });
        const fieldsFirst = level === chain.length - 1; // a base class initialises its fields before its constructor body
        if (fieldsFirst) initFields(cls, pf, env);
        for (const st of ctor.body!.statements) {
          const e = ts.isExpressionStatement(st) ? skipOuter(st.expression) : undefined;
          if (e && ts.isCallExpression(e) && e.expression.kind === SK.SuperKeyword) {
            if (level + 1 < chain.length) run(level + 1, e.arguments, pf, ctorEnv);
            initFields(cls, pf, env);
            continue;
          }
          if (e && ts.isBinaryExpression(e) && e.operatorToken.kind === SK.EqualsToken) {
            const target = skipOuter(e.left);
            if (ts.isPropertyAccessExpression(target) && target.expression.kind === SK.ThisKeyword) {
              fields.set(target.name.text, { node: e.right, pf, env: ctorEnv });
              continue;
            }
          }
          if (writesThis(st)) this.opaque ??= { reason: `the constructor of ${this.label} sets its fields under run-time conditions`, node: st, pf };
        }
      } else if (level + 1 < chain.length) {
        // `constructor(...args) { super(...args); }`, then the fields.
        run(level + 1, args, argsPf, argsEnv);
        initFields(cls, pf, env);
      } else initFields(cls, pf, env);
    };
    const initFields = (cls: ts.ClassLikeDeclaration, pf: ParsedFile, env: Map<ts.Node, unknown>): void => {
      for (const m of cls.members) {
        if (ts.isPropertyDeclaration(m) && !isStatic(m) && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)))
          fields.set(m.name.text, { node: m.initializer, pf, env: new Map([...ctx.env, ...env]) });
      }
    };
    // chain[0] is the class itself; a constructor's super(...) runs chain[level + 1].
    run(0, this.args, this.argsPf, this.argsEnv);
    return fields;
  }
}

const PARAMETER_PROPERTY = new Set<ts.SyntaxKind>([SK.PublicKeyword, SK.PrivateKeyword, SK.ProtectedKeyword, SK.ReadonlyKeyword]);

function isStatic(m: ts.Node): boolean {
  return ts.canHaveModifiers(m) && !!ts.getModifiers(m)?.some((x) => x.kind === SK.StaticKeyword);
}

/** A statement writing a field of `this` (outside nested functions). */
function writesThis(st: ts.Node): boolean {
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found || (ts.isFunctionLike(n) && !ts.isArrowFunction(n))) return;
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= SK.FirstAssignment && n.operatorToken.kind <= SK.LastAssignment) {
      const t = skipOuter(n.left);
      if ((ts.isPropertyAccessExpression(t) || ts.isElementAccessExpression(t)) && t.expression.kind === SK.ThisKeyword) found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(st);
  return found;
}

/** A class and the classes it extends (workspace classes only), derived first. */
function classChain(cls: ts.ClassLikeDeclaration, pf: ParsedFile, ctx: EvalContext): { cls: ts.ClassLikeDeclaration; pf: ParsedFile }[] {
  const chain = [{ cls, pf }];
  for (let i = 0; i < 10; i++) {
    const last = chain[chain.length - 1];
    const ext = last.cls.heritageClauses?.find((h) => h.token === SK.ExtendsKeyword)?.types[0]?.expression;
    if (!ext) break;
    const base = classOf(ext, last.pf, ctx);
    if (!base) break;
    chain.push(base);
  }
  return chain;
}

/** The workspace class an expression names (`Foo`, an imported `Foo`, `ns.Foo`). */
function classOf(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): { cls: ts.ClassLikeDeclaration; pf: ParsedFile } | undefined {
  const e = skipOuter(expr);
  let d: Decl | undefined;
  if (ts.isIdentifier(e)) {
    d = lookupName(e.text, e, pf);
    if (d?.kind === 'import') d = ctx.project.resolveImport(d);
  } else if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression)) {
    const ns = lookupName(e.expression.text, e.expression, pf);
    if (ns?.kind === 'import' && ns.imported === '*') {
      const target = ctx.project.loadModule(ns.pf.file, ns.module);
      d = target && ctx.project.resolveExport(target, e.name.text);
    }
  }
  if (d?.kind === 'class') return { cls: d.node, pf: d.pf };
  if (d?.kind === 'var' && d.node.initializer && ts.isClassExpression(skipOuter(d.node.initializer))) return { cls: skipOuter(d.node.initializer) as ts.ClassExpression, pf: d.pf };
  return undefined;
}

/** `this` inside a class member: the instance it was bound to (a method read off an instance, a constructor run). */
function evalThis(node: ts.Node, pf: ParsedFile, ctx: EvalContext): unknown {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isArrowFunction(n)) continue;
    if (ts.isClassLike(n)) break;
    if (isFunctionLikeKind(n.kind) || ts.isPropertyDeclaration(n)) {
      const cls = n.parent;
      if (cls && ts.isClassLike(cls) && ctx.env.has(cls)) return ctx.env.get(cls);
      break;
    }
  }
  return fail('`this` is known only at run time here', node, pf);
}
/**
 * An argument of a followed call, bound to the callee's parameter and evaluated only when the callee's code reads it
 * (`tool("name", "Title", ...)` calling `server.registerTool(name, ...)`): the caller's expression, in the caller's
 * bindings. Its value, or why it has none, is kept once computed.
 */
export class Deferred {
  private result?: { value: unknown } | { error: Unresolvable };
  constructor(
    readonly node: ts.Expression,
    readonly pf: ParsedFile,
    readonly env: Map<ts.Node, unknown>,
  ) {}
  value(ctx: EvalContext): unknown {
    if (!this.result) {
      try {
        this.result = { value: evaluate(this.node, this.pf, { ...ctx, env: this.env }) };
      } catch (err) {
        if (!(err instanceof Unresolvable)) throw err;
        this.result = { error: err };
      }
    }
    if ('error' in this.result) throw this.result.error;
    return this.result.value;
  }
}

/**
 * A plain function of a library or a JS global that is safe to run on static values (`Object.keys(map)`,
 * zod-to-json-schema's `zodToJsonSchema(schema)`): called with the evaluated arguments, never with user code.
 */
export class StaticFn {
  constructor(
    readonly name: string,
    readonly fn: (...args: unknown[]) => unknown,
    /** How many leading arguments it reads; the rest (a completion callback) are never evaluated nor run. */
    readonly arity?: number,
  ) {}
}
/** The members of a JS global read as StaticFn (`Object.keys`). */
const STATIC_GLOBALS: Record<string, Record<string, StaticFn>> = {
  Object: {
    keys: new StaticFn('Object.keys', (o) => Object.keys(o as object)),
    values: new StaticFn('Object.values', (o) => Object.values(o as object) as unknown[]),
    entries: new StaticFn('Object.entries', (o) => Object.entries(o as object)),
  },
};
/** The StaticFns that read an object's own keys, so a module namespace can be handed to them as its exports. */
const OBJECT_READERS = new Set<StaticFn>(Object.values(STATIC_GLOBALS.Object));

/**
 * A module namespace as the object JS gives: every export evaluated, in the order the runtime enumerates them (an ES
 * module namespace sorts its keys; CommonJS `exports` keeps the order they were written in).
 */
function moduleObject(ns: ModuleNs, at: ts.Node, pf: ParsedFile, ctx: EvalContext): Record<string, unknown> {
  const names = ctx.project.exportNames(ns.pf);
  if (!ns.pf.commonJs) names.sort();
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const d = ctx.project.resolveExport(ns.pf, name);
    if (!d) return fail(`\`${name}\` is not exported by ${ns.pf.file}`, at, pf);
    setKey(out, name, evalDecl(d, at, pf, ctx));
  }
  return out;
}

/** Modules whose exports are StaticFn: the JSON Schema converters low-level servers call in their tools/list handler. */
const STATIC_MODULES: Record<string, Record<string, StaticFn>> = {
  'zod-to-json-schema': {
    zodToJsonSchema: new StaticFn('zodToJsonSchema', zodToJsonSchemaAsPublished),
    default: new StaticFn('zodToJsonSchema', zodToJsonSchemaAsPublished),
  },
};

/**
 * The SDKs' `completable(schema, complete)` (prompt arguments with completions): it marks the schema and returns it,
 * so the published argument is the schema's; `complete` is never run.
 */
const COMPLETABLE = new StaticFn('completable', (schema) => schema, 1);
/** SDK modules exporting a helper evaluated statically; their other exports are not values the analysis rebuilds. */
const SDK_HELPERS: Record<string, Record<string, StaticFn | string>> = {
  '@modelcontextprotocol/sdk/server/completable.js': { completable: COMPLETABLE },
  '@modelcontextprotocol/sdk/server/completable': { completable: COMPLETABLE },
  '@modelcontextprotocol/server': { completable: COMPLETABLE },
  // MCP Apps' constants, the same in every release of @modelcontextprotocol/ext-apps (0.2.0-2.0.4, both entries).
  '@modelcontextprotocol/ext-apps/server': { RESOURCE_URI_META_KEY: 'ui/resourceUri', RESOURCE_MIME_TYPE: 'text/html;profile=mcp-app' },
  '@modelcontextprotocol/ext-apps': { RESOURCE_URI_META_KEY: 'ui/resourceUri', RESOURCE_MIME_TYPE: 'text/html;profile=mcp-app' },
};

/** A server instance reference (for server identity), produced by `new McpServer(...)`. */
export class ServerRef {
  constructor(
    readonly id: string,
    readonly variable: string,
    readonly span: Span,
    readonly name: string | undefined,
    /** The SDK the server's class is imported from (`new McpServer` of `@modelcontextprotocol/server`), when known. */
    readonly framework?: Framework,
  ) {}
}

function isZodSchema(v: unknown): v is object {
  return typeof v === 'object' && v !== null && ('_zod' in v || '_def' in v) && !(v instanceof ZodNs);
}
function zodMajorOf(v: object): 3 | 4 {
  return '_zod' in v ? 4 : 3;
}

// ---- the allow-list -------------------------------------------------------------------------------------------

const NS_COMMON = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'undefined',
  'literal',
  'enum',
  'nativeEnum',
  'array',
  'tuple',
  'object',
  'record',
  'union',
  'discriminatedUnion',
  'intersection',
  'nullable',
  'optional',
  'lazy',
  'any',
  'unknown',
  'never',
]);
/** zod 4's top-level string formats (`z.email()`, `z.uuidv7()`...): strings with a format or pattern. */
export const ZOD4_STRING_FORMATS = [
  'email',
  'url',
  'httpUrl',
  'uuid',
  'uuidv4',
  'uuidv6',
  'uuidv7',
  'guid',
  'ipv4',
  'ipv6',
  'cidrv4',
  'cidrv6',
  'base64',
  'base64url',
  'e164',
  'jwt',
  'emoji',
  'nanoid',
  'cuid',
  'cuid2',
  'ulid',
  'xid',
  'ksuid',
  'hostname',
] as const;
const NS_V4_ONLY = new Set([
  'int',
  'strictObject',
  'looseObject',
  'partialRecord',
  'nullish',
  ...ZOD4_STRING_FORMATS,
  'hex',
  'int32',
  'uint32',
  'float32',
  'float64',
  'keyof',
  'stringbool',
  'json',
  'xor',
  // zod's own JSON Schema conversion (a low-level server's `inputSchema: z.toJSONSchema(schema, opts)`): returns plain JSON
  'toJSONSchema',
]);
/** Zod constructs JSON Schema cannot carry: allowed (so the rest of the schema still resolves) but reported. */
const UNREPRESENTABLE_NS = new Set(['date', 'bigint', 'int64', 'uint64', 'custom', 'function', 'map', 'set', 'symbol', 'void', 'nan', 'promise', 'instanceof', 'preprocess', 'transform', 'file']);
const UNREPRESENTABLE_METHODS = ['transform'];
const SUB_NAMESPACES: Record<string, string[]> = {
  iso: ['date', 'datetime', 'time', 'duration'],
  coerce: ['string', 'number', 'boolean'],
};
const METHODS = new Set([
  // string
  'min',
  'max',
  'length',
  'regex',
  'email',
  'url',
  'uuid',
  'cuid',
  'cuid2',
  'ulid',
  'emoji',
  'nanoid',
  'ip',
  'ipv4',
  'ipv6',
  'cidr',
  'base64',
  'datetime',
  'date',
  'time',
  'duration',
  'startsWith',
  'endsWith',
  'includes',
  'trim',
  'toLowerCase',
  'toUpperCase',
  'lowercase',
  'uppercase',
  'normalize',
  'nonempty',
  // number
  'int',
  'positive',
  'negative',
  'nonnegative',
  'nonpositive',
  'gt',
  'gte',
  'lt',
  'lte',
  'multipleOf',
  'step',
  'finite',
  'safe',
  // wrappers & metadata
  'optional',
  'nullable',
  'nullish',
  'default',
  'prefault',
  'describe',
  'meta',
  'catch',
  'readonly',
  'brand',
  'array',
  'or',
  'and',
  // objects
  'strict',
  'passthrough',
  'strip',
  'loose',
  'catchall',
  'extend',
  'merge',
  'pick',
  'omit',
  'partial',
  'required',
  'deepPartial',
  'keyof',
  'unwrap',
  'exclude',
  'extract',
  'removeDefault',
  'element',
  // checks that JSON Schema ignores (their functions are never run)
  'refine',
  'superRefine',
  'check',
  'pipe',
  // zod 4's `schema.toJSONSchema(opts)` (the same conversion as a method)
  'toJSONSchema',
  ...UNREPRESENTABLE_METHODS,
]);
const SCHEMA_PROPS = new Set(['shape', 'element', 'options', 'enum', 'Enum', 'Values', 'description']);
/** Methods whose function arguments are never called by the JSON Schema converter. */
const INERT_FN_METHODS = new Set(['refine', 'superRefine', 'check', 'transform', 'preprocess', 'custom', 'instanceof']);
/**
 * Zod functions whose first argument is only ever a function the converter never calls: it is not evaluated at all,
 * so a function built by a helper (`z.preprocess(aliasArgs(ALIASES), z.object(...))`) does not hide the schema.
 */
const INERT_FIRST_ARG = new Set(['refine', 'superRefine', 'transform', 'preprocess']);

const ZOD_V4 = z4 as unknown as Record<string, unknown>;
const ZOD_V3 = z3 as unknown as Record<string, unknown>;

export interface EvalContext {
  project: Project;
  /** The zod major a bare `"zod"` import means in this workspace. */
  zodMajorForBareImport: (fromFile: string) => 3 | 4;
  unrepresentable: { construct: string; span: Span }[];
  /** Parameters bound to values while following a call into a helper (server instances). */
  env: Map<ts.Node, unknown>;
  /** Consts already evaluated (and the unrepresentable constructs found while doing so). */
  consts: Map<ts.Node, { state: 'pending' | 'done'; value?: unknown; unrepr?: { construct: string; span: Span }[]; error?: Unresolvable }>;
  depth: number;
  /** Fingerprints of declarations already computed in this analysis (see `fingerprint`). */
  fingerprints?: Map<ts.Node, string | undefined>;
  /** The call that built each zod 4 schema of this analysis (see `schemaOrigin`). */
  origins?: Map<object, Origin>;
  /** The zod and SDK copies schemas are rebuilt and converted with (the workspace's when trusted); absent: the bundled ones. */
  libraries?: TsLibraries;
}

const MAX_DEPTH = 200;

export function evaluate(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): unknown {
  if (ctx.depth > MAX_DEPTH) throw new Unresolvable('expression nested too deeply', { node, pf });
  ctx.depth++;
  try {
    return evalInner(node, pf, ctx);
  } finally {
    ctx.depth--;
  }
}

/**
 * `evaluate` as if with `{ ...ctx, unrepresentable: [], depth: 0 }` (a side evaluation whose unrepresentable
 * constructs are dropped), without copying the context: its two fields are swapped in and restored.
 */
export function evaluateDetached(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): unknown {
  const unrepresentable = ctx.unrepresentable;
  const depth = ctx.depth;
  ctx.unrepresentable = [];
  ctx.depth = 0;
  try {
    return evaluate(node, pf, ctx);
  } finally {
    ctx.unrepresentable = unrepresentable;
    ctx.depth = depth;
  }
}

function fail(reason: string, node: ts.Node, pf: ParsedFile): never {
  throw new Unresolvable(reason, { node, pf });
}

/** One expression kind at a time; each non-trivial kind has its own function below. */
function evalInner(node0: ts.Expression, pf: ParsedFile, ctx: EvalContext): unknown {
  const node = skipOuter(node0);
  switch (node.kind) {
    case SK.StringLiteral:
    case SK.NoSubstitutionTemplateLiteral:
      return (node as ts.StringLiteral).text;
    case SK.NumericLiteral:
      return Number((node as ts.NumericLiteral).text);
    case SK.TrueKeyword:
      return true;
    case SK.FalseKeyword:
      return false;
    case SK.NullKeyword:
      return null;
    case SK.RegularExpressionLiteral:
      return evalRegExpLiteral(node as ts.RegularExpressionLiteral, pf);
    case SK.TemplateExpression:
      return evalTemplate(node as ts.TemplateExpression, pf, ctx);
    case SK.PrefixUnaryExpression:
      return evalPrefixUnary(node as ts.PrefixUnaryExpression, pf, ctx);
    case SK.BinaryExpression:
      return evalBinary(node as ts.BinaryExpression, pf, ctx);
    case SK.ArrayLiteralExpression:
      return evalArrayLiteral(node as ts.ArrayLiteralExpression, pf, ctx);
    case SK.ObjectLiteralExpression:
      return evalObjectLiteral(node as ts.ObjectLiteralExpression, pf, ctx);
    case SK.Identifier:
      return evalIdentifier(node as ts.Identifier, pf, ctx);
    case SK.PropertyAccessExpression: {
      const p = node as ts.PropertyAccessExpression;
      if (ts.isPrivateIdentifier(p.name)) return fail('private member', node, pf);
      if (isProcessEnv(p.expression, pf)) return fail(`\`process.env.${p.name.text}\` is read from the environment the server runs in`, node, pf);
      const member = boundLiteralMember(p, pf, ctx);
      if (member) return member.read();
      const target = evaluate(p.expression, pf, ctx);
      // `a?.b` of a nullish `a` is undefined (the rest of a longer chain is then read off undefined: unresolved).
      if (p.questionDotToken && (target === undefined || target === null)) return undefined;
      return getMember(target, p.name.text, node, pf, ctx);
    }
    case SK.ThisKeyword:
      return evalThis(node, pf, ctx);
    case SK.AwaitExpression: {
      // `await import("./tools.js")`: the module's namespace (a dynamic import of a workspace file).
      const inner = skipOuter((node as ts.AwaitExpression).expression);
      if (ts.isCallExpression(inner) && inner.expression.kind === SK.ImportKeyword && inner.arguments[0] && ts.isStringLiteralLike(inner.arguments[0])) {
        const target = ctx.project.loadModule(pf.file, inner.arguments[0].text);
        if (target) return new ModuleNs(target);
        return fail(`\`${inner.arguments[0].text}\` is not a workspace file`, inner, pf);
      }
      return fail('an awaited value is known only at run time', node, pf);
    }
    case SK.ElementAccessExpression: {
      const e = node as ts.ElementAccessExpression;
      if (isProcessEnv(e.expression, pf)) return fail(`\`${lineText(e, pf)}\` is read from the environment the server runs in`, node, pf);
      const target = evaluate(e.expression, pf, ctx);
      if (e.questionDotToken && (target === undefined || target === null)) return undefined;
      const key = evaluate(e.argumentExpression, pf, ctx);
      if (typeof key !== 'string' && typeof key !== 'number') return fail('computed member is not a static key', e.argumentExpression, pf);
      return getMember(target, String(key), node, pf, ctx);
    }
    case SK.CallExpression:
      return evalCall(node as ts.CallExpression, pf, ctx);
    case SK.ConditionalExpression: {
      // `flag ? a : b` on a condition known statically; otherwise why the condition is not (a parameter, ...).
      const c = node as ts.ConditionalExpression;
      const cond = evaluate(c.condition, pf, ctx);
      if (!isPrimitive(cond) && !isPlainObject(cond) && !Array.isArray(cond) && !isZodSchema(cond)) return fail('the condition is not a static value', c.condition, pf);
      return evaluate(cond ? c.whenTrue : c.whenFalse, pf, ctx);
    }
    case SK.ArrowFunction:
    case SK.FunctionExpression:
      return new FnExpr(node as ts.ArrowFunction, pf);
    case SK.NewExpression:
      return evalNew(node as ts.NewExpression, pf, ctx);
    default:
      return fail(`${ts.SyntaxKind[node.kind]} is not evaluated statically`, node, pf);
  }
}

function evalRegExpLiteral(node: ts.RegularExpressionLiteral, pf: ParsedFile): RegExp {
  const text = node.text;
  const last = text.lastIndexOf('/');
  try {
    return new RegExp(text.slice(1, last), text.slice(last + 1));
  } catch {
    return fail('invalid regular expression', node, pf);
  }
}

function evalTemplate(t: ts.TemplateExpression, pf: ParsedFile, ctx: EvalContext): string {
  let out = t.head.text;
  for (const s of t.templateSpans) {
    const v = evaluate(s.expression, pf, ctx);
    if (!isPrimitive(v)) fail('template substitution is not a static string', s.expression, pf);
    out += String(v) + s.literal.text;
  }
  return out;
}

function evalPrefixUnary(p: ts.PrefixUnaryExpression, pf: ParsedFile, ctx: EvalContext): unknown {
  const v = evaluate(p.operand, pf, ctx);
  if (typeof v === 'number') {
    if (p.operator === SK.MinusToken) return -v;
    if (p.operator === SK.PlusToken) return v;
  }
  if (p.operator === SK.ExclamationToken && isPrimitive(v)) return !v;
  return fail('unsupported unary expression', p, pf);
}

/** `+` of strings or numbers, `* - /` of numbers, `??`. */
function evalBinary(b: ts.BinaryExpression, pf: ParsedFile, ctx: EvalContext): unknown {
  if (b.operatorToken.kind === SK.PlusToken) {
    const l = evaluate(b.left, pf, ctx);
    const r = evaluate(b.right, pf, ctx);
    if (typeof l === 'number' && typeof r === 'number') return l + r;
    if ((typeof l === 'string' || typeof r === 'string') && isPrimitive(l) && isPrimitive(r)) return String(l) + String(r);
    return fail('`+` of values that are not static strings or numbers', b, pf);
  }
  if (b.operatorToken.kind === SK.AsteriskToken || b.operatorToken.kind === SK.MinusToken || b.operatorToken.kind === SK.SlashToken) {
    const l = evaluate(b.left, pf, ctx);
    const r = evaluate(b.right, pf, ctx);
    if (typeof l === 'number' && typeof r === 'number') {
      if (b.operatorToken.kind === SK.AsteriskToken) return l * r;
      if (b.operatorToken.kind === SK.MinusToken) return l - r;
      return l / r;
    }
  }
  // `mode === "readonly"`: a comparison of static primitives.
  const op = b.operatorToken.kind;
  if (op === SK.EqualsEqualsEqualsToken || op === SK.ExclamationEqualsEqualsToken || op === SK.EqualsEqualsToken || op === SK.ExclamationEqualsToken) {
    const l = evaluate(b.left, pf, ctx);
    const r = evaluate(b.right, pf, ctx);
    if (!isPrimitive(l) || !isPrimitive(r)) return fail('a comparison of values that are not static primitives', b, pf);
    const same = op === SK.EqualsEqualsEqualsToken || op === SK.ExclamationEqualsEqualsToken ? l === r : l == r;
    return op === SK.EqualsEqualsEqualsToken || op === SK.EqualsEqualsToken ? same : !same;
  }
  // `(0, utils_1.helper)(x)`: how TypeScript's CommonJS output calls an imported function; the left side is a literal.
  if (b.operatorToken.kind === SK.CommaToken && ts.isLiteralExpression(skipOuter(b.left))) return evaluate(b.right, pf, ctx);
  if (b.operatorToken.kind === SK.QuestionQuestionToken) {
    const l = evaluate(b.left, pf, ctx);
    return l === undefined || l === null ? evaluate(b.right, pf, ctx) : l;
  }
  // `name || "default"`, `flag && schema`: short-circuit as JS does, on a left side that is known.
  if (b.operatorToken.kind === SK.BarBarToken || b.operatorToken.kind === SK.AmpersandAmpersandToken) {
    const l = evaluate(b.left, pf, ctx);
    if (!isPrimitive(l) && !isZodSchema(l) && !isPlainObject(l) && !Array.isArray(l)) return fail(`the left side of ${ts.tokenToString(b.operatorToken.kind)} is not a static value`, b.left, pf);
    return (b.operatorToken.kind === SK.BarBarToken) === Boolean(l) ? l : evaluate(b.right, pf, ctx);
  }
  return fail(`operator ${ts.tokenToString(b.operatorToken.kind) ?? '?'} is not evaluated statically`, b, pf);
}

function evalArrayLiteral(node: ts.ArrayLiteralExpression, pf: ParsedFile, ctx: EvalContext): unknown[] {
  return evalElements(node.elements, pf, ctx);
}

/** Array elements (or a call's arguments, pushed onto one), spreads expanded. */
function evalElements(elements: readonly ts.Expression[], pf: ParsedFile, ctx: EvalContext): unknown[] {
  const out: unknown[] = [];
  for (const el of elements) {
    if (ts.isSpreadElement(el)) {
      const v = evaluate(el.expression, pf, ctx);
      if (!Array.isArray(v)) fail('spread of a value that is not a static array', el, pf);
      out.push(...(v as unknown[]));
    } else if (ts.isOmittedExpression(el)) out.push(undefined);
    else out.push(evaluate(el, pf, ctx));
  }
  return out;
}

/** `new RegExp(source, flags)` with static arguments, and `new C(...)` of a workspace class (an Instance). */
function evalNew(n: ts.NewExpression, pf: ParsedFile, ctx: EvalContext): RegExp | Instance {
  const callee = skipOuter(n.expression);
  const cls = classOf(callee, pf, ctx);
  if (cls) return new Instance(cls.cls, cls.pf, n.arguments ?? [], pf, ctx.env);
  if (ts.isIdentifier(callee) && callee.text === 'RegExp' && n.arguments?.length) {
    const src = evaluate(n.arguments[0], pf, ctx);
    const flags = n.arguments[1] ? evaluate(n.arguments[1], pf, ctx) : '';
    if (typeof src === 'string' && typeof flags === 'string') {
      try {
        return new RegExp(src, flags);
      } catch {
        return fail('invalid regular expression', n, pf);
      }
    }
  }
  return fail('`new` expressions are not evaluated statically', n, pf);
}

function isPrimitive(v: unknown): v is string | number | boolean | null | undefined {
  return v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty: a key named "__proto__" must stay a plain key, and a key already there may be a getter (from a
  // spread). A key found nowhere on the object or its prototype gets the same own data property from an assignment,
  // at a fraction of the cost.
  if (!(key in obj)) obj[key] = value;
  else Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function propertyKey(name: ts.PropertyName, pf: ParsedFile, ctx: EvalContext): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) {
    const k = evaluate(name.expression, pf, ctx);
    if (typeof k === 'string' || typeof k === 'number') return String(k);
  }
  return fail('property name is not static', name, pf);
}

function evalObjectLiteral(node: ts.ObjectLiteralExpression, pf: ParsedFile, ctx: EvalContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const prop of node.properties) {
    if (ts.isPropertyAssignment(prop)) {
      setKey(out, propertyKey(prop.name, pf, ctx), evaluate(prop.initializer, pf, ctx));
    } else if (ts.isShorthandPropertyAssignment(prop)) {
      setKey(out, prop.name.text, evalIdentifier(prop.name, pf, ctx));
    } else if (ts.isSpreadAssignment(prop)) {
      const v = evaluate(prop.expression, pf, ctx);
      if (v === undefined || v === null) continue;
      if (!isPlainObject(v)) fail('spread of a value that is not a static object', prop, pf);
      for (const k of Object.keys(v)) {
        const d = Object.getOwnPropertyDescriptor(v, k);
        if (d) Object.defineProperty(out, k, { ...d, configurable: true });
      }
    } else if (ts.isMethodDeclaration(prop) && prop.body && !prop.asteriskToken) {
      // `{ register(server) { ... } }`: a function value, never run (a followed call walks its body).
      setKey(out, propertyKey(prop.name, pf, ctx), new FnExpr(prop, pf));
    } else if (ts.isGetAccessorDeclaration(prop) && prop.body) {
      // zod 4 recursive shapes: `get children() { return z.array(Node) }` — evaluated when zod reads it.
      const ret = singleReturn(prop.body);
      if (!ret) fail('getter body is not a single return', prop, pf);
      const key = propertyKey(prop.name, pf, ctx);
      let cached: { v: unknown } | undefined;
      const snapshot = { ...ctx, depth: 0 };
      Object.defineProperty(out, key, {
        enumerable: true,
        configurable: true,
        get() {
          cached ??= { v: evaluate(ret, pf, snapshot) };
          return cached.v;
        },
      });
    } else {
      fail('object member is not a static property', prop, pf);
    }
  }
  return out;
}

function singleReturn(body: ts.Block): ts.Expression | undefined {
  const st = body.statements;
  if (st.length === 1 && ts.isReturnStatement(st[0]) && st[0].expression) return st[0].expression;
  return undefined;
}

const ZOD_MODULES: Record<string, 3 | 4 | 'bare' | 'mini'> = {
  zod: 'bare',
  'zod/v4': 4,
  'zod/v4/classic': 4,
  'zod/v3': 3,
  'zod/mini': 'mini',
  'zod/v4-mini': 'mini',
  'zod/v4/mini': 'mini',
};

/**
 * ArkType (a Standard Schema library the v2 SDK converts through its own `~standard.jsonSchema`): `type(...)` from
 * "arktype" is rebuilt with the real parser on static definitions (strings, objects, tuples, other ArkType types),
 * and these methods of a Type are called for real. Anything else stays unresolved.
 */
const ARKTYPE_MODULE = 'arktype';
/** Loaded on the first file that imports ArkType: its start-up (~0.3 s, it compiles its own scope) is not every contract's. */
let arktypeExports: { type: unknown } | undefined;
function arktypeExportsLoaded(ctx: EvalContext): { type: unknown } {
  // The workspace's own copy when trusted (libraries.ts); one object per copy, like the bundled one.
  const own = ctx.libraries?.schemaLibrary('arktype');
  if (own) return schemaLibraryExports(own, ['type']);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (arktypeExports ??= { type: (require('arktype') as typeof import('arktype')).type });
}
const ownExports = new WeakMap<object, Record<string, unknown>>();
/** The named exports of a workspace module, as one stable object (ZodFn calls them with it as `this`). */
function schemaLibraryExports(mod: Record<string, unknown>, names?: string[]): Record<string, unknown> & { type: unknown } {
  let out = ownExports.get(mod);
  if (!out) ownExports.set(mod, (out = names ? Object.fromEntries(names.map((n) => [n, mod[n]])) : mod));
  return out as Record<string, unknown> & { type: unknown };
}
// prettier-ignore
const ARKTYPE_METHODS = new Set(['describe', 'array', 'or', 'and', 'optional', 'default', 'merge', 'omit', 'pick', 'partial', 'required', 'atLeastLength', 'atMostLength', 'moreThan', 'lessThan', 'atLeast', 'atMost', 'divisibleBy', 'matching', 'configure', 'brand', 'onUndeclaredKey']);

/**
 * Valibot (converted, as the v2 SDK documents, through `toStandardJsonSchema` of @valibot/to-json-schema): the
 * allow-listed functions of "valibot" (schemas, pipe actions and metadata) called for real on static arguments.
 */
// prettier-ignore
const VALIBOT_FUNCTIONS = new Set(['object', 'strictObject', 'looseObject', 'string', 'number', 'boolean', 'null', 'nullable', 'nullish', 'optional', 'exactOptional', 'array', 'tuple', 'strictTuple', 'union', 'picklist', 'literal', 'enum', 'record', 'variant', 'intersect', 'pipe', 'any', 'unknown', 'date', 'minLength', 'maxLength', 'length', 'nonEmpty', 'minValue', 'maxValue', 'gtValue', 'ltValue', 'integer', 'multipleOf', 'email', 'url', 'uuid', 'regex', 'isoDate', 'isoDateTime', 'isoTime', 'isoTimestamp', 'ipv4', 'ipv6', 'hexadecimal', 'trim', 'toLowerCase', 'toUpperCase', 'description', 'title', 'metadata', 'examples', 'minEntries', 'maxEntries']);
const VALIBOT_ALLOWED: Record<string, Set<string>> = { valibot: VALIBOT_FUNCTIONS, '@valibot/to-json-schema': new Set(['toStandardJsonSchema']) };
/** The modules above, each loaded on the first file that imports it (like ArkType). */
const valibotModules: Record<string, Record<string, unknown> | undefined> = {};
function valibotModule(module: string, ctx: EvalContext): Record<string, unknown> {
  const own = ctx.libraries?.schemaLibrary(module as SchemaLibrary);
  if (own) return schemaLibraryExports(own, module === 'valibot' ? undefined : ['toStandardJsonSchema']);
  return (valibotModules[module] ??=
    module === 'valibot'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require('valibot') as Record<string, unknown>)
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        { toStandardJsonSchema: (require('@valibot/to-json-schema') as typeof import('@valibot/to-json-schema')).toStandardJsonSchema });
}

/** `import * as v from "valibot"`: its allow-listed functions are read as `v.name`. */
export class LibNs {
  constructor(readonly module: string) {}
}

function valibotFn(module: string, name: string, at: ts.Node, pf: ParsedFile, ctx: EvalContext): ZodFn {
  const exports = valibotModule(module, ctx);
  if (!VALIBOT_ALLOWED[module].has(name) || typeof exports[name] !== 'function') return fail(`\`${name}\` of ${module} is not a supported function`, at, pf);
  return new ZodFn(exports, name, 4, true, 'valibot');
}

/** An ArkType Type (a callable carrying `~standard` with vendor "arktype"). */
function isArkType(v: unknown): v is Record<string, unknown> {
  return typeof v === 'function' && (v as { '~standard'?: { vendor?: unknown } })['~standard']?.vendor === 'arktype';
}

// Immutable: one instance per major rather than one per `z` read.
const Z4_NS = new ZodNs(ZOD_V4, 4, 'z');
const Z3_NS = new ZodNs(ZOD_V3, 3, 'z');
/** The namespace a zod import is rebuilt with: the workspace's copy of that module when loaded, else the bundled one. */
const workspaceNs = new WeakMap<object, ZodNs>();
/** Every zod namespace object schemas are rebuilt with (the bundled ones, the workspace's, a bundle's inlined copy). */
const zodNamespaces = new WeakSet<object>([ZOD_V4, ZOD_V3]);
function zodNs(major: 3 | 4, module?: string, ctx?: EvalContext): ZodNs {
  const entry: ZodEntry | undefined = module === 'zod' ? 'zod' : module === 'zod/v3' ? 'zod/v3' : module === 'zod/v4' || module === 'zod/v4/classic' ? 'zod/v4' : undefined;
  const obj = entry && ctx?.libraries?.zod(entry);
  if (!obj) return major === 4 ? Z4_NS : Z3_NS;
  let ns = workspaceNs.get(obj);
  if (!ns) {
    workspaceNs.set(obj, (ns = new ZodNs(obj, major, 'z')));
    zodNamespaces.add(obj);
  }
  return ns;
}

/** A binding of a bundle's inlined zod read directly (not through its namespace): unresolved, with why. */
function inlinedZodBinding(decl: ts.Node, declPf: ParsedFile, name: string, at: ts.Node, pf: ParsedFile): void {
  const module = inlinedZodModule(decl, declPf);
  if (module)
    fail(
      `\`${name}\` is a binding of the zod inlined in this bundle (${module.replace(/^(\.\.\/)+/, '')}), read without zod's namespace: the bundler renamed zod's functions, and which one this is cannot be told from the bundle`,
      at,
      pf,
    );
}

/** The zod namespace of a bundle's inlined copy (one ZodNs per namespace object). */
function inlinedNs(obj: Record<string, unknown>): ZodNs {
  let ns = workspaceNs.get(obj);
  if (!ns) {
    workspaceNs.set(obj, (ns = new ZodNs(obj, 4, 'z')));
    zodNamespaces.add(obj);
  }
  return ns;
}

function evalDecl(d: Decl, at: ts.Node, pf: ParsedFile, ctx: EvalContext): unknown {
  switch (d.kind) {
    case 'var': {
      // A loop variable bound to one element of a static array (a registration in `for (const t of TOOLS)`), or a
      // local whose value at a registration the straight-line code before it decides (locals.ts).
      if (ctx.env.has(d.node)) return bound(ctx.env.get(d.node), ctx);
      const list = d.node.parent;
      if (!ts.isVariableDeclarationList(list)) return fail(`\`${d.name}\` is not a const`, at, pf);
      if (!(list.flags & ts.NodeFlags.Const)) {
        // A bundle's inlined zod (`var exports_external = {}; __export(exports_external, {...})`): see inlined-zod.ts.
        const inlined = inlinedZod(d.node, d.pf);
        if (inlined) return inlined.ok ? inlinedNs(inlined.namespace) : fail(inlined.reason, at, pf);
        inlinedZodBinding(d.node, d.pf, d.name, at, pf);
        // A `let`/`var` holds its initializer only if nothing assigns it again (bundlers emit `var` for consts).
        const keyword = list.flags & ts.NodeFlags.Let ? 'let' : 'var';
        if (isReassigned(d.node, d.pf)) return fail(`\`${d.name}\` is a \`${keyword}\` assigned after its declaration (its value is known only at run time)`, at, pf);
        if (pf === d.pf && at.pos < d.node.pos && !insideFunction(at)) return fail(`\`${d.name}\` is read before its \`${keyword}\` declaration runs`, at, pf);
      }
      if (!d.node.initializer) return fail(`\`${d.name}\` has no initializer`, at, pf);
      const changes = literalChanges(d.node, d.pf);
      if (changes.other.length) {
        const first = changes.other[0];
        const line = d.pf.sf.getLineAndCharacterOfPosition(first.getStart(d.pf.sf)).line + 1;
        return fail(`\`${d.name}\` is changed after its declaration (line ${line}: \`${lineText(first, d.pf)}\`): its value is known only at run time`, at, pf);
      }
      const pushedLater = changes.pushes.find((c) => c.pos > at.pos && pf === d.pf && !insideFunction(at));
      if (pushedLater) return fail(`\`${d.name}\` is read here before \`${lineText(pushedLater, d.pf)}\` adds to it`, at, pf);
      const hit = ctx.consts.get(d.node);
      if (hit?.state === 'pending') return fail(`\`${d.name}\` refers to itself (use z.lazy)`, at, pf);
      if (hit?.state === 'done') {
        if (hit.error) throw hit.error;
        ctx.unrepresentable.push(...(hit.unrepr ?? []));
        return hit.value;
      }
      ctx.consts.set(d.node, { state: 'pending' });
      const before = ctx.unrepresentable.length;
      try {
        let value = evaluate(d.node.initializer, d.pf, ctx);
        // `const tools = [...]; tools.push({...})` at the module's top level: the array once the module has loaded.
        if (changes.pushes.length && Array.isArray(value)) value = [...(value as unknown[]), ...changes.pushes.flatMap((c) => evalElements(c.arguments, d.pf, ctx))];
        ctx.consts.set(d.node, { state: 'done', value, unrepr: ctx.unrepresentable.slice(before) });
        return value;
      } catch (err) {
        if (err instanceof Unresolvable) ctx.consts.set(d.node, { state: 'done', error: err });
        else ctx.consts.delete(d.node);
        throw err;
      }
    }
    case 'enum':
      return evalEnum(d.node, d.pf, ctx);
    case 'param': {
      if (ctx.env.has(d.node)) {
        const v = ctx.env.get(d.node);
        if (!(v instanceof Deferred)) return v;
        try {
          return v.value(ctx);
        } catch (err) {
          if (!(err instanceof Unresolvable)) throw err;
          // Say which argument it was: the reason alone names a variable of the caller, not of this code.
          throw new Unresolvable(`\`${d.name}\`, a parameter of ${functionLabel(d.node.parent, d.pf)}, is \`${lineText(v.node, v.pf)}\` at its call: ${err.reason}`, err.span);
        }
      }
      return fail(`\`${d.name}\` is a parameter of ${functionLabel(d.node.parent, d.pf)}: its value is known only at run time`, at, pf);
    }
    case 'function':
      inlinedZodBinding(d.node, d.pf, d.name, at, pf);
      return new FnExpr(d.node, d.pf);
    case 'class':
      return fail(`\`${d.name}\` is a class`, at, pf);
    case 'expr':
      return evaluate(d.node, d.pf, ctx);
    case 'import': {
      const helpers = SDK_HELPERS[d.module];
      if (helpers && Object.prototype.hasOwnProperty.call(helpers, d.imported)) return helpers[d.imported];
      const staticModule = STATIC_MODULES[d.module];
      if (staticModule) {
        const f = Object.prototype.hasOwnProperty.call(staticModule, d.imported) ? staticModule[d.imported] : undefined;
        return f ?? fail(`\`${d.imported}\` of "${d.module}" is not evaluated statically`, at, pf);
      }
      if (Object.prototype.hasOwnProperty.call(VALIBOT_ALLOWED, d.module)) {
        if (d.imported === '*') return new LibNs(d.module);
        return valibotFn(d.module, d.imported, at, pf, ctx);
      }
      if (d.module === ARKTYPE_MODULE) {
        if (d.imported === 'type') return new ZodFn(arktypeExportsLoaded(ctx), 'type', 4, true, 'arktype');
        return fail(`\`${d.imported}\` of arktype is not supported (only \`type(...)\`)`, at, pf);
      }
      const kind = ZOD_MODULES[d.module];
      if (kind !== undefined) {
        if (kind === 'mini') return fail('zod mini (`zod/mini`) schemas are not supported', at, pf);
        const major = kind === 'bare' ? ctx.zodMajorForBareImport(d.pf.file) : kind;
        const ns = zodNs(major, d.module, ctx);
        if (d.imported === '*' || d.imported === 'z' || d.imported === 'default') return ns;
        return getMember(ns, d.imported, at, pf, ctx);
      }
      if (d.imported === '*') {
        const target = ctx.project.loadModule(d.pf.file, d.module);
        if (target) return new ModuleNs(target);
        return fail(`\`${d.name}\` is imported from "${d.module}", which is not a workspace file`, at, pf);
      }
      const resolved = ctx.project.resolveImport(d);
      if (!resolved) return fail(`\`${d.imported}\` is not exported by "${d.module}"`, at, pf);
      if (resolved === d) return fail(`\`${d.name}\` is imported from "${d.module}", which is not a workspace file`, at, pf);
      return evalDecl(resolved, at, pf, ctx);
    }
  }
}

/** What changes an array or object literal a declaration holds after it is created (project.ts `mutationsOf`). */
function literalChanges(decl: ts.VariableDeclaration, pf: ParsedFile): ReturnType<typeof mutationsOf> {
  const init = decl.initializer && skipOuter(decl.initializer);
  return init && (ts.isArrayLiteralExpression(init) || ts.isObjectLiteralExpression(init)) ? mutationsOf(decl, pf) : { pushes: [], other: [] };
}

/** A node's text for a message, on one line and short. */
function lineText(node: ts.Node, pf: ParsedFile): string {
  const t = node.getText(pf.sf).replace(/\s+/g, ' ');
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

/** `process.env` (the global, not a workspace name): what it holds is the server's environment at run time. */
function isProcessEnv(e: ts.Expression, pf: ParsedFile): boolean {
  const x = skipOuter(e);
  return ts.isPropertyAccessExpression(x) && x.name.text === 'env' && ts.isIdentifier(x.expression) && x.expression.text === 'process' && !lookupName('process', x.expression, pf);
}

/** A bound name's value: a deferred argument is evaluated where the caller wrote it; a local known to be unknown says why. */
function bound(v: unknown, ctx: EvalContext): unknown {
  if (v instanceof Unresolvable) throw v;
  return v instanceof Deferred ? v.value(ctx) : v;
}

/**
 * `F._meta` where `F` is a parameter bound to an object literal written at the call (`j(server, "x", { ..., _meta })`):
 * only that property is evaluated, so an unresolved sibling (a schema) does not hide it. The literal must have plain
 * keys only (no spread, no computed key): then the last property of that name is the value, and none is undefined.
 */
function boundLiteralMember(p: ts.PropertyAccessExpression, pf: ParsedFile, ctx: EvalContext): { read(): unknown } | undefined {
  const id = skipOuter(p.expression);
  if (ctx.env.size === 0 || !ts.isIdentifier(id) || p.questionDotToken) return undefined;
  const d = lookupName(id.text, id, pf);
  const bound = d?.kind === 'param' ? ctx.env.get(d.node) : undefined;
  if (!(bound instanceof Deferred)) return undefined;
  const lit = skipOuter(bound.node);
  if (!ts.isObjectLiteralExpression(lit)) return undefined;
  let found: ts.Expression | undefined;
  for (const prop of lit.properties) {
    if (!(ts.isPropertyAssignment(prop) || ts.isShorthandPropertyAssignment(prop) || ts.isMethodDeclaration(prop))) return undefined;
    const name = prop.name;
    if (!(ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name))) return undefined;
    if (name.text !== p.name.text) continue;
    if (ts.isMethodDeclaration(prop)) return undefined; // a function, not a value read here
    found = ts.isPropertyAssignment(prop) ? prop.initializer : prop.name;
  }
  const value = found;
  return {
    read() {
      if (value === undefined) return undefined;
      return evaluate(value, bound.pf, { ...ctx, env: bound.env });
    },
  };
}

/** How a function is named in messages: `Zt`, `register` (a const arrow), else "a function". */
function functionLabel(fn: ts.Node, pf: ParsedFile): string {
  const name = (fn as { name?: ts.Node }).name ?? (ts.isVariableDeclaration(fn.parent) ? fn.parent.name : undefined);
  return name && ts.isIdentifier(name) ? `function \`${name.getText(pf.sf)}\`` : 'a function';
}

function insideFunction(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) if (isFunctionLikeKind(n.kind)) return true;
  return false;
}

function evalIdentifier(node: ts.Identifier, pf: ParsedFile, ctx: EvalContext): unknown {
  const name = node.text;
  if (name === 'undefined') return undefined;
  if (name === 'Infinity') return Infinity;
  if (name === 'NaN') return NaN;
  const d = lookupName(name, node, pf);
  if (!d && Object.prototype.hasOwnProperty.call(STATIC_GLOBALS, name)) return STATIC_GLOBALS[name];
  // A CommonJS module reading its own exports (`exports.GetApiToolArgs`, compiled from a reference to its own export).
  if (!d && name === 'exports' && pf.commonJs) return new ModuleNs(pf);
  if (!d) {
    const destructured = destructuredFrom(name, node, pf);
    if (destructured) return fail(`\`${name}\` is destructured from ${destructured}: its value is known only at run time`, node, pf);
    return fail(`\`${name}\` is not defined in this file`, node, pf);
  }
  return evalDecl(d, node, pf, ctx);
}

/** What a name is destructured from in a scope around `at` (`const { a = 1 } = options`, `function f({ a })`), if it is. */
function destructuredFrom(name: string, at: ts.Node, pf: ParsedFile): string | undefined {
  const binds = (pattern: ts.BindingName): boolean => (ts.isIdentifier(pattern) ? pattern.text === name : pattern.elements.some((e) => !ts.isOmittedExpression(e) && binds(e.name)));
  for (let n: ts.Node | undefined = at.parent; n; n = n.parent) {
    if (isFunctionLikeKind(n.kind)) {
      const p = (n as ts.SignatureDeclaration).parameters.find((x) => !ts.isIdentifier(x.name) && binds(x.name));
      if (p) return `a parameter of ${functionLabel(n, pf)}`;
    }
    if (!ts.isBlock(n) && !ts.isSourceFile(n)) continue;
    for (const st of n.statements) {
      if (!ts.isVariableStatement(st)) continue;
      for (const d of st.declarationList.declarations) if (!ts.isIdentifier(d.name) && d.initializer && binds(d.name)) return `\`${d.initializer.getText(pf.sf)}\``;
    }
  }
  return undefined;
}

function evalEnum(node: ts.EnumDeclaration, pf: ParsedFile, ctx: EvalContext): Record<string, unknown> {
  // Same object TypeScript emits: string members, numeric members plus their reverse mapping.
  const out: Record<string, unknown> = {};
  let next = 0;
  for (const m of node.members) {
    const key = propertyKey(m.name, pf, ctx);
    let value: unknown;
    if (m.initializer) {
      const init = skipOuter(m.initializer);
      if (ts.isIdentifier(init) && Object.prototype.hasOwnProperty.call(out, init.text)) value = out[init.text];
      else value = evaluate(m.initializer, pf, ctx);
    } else value = next;
    if (typeof value === 'number') {
      next = value + 1;
      setKey(out, key, value);
      setKey(out, String(value), key);
    } else if (typeof value === 'string') setKey(out, key, value);
    else fail('enum member is not a static string or number', m, pf);
  }
  return out;
}

function getMember(target: unknown, name: string, node: ts.Node, pf: ParsedFile, ctx: EvalContext): unknown {
  if (target instanceof ZodNs) {
    // `zod_1.z.string()`: CommonJS output reads `z` (or `default`) off the module object, which is the namespace again.
    if (target.path === 'z' && (name === 'z' || name === 'default')) return target;
    if (target.path === 'z' && SUB_NAMESPACES[name]) {
      const sub = target.obj[name];
      if (typeof sub === 'object' && sub) return new ZodNs(sub as Record<string, unknown>, target.major, name);
    }
    const allowed = target.path === 'z' ? NS_COMMON.has(name) || (target.major === 4 && NS_V4_ONLY.has(name)) || UNREPRESENTABLE_NS.has(name) : SUB_NAMESPACES[target.path]?.includes(name);
    if (!allowed || typeof target.obj[name] !== 'function') return fail(`\`${target.path}.${name}\` is not a supported zod ${target.major} function`, node, pf);
    return new ZodFn(target.obj, name, target.major, true, target.path);
  }
  if (target instanceof ModuleNs) {
    const d = ctx.project.resolveExport(target.pf, name);
    if (!d) return fail(`\`${name}\` is not exported by ${target.pf.file}`, node, pf);
    return evalDecl(d, node, pf, ctx);
  }
  if (isZodSchema(target)) {
    if (METHODS.has(name)) {
      const m = (target as Record<string, unknown>)[name];
      if (typeof m === 'function') return new ZodFn(target, name, zodMajorOf(target), false);
    }
    if (SCHEMA_PROPS.has(name)) {
      const v = (target as Record<string, unknown>)[name];
      if (typeof v !== 'function') return v;
    }
    return fail(`\`.${name}\` is not a supported zod ${zodMajorOf(target)} method`, node, pf);
  }
  if (target instanceof LibNs) return valibotFn(target.module, name, node, pf, ctx);
  if (target instanceof Instance) return target.member(name, node, pf, ctx);
  if (isArkType(target)) {
    if (ARKTYPE_METHODS.has(name) && typeof target[name] === 'function') return new ZodFn(target, name, 4, false, 'arktype');
    return fail(`\`.${name}\` is not a supported ArkType method`, node, pf);
  }
  if (Array.isArray(target)) {
    if (name === 'length') return target.length;
    if (name === 'join' || name === 'concat') return new ZodFn(target, name, 4, false);
    if (/^\d+$/.test(name)) return target[Number(name)];
    return fail(`array member \`${name}\` is not evaluated statically`, node, pf);
  }
  if (typeof target === 'string') {
    if (name === 'length') return target.length;
    if (['trim', 'trimStart', 'trimEnd', 'concat', 'toLowerCase', 'toUpperCase'].includes(name)) return new ZodFn(Object(target) as object, name, 4, false);
    return fail(`string member \`${name}\` is not evaluated statically`, node, pf);
  }
  if (Object.values(STATIC_GLOBALS).includes(target as Record<string, StaticFn>)) {
    const members = target as Record<string, StaticFn>;
    if (Object.prototype.hasOwnProperty.call(members, name)) return members[name];
    return fail(`\`${name}\` of a JS global is not evaluated statically`, node, pf);
  }
  if (isPlainObject(target)) {
    if (Object.prototype.hasOwnProperty.call(target, name)) return target[name];
    return undefined;
  }
  return fail(`\`.${name}\` of a value that is not statically known`, node, pf);
}

function fnToValueThunk(fn: FnExpr, ctx: EvalContext): () => unknown {
  const body = fn.node.body;
  const expr = body && (ts.isBlock(body) ? singleReturn(body) : body);
  if (!expr) throw new Unresolvable('function body is not a single returned expression', spanOf(fn.node, fn.pf));
  let cached: { v: unknown } | undefined;
  const snapshot = { ...ctx, depth: 0 };
  return () => {
    cached ??= { v: evaluate(expr, fn.pf, snapshot) };
    return cached.v;
  };
}

function inertFn(): never {
  // Never called: JSON Schema conversion does not run refinements or transforms.
  throw new Error('toolsmith: user function is not evaluated');
}

/** A function or method of zod itself (not of ArkType or Valibot, which share ZodFn). */
function isZodFunctionTarget(callee: ZodFn): boolean {
  return callee.onNamespace ? zodNamespaces.has(callee.target) : isZodSchema(callee.target);
}

function evalCall(node: ts.CallExpression, pf: ParsedFile, ctx: EvalContext): unknown {
  const callee = evaluate(node.expression, pf, ctx);
  if (callee instanceof StaticFn) return evalStaticCall(callee, node, pf, ctx);
  if (callee instanceof FnExpr) return evalHelperCall(callee, node, pf, ctx);
  if (!(callee instanceof ZodFn)) return fail('call of a function that is not an allow-listed zod call', node, pf);
  const target = callee.target;
  const name = callee.name;
  // zod 3 answers isOptional() by parsing undefined, which runs the preprocess function: required or not is its call.
  if (name === 'preprocess' && callee.onNamespace && callee.major === 3)
    return fail('zod 3 decides whether a `z.preprocess(fn, …)` field is required by running `fn` on undefined, and the function is not evaluated: known only at run time', node, pf);
  // Plain JS helpers on static values.
  if (Array.isArray(target) || target instanceof String) {
    const args = node.arguments.map((a) => evaluate(a, pf, ctx));
    if (!args.every((a) => isPrimitive(a) || Array.isArray(a))) return fail('argument is not static', node, pf);
    const base: unknown = target instanceof String ? target.valueOf() : target;
    const fn = (base as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
    return fn.apply(base, args);
  }
  const args: unknown[] = [];
  for (const a of node.arguments) {
    if (ts.isSpreadElement(a)) {
      const v = evaluate(a.expression, pf, ctx);
      if (!Array.isArray(v)) fail('spread argument is not a static array', a, pf);
      args.push(...(v as unknown[]));
      continue;
    }
    if (args.length === 0 && INERT_FIRST_ARG.has(name) && isZodFunctionTarget(callee)) {
      args.push(inertFn);
      continue;
    }
    let v = evaluate(a, pf, ctx);
    if (v instanceof FnExpr) {
      if (name === 'lazy') {
        v = fnToValueThunk(v, ctx);
      } else if (name === 'default' || name === 'prefault' || name === 'catch') {
        const thunk = fnToValueThunk(v, ctx);
        const value = thunk();
        v = () => value;
      } else if (INERT_FN_METHODS.has(name)) {
        v = inertFn;
      } else {
        fail(`a function passed to \`${name}\` is not evaluated`, a, pf);
      }
    } else if (v instanceof ZodNs || v instanceof ZodFn || v instanceof ModuleNs || v instanceof ServerRef || v instanceof LibNs) {
      fail('argument is not a static value or zod schema', a, pf);
    }
    args.push(v);
  }
  if (name === 'meta') {
    const m = args[0];
    // A registry id lives for the whole process and would collide on the next analysis.
    if (isPlainObject(m) && 'id' in m) fail('`.meta({ id })` (registry ids) is not supported', node, pf);
  }
  // zod 3: zod-to-json-schema never throws, it writes something approximate; the constructs it cannot carry are
  // listed from the source. zod 4: listed after conversion, exactly where the SDK's conversion fails (schemaOrigin).
  // `.transform()` is not listed for zod 3: zod-to-json-schema publishes its input side (the SDK's `pipeStrategy:
  // 'input'`), which is exactly what the tool accepts (proven live on @mapbox/mcp-server 0.2.0).
  if (callee.major === 3) {
    if (UNREPRESENTABLE_NS.has(name) && callee.onNamespace && callee.nsPath === 'z') {
      ctx.unrepresentable.push({ construct: constructOf(callee), span: spanOf(node, pf) });
    }
  }
  const fn = (target as Record<string, unknown>)[name];
  if (typeof fn !== 'function') return fail(`\`${name}\` is not a zod function`, node, pf);
  let result: unknown;
  try {
    // Reflect.apply: ArkType functions carry their own `apply` property.
    result = Reflect.apply(fn as (...a: unknown[]) => unknown, target, args);
  } catch (err) {
    if (err instanceof Unresolvable) throw err;
    return fail(`${callee.nsPath === 'arktype' ? 'ArkType' : callee.nsPath === 'valibot' ? 'valibot' : 'zod'} rejected this call: ${err instanceof Error ? err.message : String(err)}`, node, pf);
  }
  if (callee.major === 4 && ctx.origins && typeof result === 'object' && result !== null && '_zod' in result) recordOrigin(ctx.origins, result, callee, node, pf);
  return result;
}

/** Helper functions being evaluated: a helper that calls itself is not followed. */
const helpersInProgress = new Set<ts.Node>();

/**
 * A call of a function of the workspace whose body is one returned expression (`function text() { return
 * z.string().trim() }`, `(d) => z.number().describe(d)`): its parameters are bound to the evaluated arguments and
 * the expression is evaluated like any other, so a schema built by a helper resolves. The function is never run;
 * a body with statements, a rest or destructured parameter, `async` or a generator stays unresolved.
 */
function evalHelperCall(callee: FnExpr, node: ts.CallExpression, pf: ParsedFile, ctx: EvalContext): unknown {
  const fn = callee.node;
  const label = `\`${node.expression.getText(pf.sf)}\``;
  const body = fn.body;
  if (!body) return fail(`call of ${label}, a function declared without a body`, node, pf);
  const straight = ts.isBlock(body) ? straightLine(body) : { locals: [], expr: body };
  if (!straight) return fail(`call of ${label}, a function whose body is not one returned expression (Toolsmith does not run functions)`, node, pf);
  if (fn.asteriskToken || ts.getModifiers(fn)?.some((m) => m.kind === SK.AsyncKeyword)) return fail(`call of ${label}, an async or generator function`, node, pf);
  if (helpersInProgress.has(fn)) return fail(`call of ${label} from inside itself (recursion is not followed)`, node, pf);
  const bound: [ts.Node, unknown][] = [];
  fn.parameters.forEach((p, i) => {
    if (!ts.isIdentifier(p.name) || p.dotDotDotToken) fail(`parameter \`${p.name.getText(callee.pf.sf)}\` of ${label} is not a plain name`, p, callee.pf);
    const a = node.arguments[i];
    if (a && ts.isSpreadElement(a)) fail('spread argument of a helper call', a, pf);
    let v = a ? evaluate(a, pf, ctx) : undefined;
    if (v === undefined && p.initializer) v = evaluate(p.initializer, callee.pf, ctx);
    bound.push([p, v]);
  });
  // A method read off an instance: `this` in its body is that instance.
  if (callee.thisValue && fn.parent && ts.isClassLike(fn.parent)) bound.push([fn.parent, callee.thisValue]);
  const saved = bound.map(([p]) => [p, ctx.env.has(p), ctx.env.get(p)] as const);
  // The body's own consts hold this call's values: none kept from another call, none left for the next.
  const cached = straight.locals.map((d) => [d, ctx.consts.get(d)] as const);
  for (const d of straight.locals) ctx.consts.delete(d);
  helpersInProgress.add(fn);
  for (const [p, v] of bound) ctx.env.set(p, v);
  try {
    return evaluate(straight.expr, callee.pf, ctx);
  } finally {
    helpersInProgress.delete(fn);
    for (const [p, had, v] of saved) {
      if (had) ctx.env.set(p, v);
      else ctx.env.delete(p);
    }
    for (const [d, hit] of cached) {
      if (hit) ctx.consts.set(d, hit);
      else ctx.consts.delete(d);
    }
  }
}

/**
 * A body that is only `const` declarations and then one `return` (`const root = defs[name]; return { ...root }`):
 * read as the returned expression, its consts evaluated when it reads them. Anything else (a branch, a loop, a call
 * statement, a `let`) is code Toolsmith does not run.
 */
function straightLine(body: ts.Block): { locals: ts.VariableDeclaration[]; expr: ts.Expression } | undefined {
  const st = body.statements;
  const last = st[st.length - 1];
  if (!last || !ts.isReturnStatement(last) || !last.expression) return undefined;
  const locals: ts.VariableDeclaration[] = [];
  for (const s of st.slice(0, -1)) {
    if (!ts.isVariableStatement(s) || !(s.declarationList.flags & ts.NodeFlags.Const)) return undefined;
    for (const d of s.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer) return undefined;
      locals.push(d);
    }
  }
  return { locals, expr: last.expression };
}

function evalStaticCall(callee: StaticFn, node: ts.CallExpression, pf: ParsedFile, ctx: EvalContext): unknown {
  const args = node.arguments.slice(0, callee.arity).map((a) => {
    if (ts.isSpreadElement(a)) return fail('spread argument', a, pf);
    let v = evaluate(a, pf, ctx);
    // `Object.values(Charts)` of `import * as Charts` (or a CommonJS `require`): the module's exports as an object.
    if (v instanceof ModuleNs && OBJECT_READERS.has(callee)) v = moduleObject(v, a, pf, ctx);
    if (v instanceof FnExpr || v instanceof ZodNs || v instanceof ZodFn || v instanceof ModuleNs || v instanceof ServerRef || v instanceof StaticFn)
      fail(`argument of \`${callee.name}\` is not a static value`, a, pf);
    if (typeof v !== 'object' || v === null) fail(`argument of \`${callee.name}\` is not a static object`, a, pf);
    return v;
  });
  try {
    return callee.fn(...args);
  } catch (err) {
    if (err instanceof Unresolvable) throw err;
    return fail(`\`${callee.name}\` failed on these arguments: ${err instanceof Error ? err.message : String(err)}`, node, pf);
  }
}

/** How a construct is named in messages: `z.date()`, `z.iso.date()`, `.transform()`. */
function constructOf(callee: ZodFn): string {
  return callee.onNamespace ? `${callee.nsPath === 'z' ? 'z' : `z.${callee.nsPath}`}.${callee.name}()` : `.${callee.name}()`;
}

// ---- where a zod 4 schema was written ---------------------------------------------------------------------------

type Zod4Internals = { _zod?: { def?: { type?: string; in?: object; out?: object; innerType?: object }; parent?: object } };
/** The call that built each zod 4 schema instance (the innermost one: `.optional()` does not hide `z.date()`). */
interface Origin {
  /** The function called; its construct name is only spelled out for the rare schema that fails to convert. */
  callee: ZodFn;
  node: ts.Node;
  pf: ParsedFile;
}

/** A Map per analysis rather than a module WeakMap: zod schemas live as long as the analysis, and Map is cheaper. */
function recordOrigin(origins: Map<object, Origin>, schema: object, callee: ZodFn, node: ts.Node, pf: ParsedFile): void {
  if (origins.has(schema)) return;
  // The span and name are computed only for the rare schema that fails to convert.
  const origin: Origin = { callee, node, pf };
  origins.set(schema, origin);
  // `.transform(f)` is pipe(this, transform(f)): the transform instance zod built inside belongs to this call.
  const def = (schema as Zod4Internals)._zod?.def;
  if (def?.type === 'pipe') {
    for (const part of [def.in, def.out]) if (part && !origins.has(part)) origins.set(part, origin);
  }
}

/**
 * Where a zod 4 schema instance met during conversion was written: the call that first built it, following clones
 * back to their original (`z.date().describe("x")` is a clone made by `.describe()`; the construct is `z.date()`).
 */
export function schemaOrigin(origins: Map<object, Origin> | undefined, schema: object): { construct: string; span: Span } | undefined {
  if (!origins) return undefined;
  let found: Origin | undefined;
  let s: object | undefined = schema;
  for (let i = 0; s && i < 50; i++) {
    found = origins.get(s) ?? found;
    s = (s as Zod4Internals)._zod?.parent;
  }
  return found && { construct: constructOf(found.callee), span: spanOf(found.node, found.pf) };
}

/** The span of the literal a value comes from: follows identifiers to their const initializer (across files). */
export function literalSpan(node: ts.Expression, pf: ParsedFile, project: Project, depth = 0): Span {
  const n = skipOuter(node);
  if (depth < 10 && ts.isIdentifier(n)) {
    let d = lookupName(n.text, n, pf);
    if (d?.kind === 'import') d = project.resolveImport(d);
    if (d?.kind === 'var' && d.node.initializer) return literalSpan(d.node.initializer, d.pf, project, depth + 1);
  }
  if (depth < 10 && ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression)) {
    let d = lookupName(n.expression.text, n.expression, pf);
    if (d?.kind === 'import' && d.imported === '*') {
      const target = project.loadModule(d.pf.file, d.module);
      const e = target && project.resolveExport(target, n.name.text);
      if (e?.kind === 'var' && e.node.initializer) return literalSpan(e.node.initializer, e.pf, project, depth + 1);
    } else {
      if (d?.kind === 'import') d = project.resolveImport(d);
      if (d?.kind === 'var' && d.node.initializer && ts.isObjectLiteralExpression(skipOuter(d.node.initializer))) {
        const obj = skipOuter(d.node.initializer) as ts.ObjectLiteralExpression;
        for (const p of obj.properties) {
          if (ts.isPropertyAssignment(p) && p.name.getText(d.pf.sf) === n.name.text) return literalSpan(p.initializer, d.pf, project, depth + 1);
        }
      }
    }
  }
  return spanOf(n, pf);
}

/**
 * A text fingerprint of an expression and of every declaration it depends on (consts, enums, imports — across
 * files), or undefined when it depends on something positional or dynamic (a parameter, a function). Two
 * expressions with the same fingerprint evaluate to the same value, so converted schemas can be reused between
 * analyses (an edit elsewhere in the file does not rebuild every schema).
 */
export function fingerprint(node: ts.Node, pf: ParsedFile, ctx: EvalContext, seen = new Set<ts.Node>()): string | undefined {
  const parts: string[] = [node.getText(pf.sf)];
  let ok = true;
  const visit = (n: ts.Node): void => {
    if (!ok) return;
    if (n.kind === SK.PropertyAccessExpression) {
      visit((n as ts.PropertyAccessExpression).expression);
      return;
    }
    if (n.kind === SK.PropertyAssignment) {
      const a = n as ts.PropertyAssignment;
      if (a.name.kind === SK.ComputedPropertyName) visit(a.name);
      visit(a.initializer);
      return;
    }
    if (n.kind === SK.Identifier) {
      const name = (n as ts.Identifier).text;
      if (name === 'undefined' || name === 'Infinity' || name === 'NaN') return;
      // Names bound inside the expression (arrow parameters of z.lazy / refine) resolve to those parameters.
      let d = lookupName(name, n, pf);
      if (!d) {
        ok = false;
        return;
      }
      if (d.kind === 'param' && isWithin(d.node, node)) return;
      if (d.kind === 'import') {
        if (d.module === ARKTYPE_MODULE || Object.prototype.hasOwnProperty.call(VALIBOT_ALLOWED, d.module)) {
          parts.push(`${name}=${d.module}:${d.imported}`);
          return;
        }
        const kind = ZOD_MODULES[d.module];
        if (kind !== undefined) {
          parts.push(`${name}=zod:${kind === 'bare' ? ctx.zodMajorForBareImport(d.pf.file) : kind}:${d.imported}`);
          return;
        }
        if (d.imported === '*') {
          const target = ctx.project.loadModule(d.pf.file, d.module);
          if (!target) {
            ok = false;
            return;
          }
          parts.push(`${name}=ns:${target.file}:${target.text.length}:${hashText(target.text)}`);
          return;
        }
        const r = ctx.project.resolveImport(d);
        if (!r || r === d) {
          ok = false;
          return;
        }
        d = r;
      }
      const declNode = d.kind === 'var' ? d.node : d.kind === 'enum' ? d.node : d.kind === 'expr' ? d.node : undefined;
      // A name bound for one loop iteration has a different value each time: never a cache key.
      if (!declNode || (d.kind === 'var' && !(d.node.parent.flags & ts.NodeFlags.Const)) || ctx.env.has(declNode) || (d.kind === 'param' && ctx.env.has(d.node))) {
        ok = false;
        return;
      }
      if (seen.has(declNode)) {
        parts.push(`${name}=<cycle>`);
        return;
      }
      seen.add(declNode);
      const memo = ctx.fingerprints;
      let fp: string | undefined;
      if (memo?.has(declNode)) fp = memo.get(declNode);
      else {
        fp = fingerprint(declNode, d.pf, ctx, seen);
        // Only a result that did not depend on what was being fingerprinted around it is reusable.
        if (memo && (fp === undefined || !fp.includes('=<cycle>'))) memo.set(declNode, fp);
      }
      if (fp === undefined) ok = false;
      else parts.push(`${name}=${d.pf.file}{${fp}}`);
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return ok ? parts.join('\u0000') : undefined;
}

function isWithin(inner: ts.Node, outer: ts.Node): boolean {
  return inner.pos >= outer.pos && inner.end <= outer.end;
}

function hashText(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

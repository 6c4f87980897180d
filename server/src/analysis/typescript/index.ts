/**
 * TypeScript / JavaScript front-end: @modelcontextprotocol/sdk `registerTool(name, config, handler)` and the
 * deprecated `tool(...)` overloads -> ToolDefinition[] with the exact tools/list contract and source spans.
 *
 * Registrations are collected in the order the server would run them: top-level statements first, following calls
 * into helpers (`registerUserTools(server)`, in this file or imported) so that the contract of an entry file lists
 * the same tools in the same order as the live server. Registrations no call reaches are added afterwards.
 */
import ts from './ts';
import type {
  AnalysisResult,
  AnnotationEntry,
  FileFacts,
  FileHost,
  ModuleGraphFacts,
  JsonSchema,
  JsonValue,
  Located,
  PromptDefinition,
  ResourceDefinition,
  ResourceMetadataEntry,
  Span,
  ToolDefinition,
  Unresolved,
} from '../model';
import { buildTsPromptContract } from '../../contract/typescript/prompts';
import { buildTsResourceContract, registryOrder, V2_RESOURCE_CONFIG_ONLY } from '../../contract/typescript/resources';
import { buildTsContract, ConvertedSchema, unrepresentableSchemas, type TsBuildTarget, type TsContractBuilder, type TsContractResult } from '../../contract/typescript';
import type { V2BuildTarget } from '../../contract/typescript/v2';
import { bundledLibraries, librariesFor, librariesForV2 } from '../../contract/typescript/libraries';
import { Deferred, evaluate, evaluateDetached, fingerprint, FnExpr, Instance, literalSpan, schemaOrigin, ServerRef, Unresolvable, type EvalContext } from './evaluate';
import { handlerFacts, resolveHandler } from './handler';
import { listHandlerTools } from './lowlevel';
import { listHandlerSurfaces, type ListSurface } from './lowlevel-surfaces';
import { joinGuards, registrationGuard } from './conditions';
import { parametersOf } from './params';
import { localsAt } from './locals';
import { inLibraryModule, inlinedCopyOf, inlinedPackagePath, libraryStatements } from './bundles';
import { lookupName, parseFile, Project, registrationKind, skipOuter, spanOf, type ParsedFile } from './project';
import { workspaceVersions, type WorkspaceVersions } from './workspace';
import {
  FRAMEWORKS,
  frameworkOfModule,
  toolHelperCaveat,
  type Framework,
  type FrameworkProfile,
  type ResourceHelper,
  type ToolHelper,
  type TsContractTraits,
  UNMODELLED_TS_SERVER_PACKAGES,
  unmodelledServerPackage,
} from '../../../../common/frameworks';

const MAX_CALL_DEPTH = 8;

interface Site {
  call: ts.CallExpression;
  pf: ParsedFile;
  /**
   * `toolHelper` / `resourceHelper`: a package function registering a tool or a resource on the server it is given
   * first (`registerAppTool(server, name, config, cb)`, `registerAppResource(server, name, uri, config, cb)`).
   */
  kind: 'registerTool' | 'registerToolTask' | 'tool' | 'listTools' | ListSiteKind | 'registerPrompt' | 'prompt' | 'registerResource' | 'resource' | 'toolHelper' | 'resourceHelper';
  server: ServerRef;
  /**
   * Inside a loop over a static array: the loop variable (or forEach parameter) bound to this iteration's element.
   * Inside a function followed from a call whose arguments the registration reads: its parameters bound to them.
   */
  bindings?: Map<ts.Node, unknown>;
  /** The call into the helper that registers (`j(server, "show-map", {...})`): where the tool is registered from. */
  via?: { call: ts.CallExpression; pf: ParsedFile };
}
/** A low-level Server's prompts, resources or resource templates list handler (lowlevel-surfaces.ts), by the list it answers. */
const LIST_SITES = { listPrompts: 'prompts', listResources: 'resources', listResourceTemplates: 'resourceTemplates' } as const satisfies Record<string, ListSurface>;
type ListSiteKind = keyof typeof LIST_SITES;
const isListSite = (kind: Site['kind']): kind is ListSiteKind => Object.hasOwn(LIST_SITES, kind);

/** A site that registers a tool (the others register prompts and resources). */
type ToolSite = Site & { kind: 'registerTool' | 'registerToolTask' | 'tool' | 'listTools' | 'toolHelper' };

function serverInfoName(expr: ts.NewExpression, pf: ParsedFile, ctx: EvalContext): string | undefined {
  const a0 = expr.arguments?.[0];
  if (!a0) return undefined;
  try {
    const v = evaluateDetached(a0, pf, ctx);
    if (v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string') return (v as { name: string }).name;
  } catch {
    /* a server name we cannot read statically is simply unknown */
  }
  return undefined;
}

/** The SDK whose class `new X(...)` constructs: the module `X` (or `ns` of `ns.X`) is imported from. */
function constructedFramework(expr: ts.NewExpression, pf: ParsedFile): Framework | undefined {
  const callee = skipOuter(expr.expression);
  const local = ts.isIdentifier(callee) ? callee : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) ? callee.expression : undefined;
  if (!local) return undefined;
  const d = lookupName(local.text, expr, pf);
  if (d?.kind === 'import') return frameworkOfModule(d.module);
  // A bundle: the class is declared in the module of the SDK it inlines (`// node_modules/@modelcontextprotocol/server/...`).
  if (d?.kind === 'class' || d?.kind === 'var') {
    const inlined = inlinedPackagePath(d.node, d.pf);
    return inlined ? frameworkOfModule(inlined) : undefined;
  }
  return undefined;
}

/** The SDK a file imports (`import { McpServer } from "@modelcontextprotocol/server"`, type-only imports too), if one. */
function importedFramework(pf: ParsedFile): Framework | undefined {
  for (const st of pf.sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier)) continue;
    const f = frameworkOfModule(st.moduleSpecifier.text);
    if (f) return f;
  }
  return undefined;
}

/**
 * The SDK a registration is predicted for: the one its server was constructed from, else the one the registering
 * file imports, else the one the workspace installs (so v1 and v2 servers in one monorepo each get their own).
 */
function frameworkOfSite(site: Site, versions: WorkspaceVersions): Framework {
  return site.server.framework ?? importedFramework(site.pf) ?? versions.defaultFramework;
}

/** Which server instance an expression denotes (`server`, an imported `server`, a helper parameter, `this.server`). */
function serverOf(expr0: ts.Expression, pf: ParsedFile, ctx: EvalContext, depth = 0): ServerRef {
  const expr = skipOuter(expr0);
  // `server.experimental.tasks` (registerToolTask) registers on `server`.
  if (ts.isPropertyAccessExpression(expr) && expr.name.text === 'tasks' && ts.isPropertyAccessExpression(expr.expression) && expr.expression.name.text === 'experimental')
    return serverOf(expr.expression.expression, pf, ctx, depth + 1);
  if (ts.isIdentifier(expr) && depth < 10) {
    let d = lookupName(expr.text, expr, pf);
    if (d?.kind === 'import') d = ctx.project.resolveImport(d) ?? d;
    if (d?.kind === 'param') {
      const bound = ctx.env.get(d.node);
      if (bound instanceof ServerRef) return bound;
      const fn = d.node.parent;
      const fnName = fn && (ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) && fn.name ? fn.name.text : 'fn';
      return new ServerRef(`${d.pf.file}#${fnName}(${d.name})`, d.name, spanOf(d.node, d.pf), undefined);
    }
    if (d?.kind === 'var') {
      const init = d.node.initializer && skipOuter(d.node.initializer);
      if (init && ts.isIdentifier(init)) return serverOf(init, d.pf, ctx, depth + 1);
      const isNew = init && ts.isNewExpression(init);
      const name = isNew ? serverInfoName(init, d.pf, ctx) : undefined;
      const framework = isNew ? constructedFramework(init, d.pf) : undefined;
      return new ServerRef(`${d.pf.file}#${d.name}@${d.node.getStart(d.pf.sf)}`, d.name, spanOf(d.node, d.pf), name, framework);
    }
    if (d?.kind === 'import') return new ServerRef(`${d.module}#${d.imported}`, expr.text, spanOf(d.node, d.pf), undefined);
  }
  const text = expr.getText(pf.sf);
  // `mcpServer.server`: the low-level Server inside an McpServer, named after it (a handler set on it is that server's).
  if (ts.isPropertyAccessExpression(expr) && expr.name.text === INNER_SERVER && expr.expression.kind !== ts.SyntaxKind.ThisKeyword && depth < 10) {
    const outer = serverOf(expr.expression, pf, ctx, depth + 1);
    return new ServerRef(`${outer.id}.${INNER_SERVER}`, text, spanOf(expr, pf), undefined);
  }
  return new ServerRef(`${pf.file}#${text}`, text, spanOf(expr, pf), undefined);
}

/** The McpServer property holding its low-level `Server`. */
const INNER_SERVER = 'server';

/**
 * `handlers.set("tools/list", fn)` where `handlers` is a server's `_requestHandlers` (the SDK's private map, directly
 * or through a const): the server's own tools/list handler replaced. The server it belongs to, if so.
 */
function replacedListHandler(call: ts.CallExpression, pf: ParsedFile, ctx: EvalContext): ServerRef | undefined {
  const callee = skipOuter(call.expression);
  const key = call.arguments[0] && skipOuter(call.arguments[0]);
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'set' || !key || !ts.isStringLiteralLike(key) || key.text !== 'tools/list') return undefined;
  let map = skipOuter(callee.expression);
  if (ts.isIdentifier(map)) {
    const d = lookupName(map.text, map, pf);
    if (d?.kind !== 'var' || !d.node.initializer) return undefined;
    map = skipOuter(d.node.initializer);
  }
  if (!ts.isPropertyAccessExpression(map) || map.name.text !== '_requestHandlers') return undefined;
  return serverOf(map.expression, pf, ctx);
}

/**
 * What a followed call binds its callee's parameters to. `servers`: a server instance where the argument is a name
 * or member (`server`, `this.server`), read by `serverOf`. `values`: each argument as a value, evaluated only if the
 * callee's code reads it (`tool("name", "Title", ...)` calling `server.registerTool(name, ...)`), in the caller's
 * bindings.
 */
function callBindings(
  fn: ts.SignatureDeclaration,
  args: readonly ts.Expression[],
  pf: ParsedFile,
  ctx: EvalContext,
  scope: Map<ts.Node, unknown>,
): { servers: Map<ts.Node, unknown>; values: Map<ts.Node, unknown> } {
  const servers = new Map<ts.Node, unknown>();
  const values = new Map<ts.Node, unknown>();
  let env: Map<ts.Node, unknown> | undefined;
  const bindEnv = () => (env ??= scope.size ? new Map([...ctx.env, ...scope]) : new Map(ctx.env));
  const callbacks: [ts.ParameterDeclaration, ts.Expression][] = [];
  for (let i = 0; i < fn.parameters.length && i < args.length; i++) {
    const p = fn.parameters[i];
    const a = args[i];
    if (ts.isSpreadElement(a)) break; // the arguments from here on are not at their parameters' positions
    if (!ts.isIdentifier(p.name) || p.dotDotDotToken) continue;
    const e = skipComma(a);
    if (ts.isIdentifier(e) || e.kind === ts.SyntaxKind.ThisKeyword || ts.isPropertyAccessExpression(e)) servers.set(p, serverOf(e, pf, ctx));
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) callbacks.push([p, a]);
    else if (e.kind !== ts.SyntaxKind.ThisKeyword && !ts.isClassExpression(e)) values.set(p, new Deferred(a, pf, bindEnv()));
  }
  // A function passed with the tool's other parts (`j(server, "show-map", {...}, async () => ...)`) is its handler:
  // bound too, so the handler's facts are read off the function written at the call. Alone, it binds nothing (a
  // callback handed to a function is not one tool per call).
  if (values.size) for (const [p, a] of callbacks) values.set(p, new Deferred(a, pf, bindEnv()));
  return { servers, values };
}

/** `(0, utils_1.helper)`: TypeScript's CommonJS output calls imported functions through a comma expression. */
function skipComma(e: ts.Expression): ts.Expression {
  let x = skipOuter(e);
  while (ts.isBinaryExpression(x) && x.operatorToken.kind === ts.SyntaxKind.CommaToken && ts.isLiteralExpression(skipOuter(x.left))) x = skipOuter(x.right);
  return x;
}

/**
 * Whether a registration reads an argument of the call it was followed from (a parameter bound to that call's
 * argument, directly or through the locals of its function): then it is located at that call (`j(server, "x", {...})`).
 */
function readsCallArguments(call: ts.CallExpression, pf: ParsedFile, scope: Map<ts.Node, unknown>): boolean {
  const visited = new Set<ts.Node>();
  const reads = (n: ts.Node): boolean => {
    if (ts.isIdentifier(n)) {
      const d = lookupName(n.text, n, pf);
      if (d?.kind === 'param') return scope.get(d.node) instanceof Deferred;
      if (d?.kind === 'var' && d.pf === pf && !visited.has(d.node) && insideFunction(d.node)) {
        visited.add(d.node);
        if (d.node.initializer && reads(d.node.initializer)) return true;
      }
      return false;
    }
    return ts.forEachChild(n, reads) ?? false;
  };
  return call.arguments.some(reads);
}

function insideFunction(node: ts.Node): boolean {
  for (let n = node.parent; n; n = n.parent) if (ts.isFunctionLike(n)) return true;
  return false;
}

/** The function a call invokes, when it is one we can follow (a local or imported function or const arrow, or a static object's method). */
function calledFunction(call: ts.CallExpression, pf: ParsedFile, ctx: EvalContext, scope: Map<ts.Node, unknown>): Callee | undefined {
  let callee = skipComma(call.expression);
  let file = pf;
  for (let i = 0; i < 6; i++) {
    if (ts.isArrowFunction(callee) || ts.isFunctionExpression(callee)) return { fn: callee, pf: file };
    if (ts.isIdentifier(callee)) {
      let d = lookupName(callee.text, callee, file);
      if (d?.kind === 'import') {
        const r = ctx.project.resolveImport(d);
        if (!r || r === d) return undefined;
        d = r;
      }
      if (d?.kind === 'function' && d.node.body) return { fn: d.node, pf: d.pf };
      if (d?.kind === 'param') {
        // A function handed in by the followed call (`startStdioServer(createServer)` -> `createServer2()`): the
        // function that call passed, resolved where it was written.
        const bound = scope.get(d.node);
        if (bound instanceof FnExpr && bound.node.body) return { fn: bound.node, pf: bound.pf };
        if (!(bound instanceof Deferred)) return undefined;
        callee = skipComma(bound.node);
        file = bound.pf;
        continue;
      }
      if (d?.kind === 'var' && d.node.initializer) {
        const init = skipOuter(d.node.initializer);
        if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return { fn: init, pf: d.pf };
        callee = init;
        file = d.pf;
        continue;
      }
      return undefined;
    }
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
      // `tools.register(server)` with `import * as tools from "./tools.js"`
      const d = lookupName(callee.expression.text, callee.expression, file);
      if (d?.kind === 'import' && d.imported === '*') {
        const target = ctx.project.loadModule(d.pf.file, d.module);
        const e = target && ctx.project.resolveExport(target, callee.name.text);
        if (e?.kind === 'function' && e.node.body) return { fn: e.node, pf: e.pf };
        if (e?.kind === 'var' && e.node.initializer) {
          const init = skipOuter(e.node.initializer);
          if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return { fn: init, pf: e.pf };
        }
      }
    }
    // `tool.register(server)` on a loop element, `api.default.registerTools(server)`, `new MatrixTool().installTo(server)`:
    // a function or method of a static object (an instance of a workspace class included).
    if (ts.isPropertyAccessExpression(callee)) return staticMethod(callee, file, ctx, scope);
    return undefined;
  }
  return undefined;
}

/**
 * The package function a helper-shaped call invokes (`registerAppTool` / `registerAppResource` imported from ext-apps),
 * found in the framework table's list `listOf` reads, if it is one.
 */
function packageHelperOf<H extends ToolHelper | ResourceHelper>(call: ts.CallExpression, pf: ParsedFile, listOf: (f: FrameworkProfile) => readonly H[] | undefined): H | undefined {
  const callee = skipOuter(call.expression);
  const local = ts.isIdentifier(callee) ? callee : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) ? callee.expression : undefined;
  if (!local) return undefined;
  const d = lookupName(local.text, local, pf);
  if (d?.kind !== 'import') return undefined;
  const name = ts.isIdentifier(callee) ? d.imported : d.imported === '*' ? (callee as ts.PropertyAccessExpression).name.text : undefined;
  for (const f of Object.values(FRAMEWORKS)) {
    const helper = listOf(f)?.find((h) => h.name === name && h.modules.includes(d.module));
    if (helper) return helper;
  }
  return undefined;
}

const toolHelperOf = (call: ts.CallExpression, pf: ParsedFile): ToolHelper | undefined => packageHelperOf(call, pf, (f) => f.toolHelpers);
const resourceHelperOf = (call: ts.CallExpression, pf: ParsedFile): ResourceHelper | undefined => packageHelperOf(call, pf, (f) => f.resourceHelpers);

/** The expression a registration's server is: the receiver of `x.registerTool(...)`, the first argument of a helper. */
function receiverOf(call: ts.CallExpression, kind: Site['kind']): ts.Expression {
  return kind === 'toolHelper' || kind === 'resourceHelper' ? call.arguments[0] : (call.expression as ts.PropertyAccessExpression).expression;
}

/** Whether `call` registers something: a method of a server, or a tool helper imported from its package. */
function registrationOf(call: ts.CallExpression, pf: ParsedFile): Site['kind'] | undefined {
  const kind = registrationKind(call);
  if (kind === 'toolHelper') return toolHelperOf(call, pf) ? kind : undefined;
  if (kind === 'resourceHelper') return resourceHelperOf(call, pf) ? kind : undefined;
  return kind && ts.isPropertyAccessExpression(call.expression) ? kind : undefined;
}

/** A function a call runs; a method read off an instance carries the instance its `this` is. */
interface Callee {
  fn: ts.FunctionLikeDeclaration;
  pf: ParsedFile;
  thisValue?: Instance;
}

/** A member read off a statically known object that is a function of the workspace (never run: only its body is walked). */
function staticMethod(callee: ts.PropertyAccessExpression, pf: ParsedFile, ctx: EvalContext, scope: Map<ts.Node, unknown>): Callee | undefined {
  if (BUILTIN_METHODS.has(callee.name.text) || !staticReceiver(callee.expression, pf, ctx, scope)) return undefined;
  try {
    const v = evaluateDetached(callee, pf, scope.size ? { ...ctx, env: new Map([...ctx.env, ...scope]), consts: new BoundConsts(ctx.consts) } : ctx);
    if (v instanceof FnExpr && v.node.body) return { fn: v.node, pf: v.pf, thisValue: v.thisValue };
  } catch {
    /* not a static object: the call is not followed */
  }
  return undefined;
}

// prettier-ignore
/** Methods of JS's own arrays, promises and functions: never a workspace function to follow. */
const BUILTIN_METHODS = new Set(['map', 'filter', 'forEach', 'reduce', 'some', 'every', 'find', 'findIndex', 'includes', 'indexOf', 'join', 'push', 'pop', 'shift', 'unshift', 'splice', 'slice', 'concat', 'sort', 'flat', 'flatMap', 'keys', 'values', 'entries', 'then', 'catch', 'finally', 'bind', 'call', 'apply', 'toString', 'hasOwnProperty', 'log', 'error', 'warn', 'info', 'debug', 'on', 'once', 'emit', 'connect', 'close', 'setRequestHandler', 'setNotificationHandler']);

/**
 * Whether the object a method is read off may be known statically, judged from its root name without evaluating
 * it: a loop element or bound argument, an import, `this` of a bound method, `new C()`, a const holding an object
 * literal or an instance. A const holding a call's result or an array is not (evaluating it would cost, to fail).
 */
function staticReceiver(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext, scope: Map<ts.Node, unknown>): boolean {
  let e = skipComma(expr);
  while (ts.isPropertyAccessExpression(e)) e = skipComma(e.expression);
  if (ts.isNewExpression(e)) return true;
  if (e.kind === ts.SyntaxKind.ThisKeyword) return [...scope.keys()].some((k) => ts.isClassLike(k));
  if (!ts.isIdentifier(e)) return false;
  const d = lookupName(e.text, e, pf);
  if (!d) return false;
  if (d.kind === 'import') return true;
  if (d.kind === 'param') return scope.has(d.node) || ctx.env.has(d.node);
  if (d.kind !== 'var') return false;
  if (scope.has(d.node) || ctx.env.has(d.node)) return true;
  const init = d.node.initializer && skipOuter(d.node.initializer);
  const dynamicImport = (x: ts.Expression) =>
    ts.isAwaitExpression(x) && ts.isCallExpression(skipOuter(x.expression)) && (skipOuter(x.expression) as ts.CallExpression).expression.kind === ts.SyntaxKind.ImportKeyword;
  return !!init && (ts.isObjectLiteralExpression(init) || ts.isNewExpression(init) || ts.isIdentifier(init) || ts.isPropertyAccessExpression(init) || dynamicImport(init));
}

/**
 * What a whole-server analysis (`analyzeTypeScript(..., { wholeServer: true })`) gathers besides the sites: the modules
 * it ran, in the order the runtime runs them, the imports it could not follow, and the servers those modules construct.
 */
type ModuleGraph = ModuleGraphFacts;

/** Module specifiers that name no code (`import data from "./x.json"`, a stylesheet): nothing to follow, nothing missed. */
const NOT_CODE = /\.(json|css|scss|less|svg|png|jpe?g|gif|wasm|node|txt|md|html)$/i;
/** How deep a chain of imports the whole-server analysis follows (each level nests the walk once more on the stack). */
const MAX_MODULE_DEPTH = 64;

/** `import("m")` (the callee is the `import` keyword) or a CommonJS `require("m")`. */
function moduleLoadCall(node: ts.CallExpression): 'import' | 'require' | undefined {
  if (node.expression.kind === ts.SyntaxKind.ImportKeyword) return 'import';
  if (ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1) return 'require';
  return undefined;
}

/** A function that the code hands to a call (`program.action(async () => ...)`, `serveStdio(() => build())`) or stores as a handler (`server.oninitialized = ...`): it may run. */
function isCallback(node: ts.Node): node is ts.ArrowFunction | ts.FunctionExpression {
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return false;
  let parent = node.parent;
  while (parent && ts.isParenthesizedExpression(parent)) parent = parent.parent;
  if (!parent) return false;
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) return parent.expression !== node;
  return ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === node;
}

function collectSites(entry: ParsedFile, ctx: EvalContext, emit: (site: Site) => void, onReplacedList: (server: ServerRef, span: Span) => void, graph?: ModuleGraph): void {
  const seen = new Set<ts.Node>();
  /** Whole-server mode: callbacks already walked (each runs its body once here, however often the code hands it on). */
  const walkedCallbacks = new Set<ts.Node>();
  /** Whole-server mode: the server bindings each function was walked with. */
  const walkedWith = new Map<ts.Node, Set<string>>();
  /** Whole-server mode: the import depth of the module being run (a dynamic import inside it goes one deeper). */
  let moduleDepth = 0;
  const active = new Set<ts.Node>();
  /** Functions whose bodies a followed call walked (the pass over what nothing calls skips them). */
  const followed = new Set<ts.Node>();
  /**
   * Names bound for one run of a body: a loop variable to this iteration's element, a followed function's parameters
   * to this call's arguments. A registration walked with bindings is one tool per run (a site per iteration / call).
   */
  const scope = new Map<ts.Node, unknown>();
  /** The innermost call followed down to here: a registration reading its arguments is located at it. */
  let via: Site['via'];
  /** `for (const t of TOOLS)` / `TOOLS.forEach((t) => ...)` over a static array: the body once per element. */
  const unrolled = (binding: ts.Node, items: unknown, body: ts.Node, pf: ParsedFile, depth: number): boolean => {
    if (!Array.isArray(items) || items.length === 0 || items.length > 500) return false;
    scope.set(binding, items[0]);
    if (!reachesRegistration(body, pf)) {
      scope.delete(binding);
      return false;
    }
    for (const item of items) {
      scope.set(binding, item);
      walk(body, pf, depth);
    }
    scope.delete(binding);
    return true;
  };
  /** Whether a body registers, directly or through a call it makes that can be followed (`tool.register(server)`). */
  const reachesRegistration = (body: ts.Node, pf: ParsedFile): boolean => {
    if (pf.registrationCalls.some((c) => c.pos >= body.pos && c.end <= body.end)) return true;
    let found = false;
    const visit = (n: ts.Node): void => {
      if (found || ts.isFunctionLike(n) || ts.isClassLike(n)) return;
      if (ts.isCallExpression(n) && calledFunction(n, pf, ctx, scope)) found = true;
      else ts.forEachChild(n, visit);
    };
    ts.forEachChild(body, visit);
    return found;
  };
  /** The context evaluating with this run's bindings (its consts read fresh: a const in a loop body differs per element). */
  const scoped = (): EvalContext => (scope.size ? { ...ctx, env: new Map([...ctx.env, ...scope]), consts: new BoundConsts(ctx.consts) } : ctx);
  const staticValue = (expr: ts.Expression, pf: ParsedFile): unknown => {
    try {
      return evaluateDetached(expr, pf, scoped());
    } catch {
      return undefined;
    }
  };
  /** An `if` / `?:` condition known statically (with this run's bindings): only the branch taken runs. */
  const staticCondition = (expr: ts.Expression, pf: ParsedFile): boolean | undefined => {
    try {
      const v = evaluateDetached(expr, pf, scoped());
      return v instanceof Unresolvable ? undefined : Boolean(v);
    } catch {
      return undefined;
    }
  };
  /** When walking what no call reaches: functions the start-up run already followed are not walked again. */
  let unreached = false;
  let ranAtStart = new Set<ts.Node>();
  const walk = (node: ts.Node, pf: ParsedFile, depth: number): void => {
    if (ts.isForOfStatement(node) && ts.isVariableDeclarationList(node.initializer) && node.initializer.declarations.length === 1) {
      const decl = node.initializer.declarations[0];
      if (ts.isIdentifier(decl.name) && unrolled(decl, staticValue(node.expression, pf), node.statement, pf, depth)) return;
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'forEach') {
      const cb = node.arguments[0] && skipOuter(node.arguments[0]);
      const param = cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) ? cb.parameters[0] : undefined;
      if (cb && param && ts.isIdentifier(param.name) && unrolled(param, staticValue(node.expression.expression, pf), (cb as ts.ArrowFunction).body, pf, depth)) return;
    }
    if (graph && isCallback(node)) {
      // Whole server: a callback may run (a CLI action, a per-connection factory, `oninitialized`): walked once.
      if (!walkedCallbacks.has(node) && depth < MAX_CALL_DEPTH) {
        walkedCallbacks.add(node);
        followed.add(node);
        walk(node.body, pf, depth + 1);
      }
      return;
    }
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return; // declared, not run here
    if ((ts.isIfStatement(node) || ts.isConditionalExpression(node)) && scope.size) {
      // `if (tool.annotations) server.tool(..., annotations, cb) else server.tool(..., cb)` in a loop: per element.
      const taken = staticCondition(ts.isIfStatement(node) ? node.expression : node.condition, pf);
      if (taken !== undefined) {
        const branch = ts.isIfStatement(node) ? (taken ? node.thenStatement : node.elseStatement) : taken ? node.whenTrue : node.whenFalse;
        if (branch) walk(branch, pf, depth);
        return;
      }
    }
    if (ts.isCallExpression(node)) {
      const replaced = replacedListHandler(node, pf, ctx);
      if (replaced) onReplacedList(replaced, spanOf(node, pf));
      const load = graph ? moduleLoadCall(node) : undefined;
      if (load) {
        // `await import("./transports/stdio.js")`, `require("./tools")`: the module runs here, once.
        const spec = node.arguments[0] && skipOuter(node.arguments[0]);
        if (spec && (ts.isStringLiteral(spec) || ts.isNoSubstitutionTemplateLiteral(spec))) runSpecifier(spec.text, spec, pf, moduleDepth);
        else if (spec)
          unfollowed(
            `${load === 'import' ? 'import()' : 'require()'} with a computed specifier (${spec.getText(pf.sf).slice(0, 60)}): the modules it loads are not followed, their tools are not in this prediction`,
            spec,
            pf,
          );
        return;
      }
      const kind = registrationOf(node, pf);
      if (kind) {
        const server = serverOf(receiverOf(node, kind), pf, ctx);
        if (scope.size) {
          seen.add(node);
          // A registration reading the arguments of the call it was followed from is located at that call.
          const perCall = via !== undefined && readsCallArguments(node, pf, scope);
          emit({ call: node, pf, kind, server, bindings: new Map(scope), ...(perCall ? { via } : {}) });
        } else if (!seen.has(node)) {
          seen.add(node);
          emit({ call: node, pf, kind, server });
        }
        return;
      }
      ts.forEachChild(node, (c) => walk(c, pf, depth));
      if (depth < MAX_CALL_DEPTH) {
        const target = calledFunction(node, pf, ctx, scope);
        if (target && target.fn.body && !active.has(target.fn) && !(unreached && ranAtStart.has(target.fn))) {
          const { servers, values } = callBindings(target.fn, node.arguments, pf, ctx, scope);
          const body = target.fn.body;
          // A helper registering with its own arguments (`tool("name", ...)`) is one tool per call: walked each time.
          const registersWithArguments = values.size > 0 && target.pf.registrationCalls.some((c) => c.pos >= body.pos && c.end <= body.end);
          if (graph && !scope.size && !registersWithArguments) {
            // Whole server: a function walked once with the same servers bound finds nothing new a second time
            // (its registrations are seen); bundles call small helpers from thousands of callbacks.
            const key = [...servers.values()].map((v) => (v instanceof ServerRef ? v.id : '')).join('\u0000');
            const keys = walkedWith.get(target.fn) ?? new Set<string>();
            walkedWith.set(target.fn, keys);
            if (keys.has(key)) return;
            keys.add(key);
          }
          const saved = new Map<ts.Node, unknown>();
          for (const [k, v] of servers) {
            saved.set(k, ctx.env.get(k));
            ctx.env.set(k, v);
          }
          const savedScope = new Map(scope);
          for (const [k, v] of values) scope.set(k, v);
          // A method of an instance: `this` in its body (keyed by its class, as evaluate.ts reads it).
          if (target.thisValue && target.fn.parent && ts.isClassLike(target.fn.parent)) scope.set(target.fn.parent, target.thisValue);
          const outerVia = via;
          via = { call: node, pf };
          active.add(target.fn);
          followed.add(target.fn);
          walk(target.fn.body, target.pf, depth + 1);
          active.delete(target.fn);
          via = outerVia;
          scope.clear();
          for (const [k, v] of savedScope) scope.set(k, v);
          for (const [k, v] of saved) {
            if (v === undefined) ctx.env.delete(k);
            else ctx.env.set(k, v);
          }
        }
      }
      return;
    }
    ts.forEachChild(node, (c) => walk(c, pf, depth));
  };
  // ES modules run their workspace imports first, each once, depth-first in import order.
  const ran = new Set<string>([entry.file]);
  const unfollowed = (reason: string, node: ts.Node, pf: ParsedFile) => graph?.unfollowed.push({ part: 'module', reason, span: spanOf(node, pf) });
  const unmodelledSaid = new Set<string>();
  /** Whole server: runs the module a specifier names (once), or says why it cannot. */
  const runSpecifier = (specifier: string, node: ts.Node, pf: ParsedFile, depth: number): void => {
    const unmodelled = unmodelledServerPackage(specifier);
    if (unmodelled) {
      // A server framework Toolsmith does not read: its tools exist, the prediction cannot hold them (said once).
      if (!unmodelledSaid.has(unmodelled)) {
        unmodelledSaid.add(unmodelled);
        graph?.unfollowed.push({
          part: 'tools',
          reason: `\`${unmodelled}\` (npm) builds a server here with ${UNMODELLED_TS_SERVER_PACKAGES[unmodelled]}: Toolsmith does not read that framework, so the tools it lists are not in this prediction`,
          span: spanOf(node, pf),
        });
      }
      return;
    }
    const file = ctx.project.resolveModule(pf.file, specifier);
    if (!file) {
      // A package (the SDK, zod...) is no part of the server's own code; a relative module that is not there is.
      const relative = specifier.startsWith('.') || specifier.startsWith('/');
      if (relative && !NOT_CODE.test(specifier)) unfollowed(`the module ${specifier} is not found next to ${pf.file.split(/[\\/]/).pop()}: its tools, if any, are not in this prediction`, node, pf);
      return;
    }
    if (ran.has(file)) return;
    const dep = depth < MAX_MODULE_DEPTH ? ctx.project.load(file) : undefined;
    if (!dep) {
      unfollowed(
        depth < MAX_MODULE_DEPTH
          ? `the module ${specifier} could not be read (larger than the size cap, or not a regular file): its tools, if any, are not in this prediction`
          : `the import chain is deeper than ${MAX_MODULE_DEPTH} modules here: ${specifier} is not followed`,
        node,
        pf,
      );
      return;
    }
    ran.add(dep.file);
    runModule(dep, depth + 1);
  };
  const runModule = (pf: ParsedFile, depth: number): void => {
    if (graph) {
      graph.modules.push(pf.file);
      graph.servers.push(...serversCreated(pf, ctx));
    }
    for (const st of pf.sf.statements) {
      if ((ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
        if (ts.isImportDeclaration(st) && st.importClause?.isTypeOnly) continue;
        if (graph) {
          if (!(ts.isExportDeclaration(st) && st.isTypeOnly)) runSpecifier(st.moduleSpecifier.text, st.moduleSpecifier, pf, depth);
          continue;
        }
        const dep = depth < MAX_CALL_DEPTH ? ctx.project.loadModule(pf.file, st.moduleSpecifier.text) : undefined;
        if (dep && !ran.has(dep.file)) {
          ran.add(dep.file);
          runModule(dep, depth + 1);
        }
      } else if (graph && ts.isImportEqualsDeclaration(st) && !st.isTypeOnly && ts.isExternalModuleReference(st.moduleReference) && ts.isStringLiteral(st.moduleReference.expression)) {
        runSpecifier(st.moduleReference.expression.text, st.moduleReference.expression, pf, depth);
      }
    }
    // Whole server: each module's top level starts a fresh call stack (the depth bound is per module).
    const saved = moduleDepth;
    moduleDepth = depth;
    for (const st of pf.sf.statements) walk(st, pf, graph ? 0 : depth);
    moduleDepth = saved;
  };
  runModule(entry, 0);
  // Functions and methods of this file that no followed call ran (a class's `registerTools()` called on an
  // instance, a callback): what they register, directly or through the helpers they call, is still the server's.
  // Those no call in the file names go first, so that a helper is walked from its callers, with their arguments.
  // Only while some registration of the files read so far is still unseen, and only until none is.
  // A bundle's inlined packages (the SDK's own `this.server.setRequestHandler(...)`) register nothing of the server's
  // unless its code reaches them, which the walk follows: they are neither waited for nor walked from here.
  const library = libraryStatements(entry);
  const ofLibraries = new Set<ts.Node>(library.size ? entry.registrationCalls.filter((c) => !seen.has(c) && inLibraryModule(c, entry)) : []);
  let pending = [entry, ...ctx.project.parsed.values()].flatMap((f) => f.registrationCalls.filter((c) => registrationOf(c, f))).filter((c) => !seen.has(c) && !ofLibraries.has(c));
  const unseen = () => (pending = pending.filter((c) => !seen.has(c))).length > 0;
  if (!unseen()) return;
  unreached = true;
  ranAtStart = new Set(followed);
  const functions: ts.FunctionLikeDeclaration[] = [];
  const calleeNames = new Set<string>();
  const collect = (node: ts.Node): void => {
    // A registration's own callbacks (its handler) run per tool call, not when the server starts.
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body && !(ts.isCallExpression(node.parent) && registrationKind(node.parent)))
      functions.push(node as ts.FunctionLikeDeclaration);
    else if (ts.isCallExpression(node)) {
      const callee = skipComma(node.expression);
      if (ts.isIdentifier(callee)) calleeNames.add(callee.text);
      else if (ts.isPropertyAccessExpression(callee)) calleeNames.add(callee.name.text);
    }
    ts.forEachChild(node, collect);
  };
  for (const st of entry.sf.statements) if (!library.has(st)) collect(st);
  const nameOf = (fn: ts.FunctionLikeDeclaration): string | undefined => {
    const n = fn.name ?? (ts.isVariableDeclaration(fn.parent) || ts.isPropertyAssignment(fn.parent) ? fn.parent.name : undefined);
    return n && (ts.isIdentifier(n) || ts.isStringLiteral(n)) ? n.text : undefined;
  };
  rounds: for (const round of [1, 2]) {
    for (const fn of functions) {
      if (followed.has(fn) || (round === 1 && calleeNames.has(nameOf(fn) ?? ''))) continue;
      followed.add(fn);
      walk(fn.body!, entry, 0);
      if (!unseen()) break rounds;
    }
  }
  // Registrations inside functions this file never calls (helpers analysed on their own, callbacks...).
  for (const node of entry.registrationCalls) {
    const kind = registrationOf(node, entry);
    if (kind && !seen.has(node) && !ofLibraries.has(node)) {
      seen.add(node);
      emit({ call: node, pf: entry, kind, server: serverOf(receiverOf(node, kind), entry, ctx) });
    }
  }
}

// ---- one prompt ------------------------------------------------------------------------------------------------
// ---- one prompt ------------------------------------------------------------------------------------------------

const PROMPT_CONFIG_KEYS = ['title', 'description', 'argsSchema', 'icons', '_meta'] as const;
type PromptConfigKey = (typeof PROMPT_CONFIG_KEYS)[number];

/** registerPrompt(name, config, cb): the config's keys, inline, spread from a static object, or a whole static object. */
function registerPromptParts(site: Site, ctx: EvalContext, unresolved: Unresolved[]): { parts: Partial<Record<PromptConfigKey, Part>>; configSpan: Span } {
  const config = site.call.arguments[1];
  const parts: Partial<Record<PromptConfigKey, Part>> = {};
  const lit = objectLiteralOf(config, site.pf, ctx);
  const pick = (value: unknown, node: ts.Expression, pf: ParsedFile) => {
    if (isPlainObject(value)) for (const k of PROMPT_CONFIG_KEYS) if (k in value) parts[k] = { value: value[k], node, pf, ok: true, pick: k };
  };
  if (lit) {
    for (const p of lit.obj.properties) {
      if (ts.isSpreadAssignment(p)) {
        const spread = evalPart('config', p.expression, lit.pf, ctx, unresolved);
        if (spread.ok) pick(spread.value, p.expression, lit.pf);
        continue;
      }
      const key = keyOf(p);
      if (!key || !(PROMPT_CONFIG_KEYS as readonly string[]).includes(key)) continue;
      const valueNode = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
      if (!valueNode) unresolved.push({ part: key, reason: 'not a plain property', span: spanOf(p, lit.pf) });
      else parts[key as PromptConfigKey] = evalPart(key, valueNode, lit.pf, ctx, unresolved);
    }
  } else {
    const whole = evalPart('config', config, site.pf, ctx, unresolved);
    if (whole.ok && isPlainObject(whole.value)) pick(whole.value, config, site.pf);
    else if (whole.ok) unresolved.push({ part: 'config', reason: 'the config is not an object', span: spanOf(config, site.pf) });
  }
  return { parts, configSpan: spanOf(config, site.pf) };
}

/** 1.x prompt(name, [description], [argsSchema], cb): the SDK decides by the runtime type of each argument. */
function promptOverloadParts(site: Site, ctx: EvalContext, unresolved: Unresolved[]): Partial<Record<PromptConfigKey, Part>> {
  const parts: Partial<Record<PromptConfigKey, Part>> = {};
  const rest = site.call.arguments.slice(1);
  const first = rest[0] && skipOuter(rest[0]);
  if (first && rest.length > 1) {
    const p = evalPart('description', rest[0], site.pf, ctx, unresolved);
    const stringy = p.ok ? typeof p.value === 'string' : ts.isStringLiteralLike(first) || ts.isTemplateExpression(first) || ts.isBinaryExpression(first);
    if (stringy) {
      parts.description = p;
      rest.shift();
    } else if (!p.ok) unresolved.pop(); // not the description after all: it is the argsSchema, evaluated next
  }
  if (rest.length > 1) parts.argsSchema = evalPart('argsSchema', rest[0], site.pf, ctx, unresolved);
  return parts;
}

/** Where each argument is written: its property in the raw shape / z.object({...}) literal, else the whole argsSchema. */
function promptArgumentSpans(part: Part | undefined, ctx: EvalContext): Map<string, Span> {
  const out = new Map<string, Span>();
  if (!part) return out;
  const shape = shapeLiteral(part.node, part.pf, ctx);
  if (shape) for (const p of shape.obj.properties) if (!ts.isSpreadAssignment(p) && keyOf(p)) out.set(keyOf(p)!, spanOf(p, shape.pf));
  return out;
}

function buildPrompt(site: Site, ctx: EvalContext, versions: WorkspaceVersions): PromptDefinition {
  const { call, pf } = site;
  const framework = frameworkOfSite(site, versions);
  const profile = FRAMEWORKS[framework];
  const builder = profile.contractBuilder as TsContractBuilder;
  const sdkVersion = versions.sdkVersion(framework);
  const unresolved: Unresolved[] = [];
  const callSpan = spanOf(call, pf);
  const namePart = evalPart('name', call.arguments[0], pf, ctx, unresolved);
  let configSpan: Span | undefined;
  let parts: Partial<Record<PromptConfigKey, Part>>;
  if (site.kind === 'registerPrompt') ({ parts, configSpan } = registerPromptParts(site, ctx, unresolved));
  else {
    parts = promptOverloadParts(site, ctx, unresolved);
    // v2 removed the deprecated overloads along with tool().
    if (!profile.hasToolMethod) unresolved.push(removedMethod('prompt', profile.versionPackage, call, pf));
  }
  const caveat = profile.versionCaveat(sdkVersion);
  if (caveat) unresolved.push({ part: 'contract', reason: caveat, span: site.server.span });
  const name = locatedString(namePart, 'name', ctx, unresolved) ?? { value: undefined, span: spanOf(call.arguments[0], pf) };
  const title = locatedString(parts.title, 'title', ctx, unresolved);
  const description = locatedString(parts.description, 'description', ctx, unresolved);
  const args = parts.argsSchema;
  const built = buildTsPromptContract(
    {
      name: name.value,
      title: title?.value,
      description: description?.value,
      argsSchema: args?.ok ? args.value : undefined,
      icons: parts.icons?.ok ? parts.icons.value : undefined,
      _meta: parts._meta?.ok ? parts._meta.value : undefined,
    },
    { argsResolved: !args || args.ok, builder },
  );
  for (const e of built.errors) unresolved.push({ part: e.part, reason: `the SDK cannot publish this ${e.part}: ${e.reason}`, span: args ? spanOf(args.node, args.pf) : callSpan });
  const prompt: PromptDefinition = {
    language: 'typescript',
    framework,
    frameworkVersion: sdkVersion,
    file: pf.file,
    server: { id: site.server.id, variable: site.server.variable, name: site.server.name, span: site.server.span },
    registration: { kind: site.kind === 'registerPrompt' ? 'registerPrompt' : 'prompt', span: callSpan, calleeSpan: spanOf(call.expression, pf), ...(configSpan ? { configSpan } : {}) },
    name,
    contract: built.contract,
    unresolved,
  };
  if (title) prompt.title = title;
  if (description) prompt.description = description;
  if (built.arguments) {
    const spans = promptArgumentSpans(args, ctx);
    const fallback = args ? spanOf(args.node, args.pf) : callSpan;
    prompt.arguments = built.arguments.map((a) => ({ ...a, span: spans.get(a.name) ?? fallback }));
  }
  return prompt;
}

// ---- one resource ----------------------------------------------------------------------------------------------

/** `new ResourceTemplate(uriTemplate, callbacks)` (the SDK class, imported or `ns.ResourceTemplate`) an expression is, through consts. */
function resourceTemplateNew(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): { node: ts.NewExpression; pf: ParsedFile } | undefined {
  let e = skipOuter(expr);
  let file = pf;
  for (let i = 0; i < 10; i++) {
    if (ts.isNewExpression(e)) {
      const callee = skipOuter(e.expression);
      let name: string | undefined;
      if (ts.isPropertyAccessExpression(callee)) name = callee.name.text;
      else if (ts.isIdentifier(callee)) {
        const d = lookupName(callee.text, callee, file);
        name = d?.kind === 'import' ? d.imported : callee.text;
      }
      return name === 'ResourceTemplate' ? { node: e, pf: file } : undefined;
    }
    if (!ts.isIdentifier(e)) return undefined;
    let d = lookupName(e.text, e, file);
    if (d?.kind === 'import') d = ctx.project.resolveImport(d);
    if (d?.kind !== 'var' || !d.node.initializer) return undefined;
    e = skipOuter(d.node.initializer);
    file = d.pf;
  }
  return undefined;
}

/**
 * The `list` callback of `new ResourceTemplate(t, { list, complete })`: absent or `undefined` = none; a function = the
 * resources it returns at run time join resources/list. Returns where it is written, or an unresolved part.
 */
function templateListCallback(tpl: { node: ts.NewExpression; pf: ParsedFile }, ctx: EvalContext, unresolved: Unresolved[]): Span | undefined {
  const callbacks = tpl.node.arguments?.[1];
  if (!callbacks) {
    unresolved.push({
      part: 'uriTemplate',
      reason: 'new ResourceTemplate() without its callbacks argument: the SDK reads callbacks.list and callbacks.complete, and throws a TypeError',
      span: spanOf(tpl.node, tpl.pf),
    });
    return undefined;
  }
  const lit = objectLiteralOf(callbacks, tpl.pf, ctx);
  const isUndefined = (n: ts.Expression) => {
    const e = skipOuter(n);
    return (ts.isIdentifier(e) && e.text === 'undefined') || ts.isVoidExpression(e);
  };
  if (lit && !lit.obj.properties.some(ts.isSpreadAssignment)) {
    const prop = lit.obj.properties.find((p) => keyOf(p) === 'list');
    if (!prop) return undefined;
    const value = ts.isPropertyAssignment(prop) ? prop.initializer : undefined;
    return value && isUndefined(value) ? undefined : spanOf(prop, lit.pf);
  }
  try {
    const v = evaluateDetached(callbacks, tpl.pf, ctx);
    if (isPlainObject(v) && v.list === undefined) return undefined;
    if (isPlainObject(v)) return spanOf(callbacks, tpl.pf);
  } catch {
    /* reported below */
  }
  unresolved.push({
    part: 'list',
    reason: "the template's callbacks cannot be read statically: whether a list callback adds resources to resources/list is not known",
    span: spanOf(callbacks, tpl.pf),
  });
  return undefined;
}

/** JSON data only (what the SDK spreads into the entry and JSON.stringify keeps); functions, classes and schemas are not. */
function isJsonData(v: unknown, depth = 0): boolean {
  if (depth > 20) return false;
  if (v === undefined || v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return true;
  if (Array.isArray(v)) return v.every((x) => isJsonData(x, depth + 1));
  return isPlainObject(v) && Object.values(v).every((x) => isJsonData(x, depth + 1));
}

/** The entries of an object literal value (annotations, cacheHint), for the rules. */
function literalEntries(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): AnnotationEntry[] | undefined {
  const lit = objectLiteralOf(node, pf, ctx);
  if (!lit) return undefined;
  return annotationEntries({ value: undefined, node, pf, ok: false }, ctx).entries;
}

/**
 * The metadata object of a resource registration (registerResource's config, resource()'s metadata): every key the SDK
 * spreads into the entry, read one by one when written as a literal (an unreadable key is unresolved, the others
 * stay known), else the whole object.
 */
function resourceMetadata(
  expr: ts.Expression,
  ctx: EvalContext,
  pf: ParsedFile,
  unresolved: Unresolved[],
  configOnly: readonly string[],
): { values: Record<string, unknown>; parts: Map<string, Part>; entries: ResourceMetadataEntry[] } {
  const values: Record<string, unknown> = {};
  const parts = new Map<string, Part>();
  const entries: ResourceMetadataEntry[] = [];
  const keep = (key: string, part: Part, span: Span, valueNode?: ts.Expression) => {
    if (!part.ok) return;
    if (configOnly.includes(key)) {
      // Read by the SDK, never published (v2's cacheHint, scopeChallenge): kept for the checks only.
      parts.set(key, part);
      const entry: ResourceMetadataEntry = { key, value: isJsonData(part.value) && part.value !== undefined ? jsonRoundTrip(part.value) : undefined, span };
      const nested = valueNode && literalEntries(valueNode, part.pf, ctx);
      if (nested) entry.entries = nested;
      entries.push(entry);
      return;
    }
    // JSON.stringify leaves a function-valued key out of the entry.
    if (part.value instanceof FnExpr) return;
    if (!isJsonData(part.value)) {
      unresolved.push({ part: key, reason: 'not JSON data: what the SDK publishes for it is not known statically', span });
      return;
    }
    values[key] = part.value;
    parts.set(key, part);
    const entry: ResourceMetadataEntry = { key, value: part.value === undefined ? undefined : jsonRoundTrip(part.value), span };
    const nested = valueNode && literalEntries(valueNode, part.pf, ctx);
    if (nested) entry.entries = nested;
    entries.push(entry);
  };
  const spreadAll = (value: unknown, node: ts.Expression, nodePf: ParsedFile) => {
    if (!isPlainObject(value)) {
      unresolved.push({ part: 'config', reason: 'not an object', span: spanOf(node, nodePf) });
      return;
    }
    for (const k of Object.keys(value)) keep(k, { value: value[k], node, pf: nodePf, ok: true, pick: k }, spanOf(node, nodePf));
  };
  const lit = objectLiteralOf(expr, pf, ctx);
  if (lit) {
    for (const p of lit.obj.properties) {
      if (ts.isSpreadAssignment(p)) {
        const spread = evalPart('config', p.expression, lit.pf, ctx, unresolved);
        if (spread.ok) spreadAll(spread.value, p.expression, lit.pf);
        continue;
      }
      const key = keyOf(p);
      const valueNode = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
      if (key === undefined || !valueNode) {
        unresolved.push({ part: key ?? 'config', reason: key === undefined ? 'a computed key: which key the SDK publishes is not known' : 'not a plain property', span: spanOf(p, lit.pf) });
        continue;
      }
      // A config-only key the analysis cannot read matters only when the SDK validates it (cacheHint).
      const sink = configOnly.includes(key) && key !== 'cacheHint' ? [] : unresolved;
      keep(key, evalPart(key, valueNode, lit.pf, ctx, sink), spanOf(p, lit.pf), valueNode);
    }
  } else {
    const whole = evalPart('config', expr, pf, ctx, unresolved);
    if (whole.ok && whole.value !== undefined) spreadAll(whole.value, expr, pf);
  }
  return { values, parts, entries };
}

/** 1.x resource(name, uriOrTemplate, [metadata], cb): `typeof rest[0] === "object"` makes it the metadata. */
function resourceOverloadMetadata(site: Site, ctx: EvalContext, unresolved: Unresolved[]): ts.Expression | undefined {
  const rest = site.call.arguments.slice(2);
  if (rest.length < 2) return undefined;
  const first = skipOuter(rest[0]);
  if (ts.isArrowFunction(first) || ts.isFunctionExpression(first)) return undefined;
  if (objectLiteralOf(first, site.pf, ctx)) return first;
  try {
    const v = evaluateDetached(first, site.pf, ctx);
    return typeof v === 'object' && v !== null && !(v instanceof FnExpr) ? first : undefined;
  } catch {
    unresolved.push({ part: 'metadata', reason: 'argument 3 cannot be resolved: whether it is the metadata or the callback is not known', span: spanOf(first, site.pf) });
    return undefined;
  }
}

const ITERATING_METHODS = new Set(['forEach', 'map', 'flatMap']);

/**
 * The loop a registration runs in, when the analysis did not unroll it (its array is a run-time value): `for`,
 * `for...of`, `while`, or a `forEach`/`map` callback, up to the enclosing function.
 */
function runtimeLoop(call: ts.CallExpression): ts.Node | undefined {
  for (let n: ts.Node = call.parent; n && !ts.isSourceFile(n); n = n.parent) {
    if (ts.isIterationStatement(n, false)) return n;
    if (ts.isFunctionLike(n)) {
      const p = n.parent;
      const isCallback = p && ts.isCallExpression(p) && ts.isPropertyAccessExpression(p.expression) && ITERATING_METHODS.has(p.expression.name.text) && p.arguments.includes(n as ts.Expression);
      if (!isCallback) return undefined;
      return p;
    }
  }
  return undefined;
}

/**
 * The run-time loop around a registration, unless the walk unrolled it (its variable bound for this site: a loop over
 * a static array); bindings of a followed call's arguments do not unroll a loop inside the callee.
 */
function unboundLoop(call: ts.CallExpression, bindings: Map<ts.Node, unknown> | undefined): ts.Node | undefined {
  const loop = runtimeLoop(call);
  if (!loop || !bindings) return loop;
  let variable: ts.Node | undefined;
  if (ts.isForOfStatement(loop) || ts.isForInStatement(loop)) {
    const init = loop.initializer;
    variable = ts.isVariableDeclarationList(init) ? init.declarations[0] : undefined;
  } else if (ts.isCallExpression(loop)) {
    const cb = loop.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a)) as ts.FunctionLikeDeclaration | undefined;
    variable = cb?.parameters[0];
  }
  return variable && bindings.has(variable) ? undefined : loop;
}

/** The receiver of `x.resource(...)` is a parameter or an import (`this.server`, `ctx.server` count too), not a local object. */
function receiverIsParamOrImport(site: Site): boolean {
  const receiver = skipOuter((site.call.expression as ts.PropertyAccessExpression).expression);
  if (!ts.isIdentifier(receiver)) return ts.isPropertyAccessExpression(receiver);
  const d = lookupName(receiver.text, receiver, site.pf);
  return d?.kind === 'param' || d?.kind === 'import';
}

function buildResource(site: Site, ctx: EvalContext, versions: WorkspaceVersions): ResourceDefinition {
  const { call, pf } = site;
  const framework = frameworkOfSite(site, versions);
  const profile = FRAMEWORKS[framework];
  const builder = profile.contractBuilder as TsContractBuilder;
  const sdkVersion = versions.sdkVersion(framework);
  const unresolved: Unresolved[] = [];
  const callSpan = spanOf(call, pf);
  // `registerAppResource(server, name, uri, config, cb)`: the server first, then registerResource's arguments.
  const helper = site.kind === 'resourceHelper' ? resourceHelperOf(call, pf) : undefined;
  const args = helper ? call.arguments.slice(1) : call.arguments;
  const namePart = evalPart('name', args[0], pf, ctx, unresolved);
  const tpl = resourceTemplateNew(args[1], pf, ctx);
  const kind = tpl ? 'template' : 'resource';
  const uriKey = tpl ? 'uriTemplate' : 'uri';
  const uriNode = tpl ? tpl.node.arguments?.[0] : args[1];
  const uriPart = uriNode ? evalPart(uriKey, uriNode, tpl?.pf ?? pf, ctx, unresolved) : undefined;
  const listCallback = tpl ? templateListCallback(tpl, ctx, unresolved) : undefined;
  const registers = site.kind === 'registerResource' || site.kind === 'resourceHelper';
  const configNode = registers ? args[2] : resourceOverloadMetadata(site, ctx, unresolved);
  const configOnly = registers && builder === 'sdk-standard-schema' ? V2_RESOURCE_CONFIG_ONLY : [];
  const meta = configNode ? resourceMetadata(configNode, ctx, pf, unresolved, configOnly) : { values: {}, parts: new Map<string, Part>(), entries: [] };
  if (helper) {
    // `{ mimeType: RESOURCE_MIME_TYPE, ...config }`: the helper's default unless the config (fully read) sets one.
    const caveat = toolHelperCaveat(helper, versions.packageVersion(helper.versionPackage));
    if (caveat) unresolved.push({ part: 'contract', reason: caveat, span: spanOf(call.expression, pf) });
    if (!('mimeType' in meta.values) && !unresolved.some((u) => u.part === 'config' || u.part === 'mimeType')) meta.values = { mimeType: helper.defaultMimeType, ...meta.values };
  }

  const traits = profile.tsContractTraits?.(sdkVersion);
  if (registers && traits && !traits.registerResource)
    unresolved.push({ part: 'resource', reason: `${traits.release} has no McpServer.registerResource() (added in 1.13.0): this call throws a TypeError`, span: spanOf(call.expression, pf) });
  if (site.kind === 'resource' && !profile.hasToolMethod) unresolved.push(removedMethod('resource', profile.versionPackage, call, pf));
  const caveat = profile.versionCaveat(sdkVersion);
  if (caveat) unresolved.push({ part: 'contract', reason: caveat, span: site.server.span });

  const name = locatedString(namePart, 'name', ctx, unresolved) ?? { value: undefined, span: spanOf(args[0], pf) };
  const uri = locatedString(uriPart, uriKey, ctx, unresolved) ?? { value: undefined, span: callSpan };
  const built = buildTsResourceContract({ kind, name: name.value, uri: uri.value, metadata: meta.values, cacheHint: meta.parts.get('cacheHint')?.value }, { builder });
  const throws: NonNullable<ResourceDefinition['throws']> = [];
  for (const e of built.errors) {
    const node = e.part === 'cacheHint' ? meta.parts.get('cacheHint') : undefined;
    const span = node ? spanOf(node.node, node.pf) : uri.span;
    throws.push({ part: e.part, message: e.reason, span });
    unresolved.push({ part: e.part, reason: `the SDK throws at registration, the server does not start: ${e.reason}`, span });
  }
  const resource: ResourceDefinition = {
    language: 'typescript',
    framework,
    frameworkVersion: sdkVersion,
    file: pf.file,
    server: { id: site.server.id, variable: site.server.variable, name: site.server.name, span: site.server.span },
    registration: {
      kind: registers ? 'registerResource' : 'resource',
      span: callSpan,
      calleeSpan: spanOf(call.expression, pf),
      ...(configNode ? { configSpan: spanOf(configNode, pf) } : {}),
    },
    kind,
    name,
    uri,
    metadata: meta.entries,
    contract: built.contract,
    unresolved,
  };
  for (const key of ['title', 'description', 'mimeType'] as const) {
    const part = meta.parts.get(key);
    const located = part && locatedString(part, key, ctx, unresolved);
    if (located) resource[key] = located;
  }
  const loop = unboundLoop(call, site.bindings);
  if (loop) {
    const list = kind === 'resource' ? 'resources/list' : 'resources/templates/list';
    unresolved.push({ part: 'loop', reason: `registered in a loop over a run-time value: ${list} holds one such entry per iteration, how many is not known statically`, span: spanOf(loop, pf) });
  }
  if (throws.length) resource.throws = throws;
  if (listCallback) {
    resource.listCallback = listCallback;
    unresolved.push({ part: 'list', reason: `resources/list also holds the resources this template's list callback returns at run time (not predicted)`, span: listCallback });
  }
  return resource;
}

/**
 * The file's resources as the SDK keeps them: per server, a URI (or template name) registered twice throws "... is
 * already registered" (the server does not start), and each registry lists in `Object.entries` order.
 */
function resourceRegistries(resources: ResourceDefinition[]): ResourceDefinition[] {
  const byServer = new Map<string, ResourceDefinition[]>();
  for (const r of resources) {
    const list = byServer.get(r.server.id);
    if (list) list.push(r);
    else byServer.set(r.server.id, [r]);
  }
  const out: ResourceDefinition[] = [];
  for (const kind of ['resource', 'template'] as const) {
    for (const list of byServer.values()) {
      const seen = new Set<string>();
      const items = list.filter((r) => r.kind === kind).map((r) => ({ key: kind === 'resource' ? r.uri.value : r.name.value, item: r }));
      for (const { key, item } of items) {
        if (key === undefined) continue;
        if (seen.has(key)) {
          const what = kind === 'resource' ? `Resource ${key}` : `Resource template ${key}`;
          item.unresolved.push({ part: 'resource', reason: `the SDK throws "${what} is already registered" at this call: the server does not start`, span: item.registration.calleeSpan });
        }
        seen.add(key);
      }
      out.push(...registryOrder(items));
    }
  }
  return out;
}

// ---- one tool --------------------------------------------------------------------------------------------------

interface Part {
  value: unknown;
  node: ts.Expression;
  pf: ParsedFile;
  ok: boolean;
  /** The value is this key of what `node` evaluates to (a config spread, or a whole config written elsewhere). */
  pick?: string;
  /** `${key}\u0000${fingerprint}`: the schema cache key, built (and hashed by the Map) once for the lookup and the store. */
  cacheKey?: string;
}

/**
 * Converted schemas by the text fingerprint of their expression (and its dependencies): see `fingerprint`. Bounded by
 * size, least recently used first out: every keystroke in a schema makes a key never seen again, as large as the
 * schema's text, so a bound by entry count let a long editing session fill the heap (~80 KB per keystroke in a
 * 36 KB schema: out of memory under a 200 MB cap after ~2,000 edits; test/protocol/memory.test.ts).
 */
const schemaCache = new Map<string, { schema: ConvertedSchema; size: number }>();
/** Characters of keys and converted JSON the cache may hold (a few MB of heap). */
const SCHEMA_CACHE_CHARS = 2_000_000;
let schemaCacheChars = 0;
/** For benchmarks measuring a cold analysis. */
export function clearSchemaCache(): void {
  schemaCache.clear();
  schemaCacheChars = 0;
}

function cachedSchema(key: string): ConvertedSchema | undefined {
  const hit = schemaCache.get(key);
  if (!hit) return undefined;
  // Most recently used last: the tools not being edited stay in while the edited one's old texts age out.
  schemaCache.delete(key);
  schemaCache.set(key, hit);
  return hit.schema;
}

function cacheSchema(key: string, schema: ConvertedSchema): void {
  const size = key.length + (schema.json === undefined ? 0 : JSON.stringify(schema.json).length);
  if (size > SCHEMA_CACHE_CHARS / 4) return;
  const old = schemaCache.get(key);
  if (old) {
    schemaCache.delete(key);
    schemaCacheChars -= old.size;
  }
  schemaCache.set(key, { schema, size });
  schemaCacheChars += size;
  for (const [oldest, entry] of schemaCache) {
    if (schemaCacheChars <= SCHEMA_CACHE_CHARS) break;
    schemaCache.delete(oldest);
    schemaCacheChars -= entry.size;
  }
}

function evalSchemaPart(key: 'inputSchema' | 'outputSchema', node: ts.Expression, pf: ParsedFile, ctx: EvalContext, unresolved: Unresolved[], builder: TsContractBuilder, targetKey: string): Part {
  let fp: string | undefined;
  try {
    fp = fingerprint(node, pf, ctx);
  } catch {
    fp = undefined;
  }
  // The builder is part of the key: the same expression publishes draft-07 under 1.x and 2020-12 under v2.
  // So are the SDK release and the copies converting it (the workspace's zod 4.0 and the bundled 4.6 may differ).
  const cacheKey = fp !== undefined ? `${builder}\u0000${targetKey}\u0000${key}\u0000${fp}` : undefined;
  const hit = cacheKey !== undefined ? cachedSchema(cacheKey) : undefined;
  if (hit) return { value: hit, node, pf, ok: true, cacheKey };
  const part = evalPart(key, node, pf, ctx, unresolved);
  part.cacheKey = cacheKey;
  return part;
}

/**
 * The value of a schema part built again, recording where each zod 4 schema instance is written (`schemaOrigin`).
 * Only for a schema the SDK cannot convert (rare): the first evaluation records nothing, which spares a Map entry per
 * zod call. Evaluation is deterministic, so the rebuilt schema has the same structure; consts are evaluated again
 * (a fresh const cache) so that every instance it contains was built, and located, by this evaluation.
 */
function withOrigins(part: Part, ctx: EvalContext): { value: unknown; origins: NonNullable<EvalContext['origins']> | undefined } {
  const origins: NonNullable<EvalContext['origins']> = new Map();
  try {
    const whole = evaluate(part.node, part.pf, { ...ctx, unrepresentable: [], depth: 0, consts: new Map(), origins });
    const value = part.pick === undefined ? whole : isPlainObject(whole) ? whole[part.pick] : undefined;
    return { value, origins };
  } catch {
    // Cannot happen for a part that evaluated once; should it, the constructs are listed without their sites.
    return { value: part.value, origins: undefined };
  }
}

function unresolvedOf(part: string, err: unknown, fallback: Span): Unresolved {
  if (err instanceof Unresolvable) return { part, reason: err.reason, span: err.span };
  return { part, reason: `internal: ${err instanceof Error ? err.message : String(err)}`, span: fallback };
}

function evalPart(partName: string, node: ts.Expression, pf: ParsedFile, ctx: EvalContext, unresolved: Unresolved[]): Part {
  // Evaluated as written here (with the bindings in force); located where it is written (a helper's argument).
  const at = ctx.env.size ? writtenAt(node, pf, ctx) : { node, pf };
  try {
    return { value: evaluate(node, pf, ctx), node: at.node, pf: at.pf, ok: true };
  } catch (err) {
    unresolved.push(unresolvedOf(partName, err, spanOf(at.node, at.pf)));
    return { value: undefined, node: at.node, pf: at.pf, ok: false };
  }
}

/** Where an expression's value is written: a parameter bound to a call's argument is that argument, at the call. */
function writtenAt(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): { node: ts.Expression; pf: ParsedFile } {
  for (let i = 0; i < 10; i++) {
    const e = skipOuter(node);
    if (!ts.isIdentifier(e)) break;
    const d = lookupName(e.text, e, pf);
    const bound = d?.kind === 'param' ? ctx.env.get(d.node) : undefined;
    if (!(bound instanceof Deferred)) break;
    node = bound.node;
    pf = bound.pf;
  }
  return { node, pf };
}

function locatedString(part: Part | undefined, partName: string, ctx: EvalContext, unresolved: Unresolved[]): Located<string> | undefined {
  if (!part) return undefined;
  const span = literalSpan(part.node, part.pf, ctx.project);
  if (!part.ok) return { value: undefined, span, unresolved: unresolved.find((u) => u.part === partName) };
  if (typeof part.value === 'string') return { value: part.value, span };
  if (part.value === undefined) return undefined;
  const u: Unresolved = { part: partName, reason: 'not a string', span };
  unresolved.push(u);
  return { value: undefined, span, unresolved: u };
}

/** The object literal a config/annotations expression is written as (following consts). */
function objectLiteralOf(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): { obj: ts.ObjectLiteralExpression; pf: ParsedFile } | undefined {
  let e = skipOuter(expr);
  let file = pf;
  for (let i = 0; i < 10; i++) {
    if (ts.isObjectLiteralExpression(e)) return { obj: e, pf: file };
    if (!ts.isIdentifier(e)) return undefined;
    let d = lookupName(e.text, e, file);
    if (d?.kind === 'import') d = ctx.project.resolveImport(d);
    // A helper's parameter bound to the literal its call passes.
    const bound = d?.kind === 'param' ? ctx.env.get(d.node) : undefined;
    if (bound instanceof Deferred) {
      e = skipOuter(bound.node);
      file = bound.pf;
      continue;
    }
    if (d?.kind !== 'var' || !d.node.initializer) return undefined;
    e = skipOuter(d.node.initializer);
    file = d.pf;
  }
  return undefined;
}

function keyOf(p: ts.ObjectLiteralElementLike): string | undefined {
  if (!p.name) return undefined;
  if (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name)) return p.name.text;
  return undefined;
}

const CONFIG_KEYS = ['title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta'] as const;
type ConfigKey = (typeof CONFIG_KEYS)[number];

/** `JSON.parse(JSON.stringify(v) ?? 'null')`, without serialising the values it returns unchanged (hints are booleans). */
function jsonRoundTrip(v: unknown): JsonValue {
  if (typeof v === 'boolean' || typeof v === 'string' || v === null || (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0))) return v;
  return JSON.parse(JSON.stringify(v) ?? 'null') as JsonValue;
}

function annotationEntries(part: Part, ctx: EvalContext): { span: Span; entries: AnnotationEntry[] } {
  const lit = objectLiteralOf(part.node, part.pf, ctx);
  const entries: AnnotationEntry[] = [];
  if (lit) {
    for (const p of lit.obj.properties) {
      const key = keyOf(p);
      if (key === undefined || !p.name) continue;
      let value: JsonValue | undefined;
      const valueNode = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
      if (valueNode) {
        try {
          const v = evaluateDetached(valueNode, lit.pf, ctx);
          value = v === undefined ? undefined : jsonRoundTrip(v);
        } catch {
          value = undefined;
        }
      }
      const entry: AnnotationEntry = { key, value, span: spanOf(p, lit.pf), keySpan: spanOf(p.name, lit.pf) };
      if (valueNode) entry.valueSpan = spanOf(valueNode, lit.pf);
      entries.push(entry);
    }
    return { span: spanOf(lit.obj, lit.pf), entries };
  }
  if (part.ok && part.value && typeof part.value === 'object') {
    const span = spanOf(part.node, part.pf);
    for (const [key, v] of Object.entries(part.value)) {
      let value: JsonValue | undefined;
      try {
        value = v === undefined ? undefined : jsonRoundTrip(v);
      } catch {
        value = undefined; // not JSON data (a schema, a cycle): unknown, not guessed
      }
      entries.push({ key, value, span, keySpan: span });
    }
  }
  return { span: spanOf(part.node, part.pf), entries };
}

/** Calls that keep their receiver's properties: a property added to the receiver's shape is published as is. */
const SHAPE_KEEPING = new Set(['strict', 'passthrough', 'strip', 'loose', 'catchall', 'describe', 'meta', 'readonly', 'brand', 'refine', 'superRefine', 'check']);
const OBJECT_CTORS = new Set(['object', 'strictObject', 'looseObject']);

/**
 * The object literal whose properties become the input properties: the raw shape, or `z.object({...})`'s argument
 * (through consts, imports and shape-keeping calls such as `.describe()`/`.strict()`), or `.extend({...})`'s argument.
 */
function shapeLiteral(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext, depth = 0): { obj: ts.ObjectLiteralExpression; pf: ParsedFile } | undefined {
  if (depth > 10) return undefined;
  const e = skipOuter(expr);
  if (ts.isObjectLiteralExpression(e)) return { obj: e, pf };
  if (ts.isIdentifier(e)) {
    let d = lookupName(e.text, e, pf);
    if (d?.kind === 'import') d = ctx.project.resolveImport(d);
    if (d?.kind !== 'var' || !d.node.initializer || !(d.node.parent.flags & ts.NodeFlags.Const)) return undefined;
    return shapeLiteral(d.node.initializer, d.pf, ctx, depth + 1);
  }
  if (ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression)) {
    const method = e.expression.name.text;
    const arg0 = e.arguments[0];
    if (OBJECT_CTORS.has(method)) return arg0 && e.arguments.length === 1 ? shapeLiteral(arg0, pf, ctx, depth + 1) : undefined;
    if (method === 'extend' && arg0) return shapeLiteral(arg0, pf, ctx, depth + 1);
    if (SHAPE_KEEPING.has(method)) return shapeLiteral(e.expression.expression, pf, ctx, depth + 1);
  }
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !('_zod' in v) && !('_def' in v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}
function isSchemaLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { parse?: unknown }).parse === 'function';
}
function isRawShapeValue(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  const vals = Object.values(v);
  return vals.length === 0 || vals.some(isSchemaLike);
}

/** What one registration's arguments say: the config parts, the handler, and (server.tool) the overload the SDK picks. */
interface RegistrationParts {
  parts: Partial<Record<ConfigKey, Part>>;
  handlerExpr: ts.Expression | undefined;
  configSpan?: Span;
  overload?: string[];
  descriptionOrigin: 'explicit' | 'argument';
  /** registerToolTask: the execution the SDK stores, `{ taskSupport: "required", ...config.execution }`. */
  execution?: unknown;
  /** registerTool: every key of the config is known to be there or not (no unresolved spread or whole config). */
  configComplete?: boolean;
}

/** What the SDK's registerToolTask stores as `execution` (experimental/tasks/mcp-server.js). */
function taskExecution(site: Site, ctx: EvalContext, unresolved: Unresolved[]): unknown {
  const config = site.call.arguments[1];
  const lit = objectLiteralOf(config, site.pf, ctx);
  const prop = lit?.obj.properties.find((p) => keyOf(p) === 'execution');
  if (!prop) return { taskSupport: 'required' };
  const node = ts.isPropertyAssignment(prop) ? prop.initializer : ts.isShorthandPropertyAssignment(prop) ? prop.name : undefined;
  const part = node ? evalPart('execution', node, lit!.pf, ctx, unresolved) : undefined;
  return part?.ok && isPlainObject(part.value) ? { taskSupport: 'required', ...part.value } : undefined;
}

/** `tool()` / `prompt()` called on an SDK that has no such method (v2 removed both): the call throws, nothing is registered. */
function removedMethod(method: 'tool' | 'prompt' | 'resource', sdkPackage: string, call: ts.CallExpression, pf: ParsedFile): Unresolved {
  const replacement = method === 'tool' ? 'registerTool' : method === 'prompt' ? 'registerPrompt' : 'registerResource';
  return {
    part: method,
    reason: `${sdkPackage} has no McpServer.${method}() method (removed in v2): this call throws a TypeError and registers nothing; use ${replacement}`,
    span: spanOf(call.expression, pf),
  };
}

/** What a registration cannot do at this SDK release (the call throws, or an argument means something else). */
function releaseLimits(site: Site, parts: Partial<Record<ConfigKey, Part>>, traits: TsContractTraits, unresolved: Unresolved[]): void {
  const callee = spanOf(site.call.expression, site.pf);
  if ((site.kind === 'registerTool' || site.kind === 'toolHelper') && !traits.registerTool) {
    unresolved.push({ part: 'tool', reason: `${traits.release} has no McpServer.registerTool() (added in 1.11.4): this call throws a TypeError and the server does not start`, span: callee });
  }
  if (site.kind === 'registerToolTask' && !traits.execution) {
    unresolved.push({ part: 'tool', reason: `${traits.release} has no registerToolTask() (task tools came in 1.24.0): this call throws a TypeError`, span: callee });
  }
  if (site.kind === 'tool' && parts.annotations && !traits.annotations) {
    const a = parts.annotations;
    unresolved.push({ part: 'annotations', reason: `${traits.release} has no annotations argument (added in 1.11.0): it takes this object for the parameter shape`, span: spanOf(a.node, a.pf) });
  }
}

function buildTool(site: ToolSite, ctx: EvalContext, versions: WorkspaceVersions): ToolDefinition {
  const { call, pf } = site;
  const framework = frameworkOfSite(site, versions);
  const profile = FRAMEWORKS[framework];
  const builder = profile.contractBuilder as TsContractBuilder;
  const sdkVersion = versions.sdkVersion(framework);
  const unresolved: Unresolved[] = [];
  ctx.unrepresentable = [];
  // Registered through a helper of the file (`j(server, "show-map", {...})`): the call into it is the registration.
  const at = site.via ?? { call, pf };
  const callSpan = spanOf(at.call, at.pf);
  const args = call.arguments;
  // The release's traits and the copies converting its schemas: 1.x (target) or v2 (v2Target).
  const traits = profile.tsContractTraits?.(sdkVersion);
  const target: TsBuildTarget | undefined = traits && { traits, libs: ctx.libraries ?? bundledLibraries() };
  const v2Traits = profile.tsV2ContractTraits?.(sdkVersion);
  const v2Target: V2BuildTarget | undefined = v2Traits && { traits: v2Traits, libs: ctx.libraries ?? bundledLibraries() };
  const built = target ?? v2Target;
  const targetKey = built ? `${built.traits.release}\u0000${built.libs.key}` : '';

  // A tool helper takes the server first (`registerAppTool(server, name, config, cb)`), then registerTool's arguments.
  const helper = site.kind === 'toolHelper' ? toolHelperOf(call, pf) : undefined;
  const nameArg = args[helper ? 1 : 0];
  const namePart = evalPart('name', nameArg, pf, ctx, unresolved);
  const registration = site.kind === 'tool' ? serverToolParts(site, ctx, unresolved) : registerToolParts(site, ctx, unresolved, builder, targetKey);
  if (helper) applyToolHelper(site, helper, registration, versions.packageVersion(helper.versionPackage), unresolved);
  if (traits) releaseLimits(site, registration.parts, traits, unresolved);
  if (site.kind === 'registerToolTask') registration.execution = taskExecution(site, ctx, unresolved);
  const { parts } = registration;
  if (site.kind === 'tool' && !profile.hasToolMethod) unresolved.push(removedMethod('tool', profile.versionPackage, call, pf));
  const caveat = profile.versionCaveat(sdkVersion);
  if (caveat) unresolved.push({ part: 'contract', reason: caveat, span: site.server.span });
  if (built?.libs.caveat) unresolved.push({ part: 'contract', reason: built.libs.caveat, span: site.server.span });

  let name: Located<string> | undefined = locatedString(namePart, 'name', ctx, unresolved);
  if (!name) {
    // A name that evaluates to `undefined` is not a name: say so, rather than print a tool without one.
    const u: Unresolved = { part: 'name', reason: 'the name is `undefined`', span: spanOf(namePart.node, namePart.pf) };
    if (namePart.ok) unresolved.push(u);
    name = { value: undefined, span: u.span, ...(namePart.ok ? { unresolved: u } : {}) };
  }
  const title = locatedString(parts.title, 'title', ctx, unresolved);
  const descLoc = locatedString(parts.description, 'description', ctx, unresolved);

  inlinedZodSchemas(parts, builder, unresolved);
  const input = parts.inputSchema;
  const output = parts.outputSchema;
  const contractResult = publishedContract(parts, name.value, title?.value, descLoc?.value, callSpan, unresolved, builder, registration.execution, target, v2Target);
  const contract = contractResult.contract;
  const unrepresentable = unrepresentableConstructs(parts, contractResult, ctx, builder, target, v2Target);
  cacheConvertedSchemas(parts, contractResult, ctx);
  const inputJson = contract.inputSchema as JsonSchema | undefined;
  const paramFallback = input ? spanOf(input.node, input.pf) : callSpan;
  const parameters = parametersOf(input?.node, input?.pf ?? pf, ctx, inputJson, paramFallback);

  let handler;
  if (registration.handlerExpr) {
    const written = ctx.env.size ? writtenAt(registration.handlerExpr, pf, ctx) : { node: registration.handlerExpr, pf };
    const h = resolveHandler(written.node, written.pf, ctx);
    if (h) handler = handlerFacts(h.fn, h.pf, ctx, inputJson);
  }

  const tool: ToolDefinition = {
    language: 'typescript',
    framework,
    frameworkVersion: sdkVersion,
    file: pf.file,
    server: { id: site.server.id, variable: site.server.variable, name: site.server.name, span: site.server.span },
    registration: {
      kind: site.kind === 'listTools' ? 'add_tool' : site.kind === 'registerToolTask' || site.kind === 'toolHelper' ? 'registerTool' : site.kind,
      span: callSpan,
      calleeSpan: spanOf(at.call.expression, at.pf),
      configSpan: registration.configSpan,
      overload: registration.overload,
    },
    name,
    parameters,
    contract,
    unresolved,
    unrepresentable,
  };
  // Through a helper: the guards of the call into it, then those around the registration inside it.
  const guard = joinGuards(registrationGuard(at.call, at.pf), site.via ? registrationGuard(call, pf) : undefined);
  if (guard) {
    tool.registration.condition = { text: guard.text, span: guard.span };
    if (guard.arms.length) tool.registration.arms = guard.arms;
  }
  if (title) tool.title = title;
  if (descLoc) {
    const origin = registration.descriptionOrigin;
    // `{ ...descLoc, origin }` spelled out (same keys, same order): a spread of a small object costs more.
    tool.description = 'unresolved' in descLoc ? { value: descLoc.value, span: descLoc.span, unresolved: descLoc.unresolved, origin } : { value: descLoc.value, span: descLoc.span, origin };
  }
  if (input) tool.inputSchemaSpan = spanOf(input.node, input.pf);
  if (input?.ok && !contractResult.inputSchemaNotObject) {
    const shape = shapeLiteral(input.node, input.pf, ctx);
    if (shape) tool.inputShapeSpan = spanOf(shape.obj, shape.pf);
  }
  if (contractResult.inputSchemaNotObject) tool.inputSchemaNotObject = true;
  if (output) tool.outputSchemaSpan = spanOf(output.node, output.pf);
  if (parts.annotations) tool.annotations = annotationEntries(parts.annotations, ctx);
  if (handler) tool.handler = handler;
  return tool;
}

/** registerTool(name, config, cb): the config object's keys (written inline, spread, or a whole object from elsewhere). */
function registerToolParts(site: Site, ctx: EvalContext, unresolved: Unresolved[], builder: TsContractBuilder, targetKey: string): RegistrationParts {
  const { pf } = site;
  // A tool helper takes the server first: `registerAppTool(server, name, config, cb)`.
  const at = site.kind === 'toolHelper' ? 1 : 0;
  const config = site.call.arguments[at + 1];
  const parts: Partial<Record<ConfigKey, Part>> = {};
  const configSpan = spanOf(config, pf);
  let complete = true;
  const readLiteral = (lit: { obj: ts.ObjectLiteralExpression; pf: ParsedFile }, depth: number): void => {
    for (const p of lit.obj.properties) {
      if (ts.isSpreadAssignment(p)) {
        // `{ ...F, _meta }` where F is an object literal (a const, or a helper's argument): its properties, each on its own.
        const inner = depth < 5 ? objectLiteralOf(p.expression, lit.pf, ctx) : undefined;
        if (inner && inner.obj !== lit.obj) {
          readLiteral(inner, depth + 1);
          continue;
        }
        const spread = evalPart('config', p.expression, lit.pf, ctx, unresolved);
        if (spread.ok && isPlainObject(spread.value)) {
          for (const k of CONFIG_KEYS) if (k in spread.value) parts[k] = { value: spread.value[k], node: spread.node, pf: spread.pf, ok: true, pick: k };
        } else complete = false;
        continue;
      }
      const key = keyOf(p);
      if (!key || !(CONFIG_KEYS as readonly string[]).includes(key)) {
        if (!key) complete = false;
        continue;
      }
      const valueNode = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
      if (!valueNode) {
        unresolved.push({ part: key, reason: 'not a plain property', span: spanOf(p, lit.pf) });
        complete = false;
        continue;
      }
      parts[key as ConfigKey] =
        key === 'inputSchema' || key === 'outputSchema' ? evalSchemaPart(key, valueNode, lit.pf, ctx, unresolved, builder, targetKey) : evalPart(key, valueNode, lit.pf, ctx, unresolved);
    }
  };
  const lit = objectLiteralOf(config, pf, ctx);
  if (lit) readLiteral(lit, 0);
  else {
    const whole = evalPart('config', config, pf, ctx, unresolved);
    if (whole.ok && isPlainObject(whole.value)) {
      for (const k of CONFIG_KEYS) if (k in whole.value) parts[k] = { value: whole.value[k], node: whole.node, pf: whole.pf, ok: true, pick: k };
    } else {
      complete = false;
      if (whole.ok) unresolved.push({ part: 'config', reason: 'the config is not an object', span: configSpan });
    }
  }
  // Through a helper (`j(server, name, {...})`), a fix would edit the helper every call shares: no config span then.
  return { parts, handlerExpr: site.call.arguments[at + 2], configSpan: site.via ? undefined : configSpan, descriptionOrigin: 'explicit', configComplete: complete };
}

/**
 * A tool helper's own work on the config before it calls registerTool (see `ToolHelper.meta`): ext-apps'
 * registerAppTool normalises `_meta` and throws without one.
 */
function applyToolHelper(site: Site, helper: ToolHelper, registration: RegistrationParts, helperVersion: string | undefined, unresolved: Unresolved[]): void {
  const callee = spanOf(site.call.expression, site.pf);
  const caveat = toolHelperCaveat(helper, helperVersion);
  if (caveat) unresolved.push({ part: 'contract', reason: caveat, span: callee });
  const meta = registration.parts._meta;
  if (!meta) {
    if (registration.configComplete)
      unresolved.push({
        part: 'tool',
        reason: `${helper.name}() of ${helper.versionPackage} reads \`config._meta.ui\` with no default (every release from ${helper.modelled.from} to ${helper.modelled.to}): without \`_meta\` this call throws a TypeError and registers nothing; add \`_meta: { ui: { resourceUri } }\``,
        span: callee,
      });
    return;
  }
  if (!meta.ok) return;
  if (meta.value === undefined || meta.value === null) {
    unresolved.push({
      part: 'tool',
      reason: `${helper.name}() reads \`config._meta.ui\`: with \`_meta\` ${String(meta.value)} this call throws a TypeError and registers nothing`,
      span: spanOf(meta.node, meta.pf),
    });
    return;
  }
  registration.parts._meta = { ...meta, value: extAppsToolMeta(meta.value) };
}

/**
 * What ext-apps' registerAppTool passes to registerTool as `_meta` (every release 0.2.0-2.0.4, the same code):
 * `ui.resourceUri` is also written to the legacy `"ui/resourceUri"` key, or the legacy key to `ui.resourceUri`,
 * by JS truthiness, with spreads — the same operations on the same value.
 */
function extAppsToolMeta(meta: unknown): unknown {
  const q = meta as Record<string, unknown>;
  const ui = q.ui as { resourceUri?: unknown } | undefined;
  const legacy = q[EXT_APPS_RESOURCE_URI_KEY];
  if (ui?.resourceUri && !legacy) return { ...q, [EXT_APPS_RESOURCE_URI_KEY]: ui.resourceUri };
  if (legacy && !ui?.resourceUri) return { ...q, ui: { ...ui, resourceUri: legacy } };
  return q;
}
const EXT_APPS_RESOURCE_URI_KEY = 'ui/resourceUri';

/** server.tool(name, [description], [paramsSchemaOrAnnotations], [annotations], cb) — the SDK decides by runtime types. */
function serverToolParts(site: Site, ctx: EvalContext, unresolved: Unresolved[]): RegistrationParts {
  const { pf } = site;
  const parts: Partial<Record<ConfigKey, Part>> = {};
  const overload = ['name'];
  const rest = site.call.arguments.slice(1);
  const handlerExpr = rest[rest.length - 1];
  const middle = rest.slice(0, -1).map((a, i) => evalPart(`argument ${i + 2}`, a, pf, ctx, unresolved));
  let i = 0;
  const isStringArg = (p: Part) =>
    p.ok ? typeof p.value === 'string' : ts.isStringLiteralLike(skipOuter(p.node)) || ts.isTemplateExpression(skipOuter(p.node)) || ts.isBinaryExpression(skipOuter(p.node));
  if (middle[i] && isStringArg(middle[i])) {
    parts.description = middle[i++];
    overload.push('description');
  }
  if (middle[i]) {
    const p = middle[i];
    if (p.ok ? isRawShapeValue(p.value) : false) {
      parts.inputSchema = p;
      overload.push('paramsSchema');
      i++;
      const q = middle[i];
      if (q && q.ok && isPlainObject(q.value) && !isRawShapeValue(q.value)) {
        parts.annotations = q;
        overload.push('annotations');
        i++;
      }
    } else if (p.ok && typeof p.value === 'object' && p.value !== null) {
      if (Object.values(p.value).some((v) => typeof v === 'object' && v !== null)) {
        unresolved.push({ part: 'inputSchema', reason: 'server.tool() takes a raw shape here; the SDK throws on a zod schema or nested object', span: spanOf(p.node, pf) });
      } else {
        parts.annotations = p;
        overload.push('annotations');
      }
      i++;
    } else if (!p.ok) {
      overload.push('unknown');
      i++;
    }
  }
  // Arguments of run-time types leave the overload unknown (their own reasons are listed); known ones past it are extra.
  if (middle.every((m) => m.ok)) for (; i < middle.length; i++) unresolved.push({ part: 'arguments', reason: 'extra argument the SDK would treat as the callback', span: spanOf(middle[i].node, pf) });
  overload.push('callback');
  return { parts, handlerExpr, overload, descriptionOrigin: 'argument' };
}

/**
 * Schemas rebuilt with a bundle's inlined zod (bundles.ts). v2 converts a schema with its own
 * `~standard.jsonSchema` (the inlined copy's code): exact, but a raw shape is wrapped in `z.object()` by the bundle's
 * SDK with the zod it imports, that same copy — wrapped here the same way. 1.x converts with the SDK's zod-compat and
 * the zod it imports, copies inlined in the bundle that are not loaded: unresolved.
 */
function inlinedZodSchemas(parts: Partial<Record<ConfigKey, Part>>, builder: TsContractBuilder, unresolved: Unresolved[]): void {
  for (const key of ['inputSchema', 'outputSchema'] as const) {
    const part = parts[key];
    if (!part?.ok) continue;
    const fields = isPlainObject(part.value) ? Object.values(part.value) : [part.value];
    const copy = fields.map(inlinedCopyOf).find((c) => c !== undefined);
    if (!copy) continue;
    if (builder === 'sdk-zod-compat') {
      unresolved.push({
        part: key,
        reason:
          "built with the zod inlined in this bundle, which @modelcontextprotocol/sdk 1.x converts with its own copies inlined in the bundle (its zod-compat and that zod's toJSONSchema): those are not loaded; v2 schemas convert themselves",
        span: spanOf(part.node, part.pf),
      });
      parts[key] = { ...part, ok: false, value: undefined };
    } else if (isPlainObject(part.value) && fields.every((f) => inlinedCopyOf(f) === copy)) {
      parts[key] = { ...part, value: (copy.object as (shape: unknown) => unknown)(part.value), cacheKey: undefined };
    }
  }
}

/** The tools/list entry the SDK builds from these values; what it cannot publish becomes an unresolved part. */
function publishedContract(
  parts: Partial<Record<ConfigKey, Part>>,
  name: string | undefined,
  title: string | undefined,
  description: string | undefined,
  callSpan: Span,
  unresolved: Unresolved[],
  builder: TsContractBuilder,
  execution?: unknown,
  target?: TsBuildTarget,
  v2Target?: V2BuildTarget,
): TsContractResult {
  const input = parts.inputSchema;
  const output = parts.outputSchema;
  const contractResult = buildTsContract(
    {
      name,
      title,
      description,
      inputSchema: input?.ok ? input.value : undefined,
      outputSchema: output?.ok ? output.value : undefined,
      annotations: parts.annotations?.ok ? parts.annotations.value : undefined,
      icons: parts.icons?.ok ? parts.icons.value : undefined,
      _meta: parts._meta?.ok ? parts._meta.value : undefined,
      ...(execution !== undefined ? { execution } : {}),
    },
    { inputResolved: !input || input.ok, outputResolved: !output || output.ok, builder, target, v2Target },
  );
  for (const e of contractResult.errors) {
    const node = parts[e.part];
    unresolved.push({ part: e.part, reason: `the SDK cannot publish this ${e.part}: ${e.reason}`, span: node ? spanOf(node.node, node.pf) : callSpan });
  }
  return contractResult;
}

/**
 * zod 4: what JSON Schema cannot carry is exactly what makes the SDK's conversion fail, in its io mode
 * (`.transform()` publishes its input side in an inputSchema and fails only in an outputSchema).
 */
function unrepresentableConstructs(
  parts: Partial<Record<ConfigKey, Part>>,
  contractResult: TsContractResult,
  ctx: EvalContext,
  builder: TsContractBuilder,
  target: TsBuildTarget | undefined,
  v2Target?: V2BuildTarget,
): ToolDefinition['unrepresentable'] {
  const unrepresentable = [...ctx.unrepresentable];
  for (const e of contractResult.errors) {
    const part = parts[e.part];
    if ((e.part !== 'inputSchema' && e.part !== 'outputSchema') || !part?.ok) continue;
    const located = withOrigins(part, ctx);
    for (const schema of unrepresentableSchemas(located.value, e.part === 'inputSchema' ? 'input' : 'output', builder, target, v2Target)) {
      const origin = schemaOrigin(located.origins, schema);
      const type = (schema as { _zod?: { def?: { type?: string } } })._zod?.def?.type ?? 'unknown';
      const u = origin ?? { construct: `z.${type}()`, span: spanOf(part.node, part.pf) };
      if (!unrepresentable.some((x) => x.span.start === u.span.start && x.span.end === u.span.end && x.span.file === u.span.file)) unrepresentable.push(u);
    }
  }
  return unrepresentable;
}

/** Keeps the converted input/output schemas by fingerprint, for the next analysis of the same expression. */
function cacheConvertedSchemas(parts: Partial<Record<ConfigKey, Part>>, contractResult: TsContractResult, ctx: EvalContext): void {
  const contract = contractResult.contract;
  for (const [key, part] of [
    ['inputSchema', parts.inputSchema],
    ['outputSchema', parts.outputSchema],
  ] as const) {
    if (!part?.ok || !part.cacheKey || part.value instanceof ConvertedSchema || contractResult.errors.some((e) => e.part === key)) continue;
    if (ctx.unrepresentable.length) continue; // keeps the spans of what JSON Schema cannot carry exact: recompute
    cacheSchema(part.cacheKey, new ConvertedSchema(contract[key] as JsonSchema | undefined, key === 'inputSchema' && contractResult.inputSchemaNotObject));
  }
}

// ---- the file --------------------------------------------------------------------------------------------------

function syntaxErrors(pf: ParsedFile): FileFacts['syntaxErrors'] {
  const diags = (pf.sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  return diags.map((d) => ({ message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), span: { file: pf.file, start: d.start, end: d.start + d.length } }));
}

/** The import declarations of the 1.x SDK package (`@modelcontextprotocol/sdk/...`), for the migration rule. */
function sdkV1Imports(pf: ParsedFile): FileFacts['v1Imports'] {
  const out: FileFacts['v1Imports'] = [];
  for (const st of pf.sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || frameworkOfModule(st.moduleSpecifier.text) !== 'ts-sdk') continue;
    const bindings = st.importClause?.namedBindings;
    const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => ({ imported: (e.propertyName ?? e.name).text, local: e.name.text, span: spanOf(e, pf) })) : [];
    out.push({ span: spanOf(st, pf), text: st.getText(pf.sf), module: st.moduleSpecifier.text, moduleSpan: spanOf(st.moduleSpecifier, pf), names, typeOnly: st.importClause?.isTypeOnly === true });
  }
  return out;
}

/**
 * The 1.x SDK imports of the modules this file imports by relative path (one level), for a file that imports 1.x
 * itself: a server handed to one of them runs their v1 code too (brave's dialect module gives the server's
 * setRequestHandler a v1 schema constant), so the migration rule weighs them before offering to move this file.
 */
function moduleV1Imports(pf: ParsedFile, project: Project, own: FileFacts['v1Imports']): FileFacts['moduleV1Imports'] {
  if (own.length === 0) return undefined;
  const out: NonNullable<FileFacts['moduleV1Imports']> = [];
  for (const st of pf.sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith('.') || st.importClause?.isTypeOnly) continue;
    const file = project.resolveModule(pf.file, st.moduleSpecifier.text);
    const dep = file === undefined ? undefined : (project.parsed.get(file) ?? project.load(file));
    const imports = dep ? sdkV1Imports(dep).filter((i) => !i.typeOnly) : [];
    if (dep && imports.length) out.push({ file: dep.file, imports });
  }
  return out;
}

function serversCreated(pf: ParsedFile, ctx: EvalContext): FileFacts['servers'] {
  return pf.serverDeclarations.map((n) => {
    const ref = serverOf(n.name as ts.Identifier, pf, ctx);
    return { id: ref.id, variable: ref.variable, name: ref.name, span: ref.span, constructorSpan: spanOf(skipOuter(n.initializer!), pf) };
  });
}

/** A file that may register tools of either SDK line, or a low-level tools list (the workspace's copies are looked up only for those). */
function mayRegisterTools(text: string): boolean {
  return /registerTool|\.tool\s*\(|McpServer|ListToolsRequestSchema/.test(text);
}

/**
 * The consts of one loop iteration or helper call: those declared inside a function are read fresh (a const in the
 * loop body or helper differs per element or call); a module's top-level ones cannot depend on either and are shared.
 */
class BoundConsts extends Map<ts.Node, EvalContext['consts'] extends Map<ts.Node, infer V> ? V : never> {
  constructor(private readonly shared: EvalContext['consts']) {
    super();
  }
  private static topLevel(decl: ts.Node): boolean {
    return ts.isVariableDeclaration(decl) && ts.isVariableDeclarationList(decl.parent) && ts.isVariableStatement(decl.parent.parent) && ts.isSourceFile(decl.parent.parent.parent);
  }
  override get(k: ts.Node) {
    return BoundConsts.topLevel(k) ? this.shared.get(k) : super.get(k);
  }
  override has(k: ts.Node) {
    return BoundConsts.topLevel(k) ? this.shared.has(k) : super.has(k);
  }
  override set(k: ts.Node, v: Parameters<EvalContext['consts']['set']>[1]) {
    if (BoundConsts.topLevel(k)) this.shared.set(k, v);
    else super.set(k, v);
    return this;
  }
  override delete(k: ts.Node) {
    return BoundConsts.topLevel(k) ? this.shared.delete(k) : super.delete(k);
  }
}

/** The context of a registration run with bindings (a loop iteration's element, a helper call's arguments). */
function boundContext(ctx: EvalContext, bindings: Map<ts.Node, unknown>): EvalContext {
  return { ...ctx, env: new Map([...ctx.env, ...bindings]), consts: new BoundConsts(ctx.consts), fingerprints: new Map() };
}

/**
 * `wholeServer`: analyse `file` as a server's entry — follow its whole module graph (static, side-effect and dynamic
 * imports, `require()`), walk the callbacks it hands on (a CLI action, a per-connection factory), and say in
 * `graph` what ran and what could not be followed. Without it, the file's own analysis (what the editor shows).
 */
export function analyzeTypeScript(file: string, text: string, host: FileHost, options: { wholeServer?: boolean } = {}): AnalysisResult {
  const pf = parseFile(file, text);
  const project = new Project(host);
  const versions = workspaceVersions(host, file);
  // Rebuilt and converted with the workspace's SDK and schema libraries when it is trusted and has them (libraries.ts).
  // A file importing an SDK module (an entry that only connects a server whose tools its imports register), one that may
  // register tools, or a whole-server entry (`import "../dist/index.js"`: the server's modules decide).
  const sdkLine = importedFramework(pf) ?? (options.wholeServer || mayRegisterTools(text) ? versions.defaultFramework : undefined);
  const libraries = sdkLine === 'ts-sdk' ? librariesFor(file) : sdkLine === 'ts-sdk-v2' ? librariesForV2(file) : undefined;
  const ctx: EvalContext = { project, zodMajorForBareImport: versions.zodMajor, unrepresentable: [], env: new Map(), consts: new Map(), depth: 0, fingerprints: new Map(), libraries };
  const sites: Site[] = [];
  /** Servers whose tools/list handler the code replaces (`_requestHandlers.set("tools/list", ...)`), by id. */
  const replacedLists = new Map<string, Span>();
  const graph: ModuleGraph | undefined = options.wholeServer ? { modules: [], unfollowed: [], servers: [] } : undefined;
  collectSites(
    pf,
    ctx,
    (s) => sites.push(s),
    (server, span) => replacedLists.set(server.id, span),
    graph,
  );
  // `mcpServer.server.setRequestHandler(ListToolsRequestSchema, ...)` on an McpServer that registers tools replaces
  // the handler the McpServer installed: not a low-level server's list of its own.
  const mcpServerIds = new Set(sites.filter((s) => s.kind !== 'listTools' && !isListSite(s.kind)).map((s) => `${s.server.id}.${INNER_SERVER}`));
  for (const s of sites) if (s.kind === 'listTools' && mcpServerIds.has(s.server.id)) replacedLists.set(s.server.id, spanOf(s.call, s.pf));
  const tools: ToolDefinition[] = [];
  const prompts: PromptDefinition[] = [];
  const resources: ResourceDefinition[] = [];
  /** What low-level list handlers return: listed in the order written, not kept in the SDK's registries. */
  const handlerResources: ResourceDefinition[] = [];
  for (const site of sites) {
    if (isListSite(site.kind)) {
      // The same handlers set on an McpServer's inner server replace what the McpServer lists: not predicted here.
      if (mcpServerIds.has(site.server.id)) continue;
      try {
        const framework = frameworkOfSite(site, versions);
        const read = listHandlerSurfaces(site.call, site.pf, site.server, site.bindings ? boundContext(ctx, site.bindings) : ctx, framework, versions.sdkVersion(framework), LIST_SITES[site.kind]);
        prompts.push(...read.prompts);
        handlerResources.push(...read.resources);
      } catch {
        // A bug of ours on one list must not hide the tools; the list is left out.
      }
      continue;
    }
    if (site.kind === 'registerResource' || site.kind === 'resource' || site.kind === 'resourceHelper') {
      // `router.resource("users", ...)` of another library: resource() counts only on a server of an MCP SDK, or on a
      // parameter or import of a file that imports one (a register helper).
      if (site.kind === 'resource' && !site.server.framework && !(importedFramework(site.pf) && receiverIsParamOrImport(site))) continue;
      try {
        resources.push(buildResource(site, site.bindings ? boundContext(ctx, site.bindings) : ctx, versions));
      } catch {
        // A bug of ours on one resource must not hide the tools; the resource is left out.
      }
      continue;
    }
    if (site.kind === 'registerPrompt' || site.kind === 'prompt') {
      // `window.prompt("Name?", "x")`: a browser global, not a server (its receiver is declared nowhere).
      const receiver = skipOuter((site.call.expression as ts.PropertyAccessExpression).expression);
      if (site.kind === 'prompt' && ts.isIdentifier(receiver) && !lookupName(receiver.text, receiver, site.pf)) continue;
      try {
        prompts.push(buildPrompt(site, site.bindings ? boundContext(ctx, site.bindings) : ctx, versions));
      } catch {
        // A bug of ours on one prompt must not hide the tools; the prompt is left out (prompts are not linted yet).
      }
      continue;
    }
    try {
      let siteCtx = site.bindings ? boundContext(ctx, site.bindings) : ctx;
      if (site.kind === 'listTools' && replacedLists.has(site.server.id)) continue;
      // The `let`/`var` locals the registration reads, as the code before it leaves them (locals.ts).
      const locals = site.kind === 'listTools' ? undefined : localsAt(site.call, site.pf, siteCtx);
      if (locals) siteCtx = boundContext(siteCtx, locals);
      if (site.kind === 'listTools') {
        const framework = frameworkOfSite(site, versions);
        tools.push(...listHandlerTools(site.call, site.pf, site.server, siteCtx, framework, versions.sdkVersion(framework)));
      } else {
        const tool = buildTool(site as ToolSite, siteCtx, versions);
        const replaced = replacedLists.get(`${site.server.id}.${INNER_SERVER}`);
        // The SDK's tools/list output goes through code of the server's own before it is published.
        if (replaced)
          tool.unresolved.push({
            part: 'contract',
            reason: "the server replaces the SDK's tools/list handler with its own, which rewrites what the SDK would publish at run time",
            span: replaced,
          });
        tools.push(tool);
      }
    } catch (err) {
      // A bug of ours on one tool must not hide the others; the tool is reported as unresolved.
      const span = spanOf(site.call, site.pf);
      const framework = frameworkOfSite(site, versions);
      tools.push({
        language: 'typescript',
        framework,
        frameworkVersion: versions.sdkVersion(framework),
        file: site.pf.file,
        server: { id: site.server.id, variable: site.server.variable, name: site.server.name, span: site.server.span },
        registration: {
          kind: site.kind === 'listTools' ? 'add_tool' : site.kind === 'registerToolTask' || site.kind === 'toolHelper' ? 'registerTool' : site.kind,
          span,
          calleeSpan: spanOf(site.call.expression, site.pf),
        },
        name: { value: undefined, span },
        parameters: [],
        contract: {},
        unresolved: [{ part: 'tool', reason: `internal analysis error: ${err instanceof Error ? err.message : String(err)}`, span }],
        unrepresentable: [],
      });
    }
  }
  const v1Imports = sdkV1Imports(pf);
  const v1OfModules = moduleV1Imports(pf, project, v1Imports);
  const facts: FileFacts = {
    file,
    language: 'typescript',
    framework: tools[0]?.framework ?? importedFramework(pf) ?? (/@modelcontextprotocol\/sdk/.test(text) ? 'ts-sdk' : undefined),
    v1Imports,
    servers: serversCreated(pf, ctx),
    dependencies: [...project.dependencies].filter((f) => f !== file),
    syntaxErrors: syntaxErrors(pf),
  };
  if (v1OfModules?.length) facts.moduleV1Imports = v1OfModules;
  if (libraries && tools.some((t) => t.framework === sdkLine)) facts.converters = libraries.rows;
  const result: AnalysisResult = { tools, files: [facts] };
  if (prompts.length) result.prompts = prompts;
  if (resources.length || handlerResources.length) result.resources = [...resourceRegistries(resources), ...handlerResources];
  if (graph) result.graph = graph;
  return result;
}

/**
 * Handler facts for the rules (they never read the syntax tree): calls with the handler parameters that reach
 * them, `shell: true`, awaits; every return with its keys, text contents, isError, error-looking payloads and
 * leaked error internals; whether a path containment check is written.
 */
import ts from './ts';
import type { CallFact, HandlerDefinition, JsonSchema, ReturnFact, Span } from '../model';
import { evaluateDetached, type EvalContext } from './evaluate';
import { isFunctionLikeKind, lookupName, skipOuter, spanOf, type Decl, type ParsedFile, type Project } from './project';

/** Calls that look at a URL (given a parameter): a validator named for URLs or hosts. */
const URL_CHECK = /valid\w*ur[li]|ur[li]\w*valid|safe\w*ur[li]|check\w*ur[li]|allowed\w*(host|domain|url)/i;
/** Callee names of path guards: validate/sanitize/ensure/assert/check + path/dir/file/inside/within/allowed, or safe…Path. */
const VALIDATOR_CALLEE = /(^|\.)((validate|sanitize|sanitise|ensure|assert|check|verify|guard)\w*(path|dir|directory|file|inside|within|allowed|root)\w*|(resolve|get|to)?safe\w*path\w*)$/i;

const SK = ts.SyntaxKind;

type FnNode = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration;

/** The function a handler argument stands for (inline, or a function / const arrow in this or another file). */
export function resolveHandler(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): { fn: FnNode; pf: ParsedFile } | undefined {
  let e = skipOuter(expr);
  let file = pf;
  for (let i = 0; i < 10; i++) {
    if (ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return { fn: e, pf: file };
    if (!ts.isIdentifier(e)) return undefined;
    let d = lookupName(e.text, e, file);
    if (d?.kind === 'import') d = ctx.project.resolveImport(d);
    if (!d) return undefined;
    if (d.kind === 'function') return { fn: d.node, pf: d.pf };
    if (d.kind === 'var' && d.node.initializer) {
      e = skipOuter(d.node.initializer);
      file = d.pf;
      continue;
    }
    return undefined;
  }
  return undefined;
}

const MODULE_ALIASES: Record<string, string> = { 'fs/promises': 'fs.promises', 'node:fs/promises': 'fs.promises' };
function moduleName(spec: string): string {
  return MODULE_ALIASES[spec] ?? spec.replace(/^node:/, '');
}

/** `fs.readFileSync` for `import * as fs from "node:fs"`, `child_process.exec` for `import { exec } from "child_process"`. */
function calleeName(expr: ts.Expression, pf: ParsedFile): string {
  const e = skipOuter(expr);
  if (ts.isIdentifier(e)) {
    const d = lookupName(e.text, e, pf);
    if (d?.kind === 'import' && !d.module.startsWith('.')) {
      if (d.imported === '*' || d.imported === 'default') return moduleName(d.module);
      return `${moduleName(d.module)}.${d.imported}`;
    }
    return e.text;
  }
  if (ts.isPropertyAccessExpression(e)) return `${calleeName(e.expression, pf)}.${e.name.text}`;
  if (ts.isCallExpression(e)) return `${calleeName(e.expression, pf)}()`;
  if (e.kind === SK.ThisKeyword) return 'this';
  if (ts.isElementAccessExpression(e)) return `${calleeName(e.expression, pf)}[]`;
  return e.getText(pf.sf).slice(0, 60);
}

function bindingNames(name: ts.BindingName, out: string[]): void {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, out);
}

const ERRORISH = /^\s*(error|erreur|failed|failure)\b|^\s*\{\s*"error"/i;

/** What the handler's code can say about the arguments: which local names hold which input property. */
interface Scope {
  fn: FnNode;
  pf: ParsedFile;
  ctx: EvalContext;
  catchVars: Set<string>;
  /** `args` in `async (args) => ...`. */
  argsObject?: string;
  /** `{ q: query = "x" }`: local name -> input property, and whether a default fills it in. */
  argProps: Map<string, { prop: string; defaulted: boolean }>;
  /** The published inputSchema's properties and required list. */
  inputProps?: Record<string, JsonSchema>;
  required: Set<string>;
}

export function handlerFacts(fn: FnNode, pf: ParsedFile, ctx: EvalContext, inputJson?: JsonSchema): HandlerDefinition {
  const isAsync = !!ts.getModifiers(fn)?.some((m) => m.kind === SK.AsyncKeyword);
  const body = fn.body;
  const bodySpan = body ? spanOf(body, pf) : spanOf(fn, pf);
  // Taint: handler parameters (the tool arguments), then locals assigned from them.
  const taint = new Map<string, Set<string>>();
  const first = fn.parameters[0];
  let argsObject: string | undefined;
  const argProps = new Map<string, { prop: string; defaulted: boolean }>();
  if (first) {
    if (ts.isIdentifier(first.name)) argsObject = first.name.text;
    else if (ts.isObjectBindingPattern(first.name)) {
      for (const el of first.name.elements) {
        const names: string[] = [];
        bindingNames(el.name, names);
        const prop = el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : names[0];
        for (const n of names) taint.set(n, new Set([prop ?? n]));
        if (ts.isIdentifier(el.name) && prop !== undefined && !el.dotDotDotToken) argProps.set(el.name.text, { prop, defaulted: !!el.initializer });
      }
    }
  }
  const props = inputJson?.properties;
  const scope: Scope = {
    fn,
    pf,
    ctx,
    catchVars: new Set<string>(),
    argsObject,
    argProps,
    inputProps: props && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, JsonSchema>) : undefined,
    required: new Set(Array.isArray(inputJson?.required) ? (inputJson.required as string[]) : []),
  };
  const catchVars = scope.catchVars;
  // The input properties an expression reads, added to `into` in the order met. One visitor for the whole handler
  // (not a closure and a Set per expression): it writes to the set of the call in progress.
  let into = new Set<string>();
  const visitSources = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && argsObject && ts.isIdentifier(n.expression) && n.expression.text === argsObject) {
      into.add(n.name.text);
      return;
    }
    if (ts.isIdentifier(n)) {
      const t = taint.get(n.text);
      if (t) for (const s of t) into.add(s);
      return;
    }
    if (ts.isPropertyAccessExpression(n)) {
      visitSources(n.expression);
      return;
    }
    ts.forEachChild(n, visitSources);
  };
  const sourcesInto = (node: ts.Node, out: Set<string>): Set<string> => {
    const saved = into;
    into = out;
    visitSources(node);
    into = saved;
    return out;
  };
  const sourcesOf = (node: ts.Node): Set<string> => sourcesInto(node, new Set<string>());

  const calls: CallFact[] = [];
  const returns: ReturnFact[] = [];
  const raises: HandlerDefinition['raises'] = [];
  let hasResolve = false;
  let hasWithinTest = false;

  // Walk state, saved and restored around subtrees: inside a nested function (its returns are not the handler's),
  // inside the try block of a try/catch of this handler (a throw there does not reach the SDK).
  let hasValidatorCall = false;
  let checksUrl = false;
  let inNested = false;
  let inTry = false;
  const visit = (n: ts.Node): void => {
    switch (n.kind) {
      case SK.CatchClause: {
        const v = (n as ts.CatchClause).variableDeclaration;
        if (v && ts.isIdentifier(v.name)) catchVars.add(v.name.text);
        break;
      }
      case SK.VariableDeclaration: {
        const d = n as ts.VariableDeclaration;
        if (d.initializer) {
          const src = sourcesOf(d.initializer);
          if (src.size) {
            const names: string[] = [];
            bindingNames(d.name, names);
            for (const name of names) taint.set(name, union(taint.get(name), src));
          }
        }
        break;
      }
      case SK.BinaryExpression: {
        const b = n as ts.BinaryExpression;
        if (b.operatorToken.kind === SK.EqualsToken && ts.isIdentifier(b.left)) {
          const src = sourcesOf(b.right);
          if (src.size) taint.set(b.left.text, union(taint.get(b.left.text), src));
        }
        break;
      }
      case SK.CallExpression:
        calls.push(callFact(n as ts.CallExpression));
        break;
      case SK.NewExpression: {
        // `new URL(args.url)`: the handler parses the URL (and then reads its protocol / host).
        const ne = n as ts.NewExpression;
        if (ts.isIdentifier(ne.expression) && ne.expression.text === 'URL' && ne.arguments?.some((a) => sourcesOf(a).size > 0)) checksUrl = true;
        break;
      }
      case SK.ReturnStatement:
        if (!inNested) returns.push(returnFact((n as ts.ReturnStatement).expression, n, scope));
        break;
      case SK.ThrowStatement:
        // The SDK turns an error thrown by the handler into `{ isError: true, content: [{ text: error.message }] }`.
        if (!inNested && !inTry) raises.push(throwFact(n as ts.ThrowStatement, scope));
        break;
    }
    const savedNested = inNested;
    const savedTry = inTry;
    if (!inNested && n !== fn && isFunctionLikeKind(n.kind)) inNested = true;
    if (n.kind === SK.TryStatement && !inNested) {
      const t = n as ts.TryStatement;
      inTry = savedTry || !!t.catchClause;
      visit(t.tryBlock);
      inTry = savedTry;
      if (t.catchClause) visit(t.catchClause);
      if (t.finallyBlock) visit(t.finallyBlock);
    } else ts.forEachChild(n, visit);
    inNested = savedNested;
    inTry = savedTry;
  };
  const callFact = (n: ts.CallExpression): CallFact => {
    const callee = calleeName(n.expression, pf);
    const params = new Set<string>();
    let shell = false;
    for (const a of n.arguments) {
      sourcesInto(a, params);
      const obj = skipOuter(a);
      if (ts.isObjectLiteralExpression(obj)) {
        for (const p of obj.properties) {
          if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'shell' && p.name.getText(pf.sf) === 'shell' && p.initializer.kind !== SK.FalseKeyword) shell = true;
          if (ts.isShorthandPropertyAssignment(p) && p.name.text === 'shell') shell = true;
        }
      }
    }
    // The URL an HTTP client / a browser reads: `fetch(url)`, `axios.post(url, body)`, `x.request(method, url)`, `axios({ url })`.
    const urlParams = new Set<string>();
    const urlArg = urlArgument(n, callee);
    if (urlArg) sourcesInto(urlArg, urlParams);
    const joined = new Set<string>();
    const viaHelper: { callee: string; params: string[] }[] = [];
    const helper = params.size > 0 ? calleeFunction(n.expression, pf, ctx) : undefined;
    if (helper) {
      for (const i of joinsUncheckedPath(helper)) if (n.arguments[i]) sourcesInto(n.arguments[i], joined);
      for (const inner of urlArgsInHelper(helper, ctx)) {
        const reach = new Set<string>();
        for (const i of inner.at) if (n.arguments[i]) sourcesInto(n.arguments[i], reach);
        if (reach.size) viaHelper.push({ callee: inner.callee, params: [...reach] });
      }
    }
    let parent = n.parent;
    while (parent && ts.isParenthesizedExpression(parent)) parent = parent.parent;
    if (/(^|\.)(resolve|normalize|realpath|realpathSync)$/.test(callee)) hasResolve = true;
    if (/(^|\.)(startsWith|relative)$/.test(callee)) hasWithinTest = true;
    // A helper named for the check (`validatePath(args.path)`, `resolveSafePath`, `assertInsideRoot`) given a
    // parameter: its body lives elsewhere (often another module), and its name is the author's statement of intent.
    if (params.size && VALIDATOR_CALLEE.test(callee)) hasValidatorCall = true;
    if (params.size && URL_CHECK.test(callee)) checksUrl = true;
    if (ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'startsWith' && sourcesOf(n.expression.expression).size) checksUrl = true;
    return {
      callee,
      span: spanOf(n, pf),
      paramsInArgs: [...params],
      shell,
      awaited: !!parent && ts.isAwaitExpression(parent),
      ...(urlParams.size ? { paramsInUrlArg: [...urlParams] } : {}),
      ...(joined.size ? { joinsUncheckedPath: [...joined] } : {}),
      ...(viaHelper.length ? { urlArgInHelper: viaHelper } : {}),
    };
  };
  if (body) {
    visit(body);
    if (!ts.isBlock(body)) returns.push(returnFact(body, body, scope));
  }
  const name = ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn) ? fn.name?.getText(pf.sf) : undefined;
  return {
    span: spanOf(fn, pf),
    name,
    isAsync,
    bodySpan,
    calls,
    returns,
    raises,
    hasPathContainmentCheck: (hasResolve && hasWithinTest) || hasValidatorCall,
    checksUrl,
    ...(fn.parameters.length === 0 ? { ignoresArguments: true } : {}),
  };
}

const joinsMemo = new WeakMap<ts.Node, number[]>();

type HelperFn = { fn: ts.FunctionLikeDeclaration; pf: ParsedFile; name: string };
// Per analysis (one Project each): an edit of the imported file is read by the next analysis.
const importedHelpers = new WeakMap<Project, Map<string, HelperFn | null>>();
const importedClasses = new WeakMap<Project, Map<string, Decl | null>>();

/** A function declaration, or a const holding an arrow / function expression. */
function helperOf(d: Decl | undefined, name: string): HelperFn | undefined {
  if (d?.kind === 'function' && d.node.body) return { fn: d.node, pf: d.pf, name };
  if (d?.kind === 'var' && d.node.initializer) {
    const init = skipOuter(d.node.initializer);
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return { fn: init, pf: d.pf, name };
  }
  return undefined;
}

/**
 * The function a call's callee stands for, when its body can be read: a function (or a const arrow) of this file or
 * of a workspace file it imports (`import { resolvePath } from "./paths.js"`), a method of the class the call is
 * written in (`this.resolvePath(p)`), or a static method of a class of this or an imported file
 * (`Fetcher.html(args)`). Package imports stay unread.
 */
function calleeFunction(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): HelperFn | undefined {
  const e = skipOuter(expr);
  if (ts.isIdentifier(e)) {
    // An imported name is resolved once per file: following the import parses the other file.
    const d0 = lookupName(e.text, e, pf);
    if (d0?.kind === 'import') {
      let byName = importedHelpers.get(ctx.project);
      if (!byName) importedHelpers.set(ctx.project, (byName = new Map<string, HelperFn | null>()));
      const key = `${pf.file}\u0000${e.text}`;
      if (!byName.has(key)) byName.set(key, helperOf(ctx.project.resolveImport(d0), e.text) ?? null);
      return byName.get(key) ?? undefined;
    }
    return helperOf(d0, e.text);
  }
  if (!ts.isPropertyAccessExpression(e)) return undefined;
  const member = e.name.text;
  const receiver = skipOuter(e.expression);
  let cls: ts.ClassLikeDeclaration | undefined;
  let file = pf;
  let isStatic = false;
  if (receiver.kind === SK.ThisKeyword) {
    for (let n: ts.Node | undefined = e.parent; n; n = n.parent)
      if (ts.isClassDeclaration(n) || ts.isClassExpression(n)) {
        cls = n;
        break;
      }
  } else if (ts.isIdentifier(receiver)) {
    let d = lookupName(receiver.text, receiver, pf);
    if (d?.kind === 'import') {
      let byName = importedClasses.get(ctx.project);
      if (!byName) importedClasses.set(ctx.project, (byName = new Map<string, Decl | null>()));
      const key = `${pf.file}\u0000${receiver.text}`;
      if (!byName.has(key)) byName.set(key, ctx.project.resolveImport(d) ?? null);
      d = byName.get(key) ?? undefined;
    }
    if (d?.kind === 'class') {
      cls = d.node;
      file = d.pf;
      isStatic = true;
    }
  }
  if (!cls) return undefined;
  for (const m of cls.members) {
    if (!m.name || !ts.isIdentifier(m.name) || m.name.text !== member) continue;
    if (isStatic !== (ts.canHaveModifiers(m) && !!ts.getModifiers(m)?.some((x) => x.kind === SK.StaticKeyword))) continue;
    if (ts.isMethodDeclaration(m) && m.body) return { fn: m, pf: file, name: `${cls.name?.text ?? 'this'}.${member}` };
    if (ts.isPropertyDeclaration(m) && m.initializer) {
      const init = skipOuter(m.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return { fn: init, pf: file, name: `${cls.name?.text ?? 'this'}.${member}` };
    }
  }
  return undefined;
}

/** The argument an HTTP client / a browser reads the URL from: `fetch(url)`, `x.request(method, url)`, `axios({ url })`. */
function urlArgument(n: ts.CallExpression, callee: string): ts.Node | undefined {
  const arg = n.arguments[/(^|\.)request$/.test(callee) && n.arguments.length > 1 ? 1 : 0];
  if (!arg) return undefined;
  const obj = skipOuter(arg);
  if (ts.isObjectLiteralExpression(obj)) {
    for (const p of obj.properties) if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && ts.isIdentifier(p.name) && p.name.text === 'url') return p;
    return undefined;
  }
  // `https://www.youtube.com/watch?v=${id}`: the scheme and host are the author's; what follows is not a URL the caller picks.
  if (fixedOrigin(obj)) return undefined;
  return arg;
}

/** A template or concatenation opening with a literal `scheme://host/`. */
function fixedOrigin(e: ts.Expression): boolean {
  let head: ts.Expression = e;
  while (ts.isBinaryExpression(head) && head.operatorToken.kind === SK.PlusToken) head = skipOuter(head.left);
  let text: string | undefined;
  if (ts.isTemplateExpression(head)) text = head.head.text;
  else if (head !== e && (ts.isStringLiteral(head) || ts.isNoSubstitutionTemplateLiteral(head))) text = head.text;
  return text !== undefined && /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+[/?#]/i.test(text);
}

/**
 * Is `helper` a function that returns `path.join(ROOT, p)` / `path.resolve(ROOT, p)` of some of its parameters
 * (directly or through a local) and never tests the result (`startsWith` / `path.relative` after a resolve, or a
 * validator named for paths)? The positions of those parameters.
 */
function joinsUncheckedPath(helper: HelperFn): number[] {
  const { fn, pf } = helper;
  if (!fn.body || VALIDATOR_CALLEE.test(helper.name)) return [];
  const known = joinsMemo.get(fn);
  if (known) return known;
  const tainted = new Map<string, Set<number>>();
  fn.parameters.forEach((p, i) => {
    if (ts.isIdentifier(p.name)) tainted.set(p.name.text, new Set([i]));
  });
  const joined = new Map<string, Set<number>>();
  const sourcesIn = (node: ts.Node, into: Set<number>): Set<number> => {
    if (ts.isIdentifier(node)) for (const i of tainted.get(node.text) ?? []) into.add(i);
    else ts.forEachChild(node, (c) => void sourcesIn(c, into));
    return into;
  };
  /** The parameter positions reaching the path `node` is: a joined local, or `path.join(ROOT, name)` (a later part from the caller). */
  const joinSources = (node: ts.Node): Set<number> => {
    const out = new Set<number>();
    if (ts.isIdentifier(node)) for (const i of joined.get(node.text) ?? []) out.add(i);
    else if (ts.isCallExpression(node) && /(^|\.)path\.(join|resolve)$|^(path\.)?(join|resolve)$/.test(calleeName(node.expression, pf))) {
      if (node.arguments.length >= 2) for (const a of node.arguments.slice(1)) sourcesIn(a, out);
    } else if (ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node)) return joinSources(node.expression);
    return out;
  };
  let resolves = false;
  let tests = false;
  const result = new Set<number>();
  const visit = (n: ts.Node): void => {
    if (n !== fn && isFunctionLikeKind(n.kind)) return;
    if (ts.isCallExpression(n)) {
      const c = calleeName(n.expression, pf);
      if (/(^|\.)(resolve|normalize|realpath|realpathSync)$/.test(c)) resolves = true;
      if (/(^|\.)(startsWith|relative)$/.test(c) || VALIDATOR_CALLEE.test(c)) tests = true;
    }
    if (ts.isVariableDeclaration(n) && n.initializer && ts.isIdentifier(n.name)) {
      const j = joinSources(n.initializer);
      const t = sourcesIn(n.initializer, new Set());
      if (j.size) joined.set(n.name.text, j);
      else if (t.size) tainted.set(n.name.text, t);
    }
    if (ts.isReturnStatement(n) && n.expression) for (const i of joinSources(n.expression)) result.add(i);
    ts.forEachChild(n, visit);
  };
  const body = fn.body;
  visit(body);
  if (!ts.isBlock(body)) for (const i of joinSources(body)) result.add(i);
  const positions = resolves && tests ? [] : [...result].sort((a, b) => a - b);
  joinsMemo.set(fn, positions);
  return positions;
}

type HelperUrlArg = { callee: string; at: number[] };

/** `await got(url)`: what comes back is the remote server's answer, not a URL of the caller's (its links are the site's). */
function isUrlOpening(e: ts.Expression, pf: ParsedFile): boolean {
  let x = skipOuter(e);
  if (ts.isAwaitExpression(x)) x = skipOuter(x.expression);
  return ts.isCallExpression(x) && OPENS_URL.test(calleeName(x.expression, pf));
}
const urlArgsMemo = new WeakMap<ts.Node, HelperUrlArg[]>();
/** Callees that open a URL: HTTP clients and a browser page (the rule decides which count). */
const OPENS_URL = /^(fetch|node-fetch|cross-fetch|axios|got|got-scraping|gotScraping|ky|superagent|undici)(\.\w+)?$|(^|\.)(get|post|put|patch|delete|head|request|goto|fetch|gotScraping)$/;

/**
 * The calls inside `helper` (and the helpers it calls in turn) whose URL argument comes from its parameters, by
 * position: `Fetcher._fetch({ url })` calling `fetch(url)`. None when the helper looks at the URL itself: `new URL(p)`
 * whose protocol or host it then compares, a `.startsWith` on a parameter, or a validator named for URLs.
 */
function urlArgsInHelper(helper: HelperFn, ctx: EvalContext, depth = 0): HelperUrlArg[] {
  const { fn, pf } = helper;
  const known = urlArgsMemo.get(fn);
  if (known) return known;
  urlArgsMemo.set(fn, []); // recursion guard
  const tainted = new Map<string, Set<number>>();
  fn.parameters.forEach((p, i) => {
    if (ts.isIdentifier(p.name)) tainted.set(p.name.text, new Set([i]));
    // `{ url, headers }` of an options parameter: its fields come from the caller's object.
    else if (ts.isObjectBindingPattern(p.name)) for (const el of p.name.elements) if (ts.isIdentifier(el.name)) tainted.set(el.name.text, new Set([i]));
  });
  const sourcesIn = (node: ts.Node, into: Set<number>): Set<number> => {
    if (ts.isIdentifier(node)) for (const i of tainted.get(node.text) ?? []) into.add(i);
    else ts.forEachChild(node, (c) => void sourcesIn(c, into));
    return into;
  };
  const out: HelperUrlArg[] = [];
  let parses = false;
  let compares = false;
  let checks = false;
  const visit = (n: ts.Node): void => {
    if (n !== fn && isFunctionLikeKind(n.kind)) return;
    if (ts.isVariableDeclaration(n) && n.initializer && ts.isIdentifier(n.name) && !isUrlOpening(n.initializer, pf)) {
      const t = sourcesIn(n.initializer, new Set());
      if (t.size) tainted.set(n.name.text, t);
    }
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'URL' && n.arguments?.some((a) => sourcesIn(a, new Set()).size)) parses = true;
    if (ts.isPropertyAccessExpression(n) && /^(protocol|hostname|host|origin)$/.test(n.name.text) && ts.isBinaryExpression(n.parent)) compares = true;
    if (ts.isCallExpression(n)) {
      const callee = calleeName(n.expression, pf);
      const touches = n.arguments.some((a) => sourcesIn(a, new Set()).size > 0);
      if (touches && URL_CHECK.test(callee)) checks = true;
      if (ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'startsWith' && sourcesIn(n.expression.expression, new Set()).size) checks = true;
      if (ts.isPropertyAccessExpression(n.expression) && /^(includes|has)$/.test(n.expression.name.text) && touches) compares = true;
      const urlArg = OPENS_URL.test(callee) ? urlArgument(n, callee) : undefined;
      const at = urlArg ? sourcesIn(urlArg, new Set()) : undefined;
      if (at?.size) out.push({ callee, at: [...at] });
      else if (touches && depth < 3) {
        const inner = calleeFunction(n.expression, pf, ctx);
        if (inner && inner.fn !== fn)
          for (const u of urlArgsInHelper(inner, ctx, depth + 1)) {
            const reach = new Set<number>();
            for (const i of u.at) if (n.arguments[i]) sourcesIn(n.arguments[i], reach);
            if (reach.size) out.push({ callee: u.callee, at: [...reach] });
          }
      }
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) visit(fn.body);
  const result = checks || (parses && compares) ? [] : out;
  urlArgsMemo.set(fn, result);
  return result;
}

/** `new Set([...a, ...b])`: a new set (a's members first), without the two intermediate arrays. */
function union(a: Set<string> | undefined, b: Set<string>): Set<string> {
  const out = new Set(a);
  for (const s of b) out.add(s);
  return out;
}

/** The identifier a call chain starts from: `JSON` in `JSON.stringify(x)`, `a` in `a.b.c()`. */
function rootIdentifier(node: ts.Expression): ts.Identifier | undefined {
  let e = skipOuter(node);
  for (;;) {
    if (ts.isCallExpression(e) || ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = skipOuter(e.expression);
    else return ts.isIdentifier(e) ? e : undefined;
  }
}

function staticValue(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): { v: unknown } | undefined {
  // A call on a global (`JSON.stringify(items)`, `String(x)`) is never static: known without evaluating (a failed
  // evaluation throws, which costs more than the rest of a handler's facts).
  const n = skipOuter(node);
  if (ts.isCallExpression(n)) {
    const root = rootIdentifier(n.expression);
    if (root && !lookupName(root.text, root, pf)) return undefined;
  }
  try {
    return { v: evaluateDetached(node, pf, ctx) };
  } catch {
    return undefined;
  }
}

function staticString(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): string | undefined {
  const r = staticValue(node, pf, ctx);
  return typeof r?.v === 'string' ? r.v : undefined;
}

/** Stands for a part of a text only known at run time (`${id}`, `"..." + id`). */
const RUNTIME_PART = '\u2026';

/**
 * The text a model reads from a string expression: static parts as written, each run-time part as "…"
 * (`Ticket ${id} not found` -> "Ticket … not found"). Undefined when nothing of it is static.
 */
function textOfExpression(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): string | undefined {
  const whole = staticString(node, pf, ctx);
  if (whole !== undefined) return whole;
  const e = skipOuter(node);
  const part = (x: ts.Expression): string => {
    const r = staticValue(x, pf, ctx);
    if (r && (typeof r.v === 'string' || typeof r.v === 'number' || typeof r.v === 'boolean')) return String(r.v);
    const inner = skipOuter(x);
    if (ts.isTemplateExpression(inner) || isStringConcat(inner)) return textOfExpression(inner, pf, ctx) ?? RUNTIME_PART;
    return RUNTIME_PART;
  };
  if (ts.isTemplateExpression(e)) {
    let out = e.head.text;
    for (const span of e.templateSpans) out += part(span.expression) + span.literal.text;
    return out;
  }
  if (isStringConcat(e)) {
    const text = part(e.left) + part(e.right);
    return text.replaceAll(RUNTIME_PART, '') === '' ? undefined : text;
  }
  return undefined;
}

/** `a + b` where at least one side is written as a string (so the result is text). */
function isStringConcat(e: ts.Expression): e is ts.BinaryExpression {
  if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== SK.PlusToken) return false;
  const side = (x: ts.Expression): boolean => {
    const s = skipOuter(x);
    return ts.isStringLiteralLike(s) || ts.isTemplateExpression(s) || isStringConcat(s);
  };
  return side(e.left) || side(e.right);
}

function propName(p: ts.ObjectLiteralElementLike, pf: ParsedFile): string | undefined {
  if (!p.name) return undefined;
  if (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) return p.name.text;
  return p.name.getText(pf.sf);
}

/** The value of `key: value` / `{ key }` in an object literal. */
function propValue(p: ts.ObjectLiteralElementLike): ts.Expression | undefined {
  if (ts.isPropertyAssignment(p)) return p.initializer;
  if (ts.isShorthandPropertyAssignment(p)) return p.name;
  return undefined;
}

/** The callee is written exactly `String` / `JSON.stringify` (the syntax is checked first: getText allocates). */
function isNamedCallee(e: ts.Expression, pf: ParsedFile, written: 'String' | 'JSON.stringify'): boolean {
  if (written === 'String') {
    if (!ts.isIdentifier(e) || e.text !== 'String') return false;
  } else if (!ts.isPropertyAccessExpression(e) || e.name.text !== 'stringify' || !ts.isIdentifier(e.expression) || e.expression.text !== 'JSON') return false;
  return e.getText(pf.sf) === written;
}

function leaksIn(node: ts.Node, pf: ParsedFile, catchVars: Set<string>): ReturnFact['leaks'] {
  const out: ReturnFact['leaks'] = [];
  const isErr = (e: ts.Expression): boolean => {
    const x = skipOuter(e);
    return ts.isIdentifier(x) && (catchVars.has(x.text) || /^(e|err|error|ex|exc|exception)$/.test(x.text));
  };
  const visit = (n: ts.Node): void => {
    switch (n.kind) {
      case SK.PropertyAccessExpression: {
        const p = n as ts.PropertyAccessExpression;
        if (p.name.text === 'stack' && isErr(p.expression)) out.push({ kind: 'stack', span: spanOf(n, pf) });
        break;
      }
      case SK.CallExpression: {
        const c = n as ts.CallExpression;
        if (isNamedCallee(c.expression, pf, 'String') || isNamedCallee(c.expression, pf, 'JSON.stringify')) {
          if (c.arguments[0] && isErr(c.arguments[0])) out.push({ kind: 'stringified-error', span: spanOf(n, pf) });
        } else if (ts.isPropertyAccessExpression(c.expression) && c.expression.name.text === 'toString' && isErr(c.expression.expression)) out.push({ kind: 'stringified-error', span: spanOf(n, pf) });
        break;
      }
      case SK.TemplateSpan: {
        const t = n as ts.TemplateSpan;
        if (isErr(t.expression)) out.push({ kind: 'stringified-error', span: spanOf(t.expression, pf) });
        break;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** `throw new Error("...")`: the exception, the message the SDK sends the model (error.message), leaked internals. */
function throwFact(st: ts.ThrowStatement, sc: Scope): HandlerDefinition['raises'][number] {
  const { pf, ctx } = sc;
  const e = skipOuter(st.expression);
  let exception = 'unknown';
  let messageNode: ts.Expression | undefined;
  if ((ts.isNewExpression(e) || ts.isCallExpression(e)) && e.expression) {
    const ctor = skipOuter(e.expression);
    // The name as written (`Error`, `errors.NotFound`), like the Python front-end's `raise X(...)`.
    exception = ts.isIdentifier(ctor) || ts.isPropertyAccessExpression(ctor) ? ctor.getText(pf.sf) : calleeName(ctor, pf);
    // McpError(code, message): the message is the second argument.
    messageNode = e.arguments?.[/(^|\.)McpError$/.test(exception) ? 1 : 0];
  } else if (ts.isIdentifier(e)) exception = e.text;
  else if (ts.isStringLiteralLike(e) || ts.isTemplateExpression(e) || isStringConcat(e)) {
    exception = 'string';
    messageNode = e;
  }
  const message = messageNode ? textOfExpression(messageNode, pf, ctx) : undefined;
  const leaks = leaksIn(st.expression, pf, sc.catchVars);
  return { exception, span: spanOf(st, pf), ...(message !== undefined ? { message } : {}), ...(leaks.length ? { leaks } : {}) };
}

function returnFact(expr0: ts.Expression | undefined, at: ts.Node, sc: Scope): ReturnFact {
  const { pf, ctx } = sc;
  const span: Span = spanOf(at, pf);
  if (!expr0) return { span, texts: [], looksLikeError: false, valueKind: 'none', leaks: [] };
  let expr = skipOuter(expr0);
  if (ts.isAwaitExpression(expr)) expr = skipOuter(expr.expression);
  const leaks = leaksIn(expr, pf, sc.catchVars);
  const valueSpan = spanOf(expr0, pf);
  if (ts.isObjectLiteralExpression(expr)) {
    const keys: string[] = [];
    const texts: string[] = [];
    let hasText = false;
    // content items that are not a literal text block: a variable, a spread, an image/audio/resource block.
    let hasOtherContent = false;
    let isError: boolean | undefined;
    let looksLikeError = false;
    let structuredNode: ts.Expression | undefined;
    let contentArray: ts.ArrayLiteralExpression | undefined;
    // Candidates for the error message, best first: `error: "..."`, an error-looking text, `JSON.stringify({ error })`, the first text.
    let errorValue: ts.Expression | undefined;
    let errorText: ts.Expression | undefined;
    let stringifiedError: ts.Expression | undefined;
    let firstText: ts.Expression | undefined;
    for (const p of expr.properties) {
      const k = ts.isSpreadAssignment(p) ? undefined : propName(p, pf);
      if (k === undefined) continue;
      keys.push(k);
      if (k === 'error') {
        looksLikeError = true;
        errorValue ??= propValue(p);
      }
      if (k === 'structuredContent') structuredNode = propValue(p);
      if (k === 'isError' && ts.isPropertyAssignment(p)) isError = p.initializer.kind === SK.TrueKeyword ? true : p.initializer.kind === SK.FalseKeyword ? false : undefined;
      if (k === 'content' && ts.isPropertyAssignment(p)) {
        const arr = skipOuter(p.initializer);
        if (!ts.isArrayLiteralExpression(arr)) hasOtherContent = true;
        if (ts.isArrayLiteralExpression(arr)) {
          contentArray = arr;
          for (const item of arr.elements) {
            const o = skipOuter(item);
            if (!ts.isObjectLiteralExpression(o)) {
              hasOtherContent = true;
              continue;
            }
            const type = o.properties.find((q) => propName(q, pf) === 'type');
            const typeValue = type && ts.isPropertyAssignment(type) ? staticString(type.initializer, pf, ctx) : undefined;
            if (typeValue !== 'text') {
              hasOtherContent = true;
              continue;
            }
            hasText = true;
            const text = o.properties.find((q) => propName(q, pf) === 'text');
            if (text && ts.isPropertyAssignment(text)) {
              const tExpr = skipOuter(text.initializer);
              firstText ??= tExpr;
              const s = textOfExpression(tExpr, pf, ctx);
              if (s !== undefined) {
                texts.push(s);
                if (ERRORISH.test(s)) {
                  looksLikeError = true;
                  errorText ??= tExpr;
                }
              } else if (ts.isCallExpression(tExpr) && isNamedCallee(tExpr.expression, pf, 'JSON.stringify') && tExpr.arguments[0]) {
                const arg = skipOuter(tExpr.arguments[0]);
                const errProp = ts.isObjectLiteralExpression(arg) ? arg.properties.find((q) => propName(q, pf) === 'error') : undefined;
                if (errProp) {
                  looksLikeError = true;
                  stringifiedError ??= propValue(errProp) ?? tExpr;
                }
              }
            }
          }
        }
      }
    }
    const last = expr.properties[expr.properties.length - 1];
    const fact: ReturnFact = {
      span,
      keys,
      hasTextContent: hasText,
      ...(hasOtherContent ? { hasOtherContent } : {}),
      hasStructuredContent: keys.includes('structuredContent'),
      isError,
      texts,
      looksLikeError,
      valueKind: 'object',
      leaks,
      objectEndOffset: last ? last.getEnd() : expr.getStart(pf.sf) + 1,
      valueSpan,
      objectStartOffset: expr.getStart(pf.sf) + 1,
    };
    if (structuredNode) {
      fact.structuredContentSpan = spanOf(structuredNode, pf);
      const shape = objectShape(structuredNode, pf, sc, 0);
      if (shape) fact.structuredShape = shape;
    }
    if (contentArray) fact.contentArraySpan = spanOf(contentArray, pf);
    const message = looksLikeError || isError === true ? (errorValue ?? errorText ?? stringifiedError ?? firstText) : undefined;
    if (message) fact.errorMessageSpan = spanOf(message, pf);
    return fact;
  }
  if (ts.isStringLiteralLike(expr) || ts.isTemplateExpression(expr) || isStringConcat(expr)) {
    const s = textOfExpression(expr, pf, ctx) ?? '';
    const looksLikeError = ERRORISH.test(s);
    return { span, texts: [s], looksLikeError, valueKind: 'string', leaks, valueSpan, ...(looksLikeError ? { errorMessageSpan: spanOf(expr, pf) } : {}) };
  }
  if (ts.isArrayLiteralExpression(expr)) return { span, texts: [], looksLikeError: false, valueKind: 'list', leaks, valueSpan };
  if (expr.kind === SK.NullKeyword || (ts.isIdentifier(expr) && expr.text === 'undefined')) return { span, texts: [], looksLikeError: false, valueKind: 'none', leaks, valueSpan };
  return { span, texts: [], looksLikeError: false, valueKind: 'other', leaks, valueSpan };
}

// ---- the shape of structuredContent -----------------------------------------------------------------------------
//
// What a type checker would say about the top-level properties, read from the syntax (a Program with the SDK's
// and zod's types is far too slow to build on each keystroke): literals, consts and locals, type annotations and
// `as` assertions, the handler's arguments (typed by the published inputSchema). "unknown" where it cannot tell.

type ShapeKind = NonNullable<ReturnFact['structuredShape']>[number]['kind'];
type Shape = NonNullable<ReturnFact['structuredShape']>;
interface KindFact {
  kind: ShapeKind;
  optional?: boolean;
}
const UNKNOWN: KindFact = { kind: 'unknown' };
const MAX_SHAPE_DEPTH = 8;

function stripValue(e: ts.Expression): ts.Expression {
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
    else if ((ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) && isConstType(e.type)) e = e.expression;
    else return e;
  }
}
function isConstType(t: ts.TypeNode): boolean {
  return ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName) && t.typeName.text === 'const';
}

function isWithin(inner: ts.Node, outer: ts.Node): boolean {
  return inner.pos >= outer.pos && inner.end <= outer.end;
}

type Binding = { kind: 'local'; decl: ts.VariableDeclaration; pf: ParsedFile } | { kind: 'arg'; prop: string; defaulted: boolean };

/** A name used in the handler: a local of the handler, one of the tool arguments, or a const outside it. */
function bindingOf(id: ts.Identifier, pf: ParsedFile, sc: Scope): Binding | undefined {
  const d = lookupName(id.text, id, pf);
  if (d?.kind === 'var' && pf === sc.pf && isWithin(d.node, sc.fn)) return { kind: 'local', decl: d.node, pf };
  if (pf === sc.pf && isWithin(id, sc.fn)) {
    const a = sc.argProps.get(id.text);
    if (a) return { kind: 'arg', ...a };
  }
  if (d?.kind === 'var' && ts.isVariableDeclarationList(d.node.parent) && d.node.parent.flags & ts.NodeFlags.Const) return { kind: 'local', decl: d.node, pf: d.pf };
  return undefined;
}

function inputKind(prop: string, defaulted: boolean, sc: Scope): KindFact {
  const schema = sc.inputProps?.[prop];
  if (!schema) return UNKNOWN;
  const optional = !defaulted && !sc.required.has(prop) && !('default' in schema);
  const t = schema.type;
  let kind: ShapeKind = 'unknown';
  if (typeof t === 'string' && ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'].includes(t)) kind = t as ShapeKind;
  return optional ? { kind, optional } : { kind };
}

/** The top-level properties of the object an expression evaluates to, or undefined when they are not all known. */
function objectShape(e0: ts.Expression, pf: ParsedFile, sc: Scope, depth: number): Shape | undefined {
  if (depth > MAX_SHAPE_DEPTH) return undefined;
  const e = stripValue(e0);
  if (ts.isAwaitExpression(e)) return objectShape(e.expression, pf, sc, depth + 1);
  if (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) {
    // `x as T` has the type T, whatever x is; a T we cannot read leaves the object literal it asserts, if any.
    const inner = stripValue(e.expression);
    return typeShape(e.type, pf, depth + 1) ?? (ts.isObjectLiteralExpression(inner) ? objectShape(inner, pf, sc, depth + 1) : undefined);
  }
  if (ts.isIdentifier(e)) {
    const b = bindingOf(e, pf, sc);
    if (b?.kind !== 'local') return undefined;
    if (b.decl.type) return typeShape(b.decl.type, b.pf, depth + 1);
    return b.decl.initializer && ts.isIdentifier(b.decl.name) ? objectShape(b.decl.initializer, b.pf, sc, depth + 1) : undefined;
  }
  if (!ts.isObjectLiteralExpression(e)) return undefined;
  const out: Shape = [];
  const put = (p: Shape[number]) => {
    const i = out.findIndex((q) => q.name === p.name);
    if (i >= 0) out.splice(i, 1);
    out.push(p);
  };
  for (const p of e.properties) {
    if (ts.isSpreadAssignment(p)) {
      const inner = objectShape(p.expression, pf, sc, depth + 1);
      if (!inner) return undefined; // properties we cannot list: no shape rather than a wrong one
      for (const q of inner) put(q);
      continue;
    }
    if (ts.isMethodDeclaration(p)) continue; // functions are dropped by JSON
    const name = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name) || ts.isNoSubstitutionTemplateLiteral(p.name)) ? p.name.text : undefined;
    if (name === undefined) return undefined;
    const value = propValue(p);
    const k = value ? kindOf(value, pf, sc, depth + 1) : UNKNOWN;
    put(k.optional ? { name, kind: k.kind, optional: true } : { name, kind: k.kind });
  }
  return out;
}

const STRING_METHODS = new Set([
  'toString',
  'toFixed',
  'toPrecision',
  'toISOString',
  'toJSON',
  'toUTCString',
  'toDateString',
  'toLocaleString',
  'toLocaleDateString',
  'toLocaleTimeString',
  'join',
  'trim',
  'trimStart',
  'trimEnd',
  'toUpperCase',
  'toLowerCase',
  'padStart',
  'padEnd',
  'replace',
  'replaceAll',
  'substring',
  'charAt',
  'repeat',
  'normalize',
]);
const NUMBER_METHODS = new Set(['indexOf', 'lastIndexOf', 'findIndex', 'findLastIndex', 'charCodeAt', 'localeCompare', 'getTime', 'valueOf', 'push', 'unshift']);
const BOOLEAN_METHODS = new Set(['includes', 'startsWith', 'endsWith', 'some', 'every', 'has', 'test', 'isArray', 'isInteger', 'isFinite', 'isNaN', 'isSafeInteger']);
const ARRAY_METHODS = new Set(['map', 'filter', 'flatMap', 'flat', 'sort', 'toSorted', 'reverse', 'toReversed', 'concat', 'split', 'keys', 'values', 'entries', 'from', 'of', 'match', 'matchAll']);
const STRING_FUNCTIONS = new Set(['String', 'encodeURIComponent', 'encodeURI', 'decodeURIComponent', 'decodeURI']);
const NUMBER_FUNCTIONS = new Set(['Number', 'parseInt', 'parseFloat']);

function same(a: KindFact, b: KindFact, optional = false): KindFact {
  const kind = a.kind === b.kind ? a.kind : 'unknown';
  return optional || a.optional || b.optional ? { kind, optional: true } : { kind };
}
const isUndefined = (e: ts.Expression): boolean => {
  const x = stripValue(e);
  return (ts.isIdentifier(x) && x.text === 'undefined') || ts.isVoidExpression(x);
};

/** The JSON type of a value expression. */
function kindOf(e0: ts.Expression, pf: ParsedFile, sc: Scope, depth: number): KindFact {
  if (depth > MAX_SHAPE_DEPTH) return UNKNOWN;
  const e = stripValue(e0);
  switch (e.kind) {
    case SK.StringLiteral:
    case SK.NoSubstitutionTemplateLiteral:
    case SK.TemplateExpression:
      return { kind: 'string' };
    case SK.NumericLiteral:
      return { kind: 'number' };
    case SK.TrueKeyword:
    case SK.FalseKeyword:
      return { kind: 'boolean' };
    case SK.NullKeyword:
      return { kind: 'null' };
    case SK.ArrayLiteralExpression:
      return { kind: 'array' };
    case SK.ObjectLiteralExpression:
      return { kind: 'object' };
  }
  if (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) {
    const t = typeKind(e.type, pf, depth + 1);
    return t.kind === 'unknown' && !t.optional ? kindOf(e.expression, pf, sc, depth + 1) : t;
  }
  if (ts.isAwaitExpression(e)) return kindOf(e.expression, pf, sc, depth + 1);
  if (ts.isPrefixUnaryExpression(e)) {
    if (e.operator === SK.ExclamationToken) return { kind: 'boolean' };
    return { kind: 'number' };
  }
  if (ts.isTypeOfExpression(e)) return { kind: 'string' };
  if (ts.isConditionalExpression(e)) {
    if (isUndefined(e.whenTrue)) return { ...kindOf(e.whenFalse, pf, sc, depth + 1), optional: true };
    if (isUndefined(e.whenFalse)) return { ...kindOf(e.whenTrue, pf, sc, depth + 1), optional: true };
    return same(kindOf(e.whenTrue, pf, sc, depth + 1), kindOf(e.whenFalse, pf, sc, depth + 1));
  }
  if (ts.isBinaryExpression(e)) return binaryKind(e, pf, sc, depth);
  if (ts.isIdentifier(e)) return identifierKind(e, pf, sc, depth);
  if (ts.isPropertyAccessExpression(e)) return propertyKind(e, pf, sc, depth);
  if (ts.isCallExpression(e)) return callKind(e);
  return UNKNOWN;
}

function binaryKind(e: ts.BinaryExpression, pf: ParsedFile, sc: Scope, depth: number): KindFact {
  const op = e.operatorToken.kind;
  switch (op) {
    case SK.EqualsEqualsToken:
    case SK.EqualsEqualsEqualsToken:
    case SK.ExclamationEqualsToken:
    case SK.ExclamationEqualsEqualsToken:
    case SK.LessThanToken:
    case SK.LessThanEqualsToken:
    case SK.GreaterThanToken:
    case SK.GreaterThanEqualsToken:
    case SK.InstanceOfKeyword:
    case SK.InKeyword:
      return { kind: 'boolean' };
    case SK.MinusToken:
    case SK.AsteriskToken:
    case SK.SlashToken:
    case SK.PercentToken:
    case SK.AsteriskAsteriskToken:
      return { kind: 'number' };
    case SK.PlusToken: {
      const l = kindOf(e.left, pf, sc, depth + 1);
      const r = kindOf(e.right, pf, sc, depth + 1);
      if (l.kind === 'string' || r.kind === 'string') return { kind: 'string' };
      if ((l.kind === 'number' || l.kind === 'integer') && (r.kind === 'number' || r.kind === 'integer')) return { kind: 'number' };
      return UNKNOWN;
    }
    case SK.QuestionQuestionToken:
    case SK.BarBarToken:
      // `x ?? fallback`: the fallback fills the hole.
      return { kind: same(kindOf(e.left, pf, sc, depth + 1), kindOf(e.right, pf, sc, depth + 1)).kind };
    case SK.AmpersandAmpersandToken:
      return same(kindOf(e.left, pf, sc, depth + 1), kindOf(e.right, pf, sc, depth + 1));
    default:
      return UNKNOWN;
  }
}

/** `undefined`, a handler argument (its input schema type), or a local's declared type or initializer. */
function identifierKind(e: ts.Identifier, pf: ParsedFile, sc: Scope, depth: number): KindFact {
  if (e.text === 'undefined') return { kind: 'unknown', optional: true };
  const b = bindingOf(e, pf, sc);
  if (!b) return UNKNOWN;
  if (b.kind === 'arg') return inputKind(b.prop, b.defaulted, sc);
  if (b.decl.type) return typeKind(b.decl.type, b.pf, depth + 1);
  return b.decl.initializer && ts.isIdentifier(b.decl.name) ? kindOf(b.decl.initializer, b.pf, sc, depth + 1) : UNKNOWN;
}

/** A property of the handler's args object, `.length`, or a property of an object whose shape is known. */
function propertyKind(e: ts.PropertyAccessExpression, pf: ParsedFile, sc: Scope, depth: number): KindFact {
  const base = stripValue(e.expression);
  if (sc.argsObject && pf === sc.pf && ts.isIdentifier(base) && base.text === sc.argsObject && isWithin(e, sc.fn)) return inputKind(e.name.text, false, sc);
  if (e.name.text === 'length') return { kind: 'number' };
  // A property of an object whose shape is known (`summary.total`).
  const shape = objectShape(base, pf, sc, depth + 1);
  const p = shape?.find((q) => q.name === e.name.text);
  return p ? { kind: p.kind, ...(p.optional ? { optional: true } : {}) } : UNKNOWN;
}

/** What a call returns, when the callee is a known global (`String`, `JSON.stringify`, `Math.*`) or method name. */
function callKind(e: ts.CallExpression): KindFact {
  const callee = stripValue(e.expression);
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  if (name === undefined) return UNKNOWN;
  if (ts.isIdentifier(callee)) {
    if (STRING_FUNCTIONS.has(name)) return { kind: 'string' };
    if (NUMBER_FUNCTIONS.has(name)) return { kind: 'number' };
    if (name === 'Boolean' || name === 'isNaN' || name === 'isFinite') return { kind: 'boolean' };
    return UNKNOWN;
  }
  const owner = ts.isPropertyAccessExpression(callee) ? stripValue(callee.expression) : undefined;
  const ownerName = owner && ts.isIdentifier(owner) ? owner.text : undefined;
  if (ownerName === 'JSON' && name === 'stringify') return { kind: 'string' };
  if (ownerName === 'Math') return { kind: 'number' };
  if (ownerName === 'Date' && name === 'now') return { kind: 'number' };
  if (ownerName === 'Object' && (name === 'keys' || name === 'values' || name === 'entries')) return { kind: 'array' };
  if (ownerName === 'Object' && (name === 'fromEntries' || name === 'assign')) return { kind: 'object' };
  if (ownerName === 'Array' && name === 'isArray') return { kind: 'boolean' };
  if (ownerName === 'Number' && (name === 'parseInt' || name === 'parseFloat')) return { kind: 'number' };
  if (STRING_METHODS.has(name)) return { kind: 'string' };
  if (NUMBER_METHODS.has(name)) return { kind: 'number' };
  if (BOOLEAN_METHODS.has(name)) return { kind: 'boolean' };
  if (ARRAY_METHODS.has(name)) {
    // `Object.keys/values/entries` are handled above; `x.keys()` of a Map is an iterator: not JSON.
    if (name === 'keys' || name === 'values' || name === 'entries') return UNKNOWN;
    return { kind: 'array' };
  }
  return UNKNOWN;
}

/** Declarations of `interface X` / `type X = ...` at the top level of a file. */
function typeDeclaration(name: string, pf: ParsedFile): ts.InterfaceDeclaration | ts.TypeAliasDeclaration | undefined {
  for (const st of pf.sf.statements) {
    if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name.text === name) return st;
  }
  return undefined;
}

function typeKind(t: ts.TypeNode, pf: ParsedFile, depth: number): KindFact {
  if (depth > MAX_SHAPE_DEPTH) return UNKNOWN;
  switch (t.kind) {
    case SK.StringKeyword:
    case SK.TemplateLiteralType:
      return { kind: 'string' };
    case SK.NumberKeyword:
      return { kind: 'number' };
    case SK.BooleanKeyword:
      return { kind: 'boolean' };
    case SK.UndefinedKeyword:
      return { kind: 'unknown', optional: true };
    case SK.ArrayType:
    case SK.TupleType:
      return { kind: 'array' };
    case SK.TypeLiteral:
    case SK.MappedType:
      return { kind: 'object' };
  }
  if (ts.isParenthesizedTypeNode(t)) return typeKind(t.type, pf, depth + 1);
  if (ts.isTypeOperatorNode(t) && t.operator === SK.ReadonlyKeyword) return typeKind(t.type, pf, depth + 1);
  if (ts.isLiteralTypeNode(t)) {
    const l = t.literal;
    if (ts.isStringLiteral(l) || ts.isNoSubstitutionTemplateLiteral(l)) return { kind: 'string' };
    if (ts.isNumericLiteral(l) || ts.isPrefixUnaryExpression(l)) return { kind: 'number' };
    if (l.kind === SK.TrueKeyword || l.kind === SK.FalseKeyword) return { kind: 'boolean' };
    if (l.kind === SK.NullKeyword) return { kind: 'null' };
    return UNKNOWN;
  }
  if (ts.isUnionTypeNode(t)) {
    let optional = false;
    let kind: ShapeKind | undefined;
    for (const m of t.types) {
      const k = typeKind(m, pf, depth + 1);
      if (m.kind === SK.UndefinedKeyword) {
        optional = true;
        continue;
      }
      kind = kind === undefined || kind === k.kind ? k.kind : 'unknown';
    }
    return optional ? { kind: kind ?? 'unknown', optional } : { kind: kind ?? 'unknown' };
  }
  if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName)) {
    const n = t.typeName.text;
    if (n === 'Array' || n === 'ReadonlyArray') return { kind: 'array' };
    if (n === 'Record') return { kind: 'object' };
    const d = typeDeclaration(n, pf);
    if (d && ts.isInterfaceDeclaration(d)) return { kind: 'object' };
    if (d && ts.isTypeAliasDeclaration(d)) return typeKind(d.type, pf, depth + 1);
  }
  return UNKNOWN;
}

/** The properties a type annotation declares (type literals, local interfaces and aliases, intersections). */
function typeShape(t: ts.TypeNode, pf: ParsedFile, depth: number): Shape | undefined {
  if (depth > MAX_SHAPE_DEPTH) return undefined;
  if (ts.isParenthesizedTypeNode(t)) return typeShape(t.type, pf, depth + 1);
  const fromMembers = (members: ts.NodeArray<ts.TypeElement>, out: Shape): Shape | undefined => {
    for (const m of members) {
      if (ts.isMethodSignature(m)) continue;
      if (!ts.isPropertySignature(m)) return undefined; // index signatures, call signatures: not a fixed shape
      const name = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) || ts.isNumericLiteral(m.name) ? m.name.text : undefined;
      if (name === undefined) return undefined;
      const k = m.type ? typeKind(m.type, pf, depth + 1) : UNKNOWN;
      const i = out.findIndex((q) => q.name === name);
      if (i >= 0) out.splice(i, 1);
      out.push(m.questionToken || k.optional ? { name, kind: k.kind, optional: true } : { name, kind: k.kind });
    }
    return out;
  };
  if (ts.isTypeLiteralNode(t)) return fromMembers(t.members, []);
  if (ts.isIntersectionTypeNode(t)) {
    const out: Shape = [];
    for (const m of t.types) {
      const s = typeShape(m, pf, depth + 1);
      if (!s) return undefined;
      for (const p of s) {
        const i = out.findIndex((q) => q.name === p.name);
        if (i >= 0) out.splice(i, 1);
        out.push(p);
      }
    }
    return out;
  }
  if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName) && !t.typeArguments) return namedTypeShape(t.typeName.text, pf, depth + 1, fromMembers);
  return undefined;
}

/** `interface X extends Y { ... }` / `type X = ...` declared at the top level of the file. */
function namedTypeShape(name: string, pf: ParsedFile, depth: number, fromMembers: (m: ts.NodeArray<ts.TypeElement>, out: Shape) => Shape | undefined): Shape | undefined {
  const d = typeDeclaration(name, pf);
  if (!d || d.typeParameters || depth > MAX_SHAPE_DEPTH) return undefined;
  if (ts.isTypeAliasDeclaration(d)) return typeShape(d.type, pf, depth + 1);
  const out: Shape = [];
  for (const h of d.heritageClauses ?? []) {
    for (const base of h.types) {
      if (!ts.isIdentifier(base.expression) || base.typeArguments) return undefined;
      const s = namedTypeShape(base.expression.text, pf, depth + 1, fromMembers);
      if (!s) return undefined;
      out.push(...s);
    }
  }
  return fromMembers(d.members, out);
}

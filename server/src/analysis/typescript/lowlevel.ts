/**
 * The TypeScript SDK's low-level `Server`: `server.setRequestHandler(ListToolsRequestSchema, handler)`, whose
 * handler returns `{ tools: [...] }`. The published tools are those objects as written — JSON Schema literals,
 * `zodToJsonSchema(...)` calls, constants of this file or imported ones — read statically, one tool per array
 * entry. What cannot be read (a list built at run time, a handler returning in several places) is a tool whose
 * parts are unresolved with the reason, never dropped: the file says it has a server whose tools it cannot see.
 */
import ts from './ts';
import type { Framework, JsonSchema, Located, ParameterDefinition, Span, ToolDefinition, Unresolved } from '../model';
import { lowLevelToolContract } from '../../contract/typescript/lowlevel';
import { evaluate, FnExpr, Unresolvable, type EvalContext, type ServerRef } from './evaluate';
import { resolveHandler } from './handler';
import { conditionOf, listAlternatives, type ListEntry } from './alternatives';
import { lookupName, mutationsOf, skipOuter, spanOf, type ParsedFile } from './project';

interface Where {
  node: ts.Node;
  pf: ParsedFile;
}

/**
 * `__awaiter(this, void 0, void 0, function* () { ... })`: an async function as TypeScript compiles it for an older
 * target. What the generator returns is what the async function resolves to.
 */
function downlevelAsyncBody(e: ts.Expression): ts.FunctionExpression | undefined {
  const call = skipOuter(e);
  if (!ts.isCallExpression(call) || call.arguments.length !== 4) return undefined;
  const callee = skipOuter(call.expression);
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  const gen = skipOuter(call.arguments[3]);
  return name === '__awaiter' && ts.isFunctionExpression(gen) && gen.asteriskToken ? gen : undefined;
}

/** The expressions a handler returns (its expression body, or every `return` not inside a nested function). */
export function returnedExpressions(fn: ts.FunctionLikeDeclaration): ts.Expression[] {
  const body = fn.body;
  if (!body) return [];
  const downlevel = ts.isBlock(body)
    ? body.statements.length === 1 && ts.isReturnStatement(body.statements[0]) && body.statements[0].expression
      ? downlevelAsyncBody(body.statements[0].expression)
      : undefined
    : downlevelAsyncBody(body);
  if (downlevel) return returnedExpressions(downlevel);
  if (!ts.isBlock(body)) return [body];
  const out: ts.Expression[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) || ts.isClassLike(n)) return;
    if (ts.isReturnStatement(n) && n.expression) out.push(n.expression);
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

/**
 * The literal an expression is written as, following consts of this file and imported ones; `pushes` are the
 * `list.push(...)` statements the module runs on it when it loads (any other change: not a literal we can read).
 */
export function literalOf<T extends ts.Node>(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext, is: (n: ts.Node) => n is T): { node: T; pf: ParsedFile; pushes: ts.CallExpression[] } | undefined {
  let e = skipOuter(expr);
  let file = pf;
  let pushes: ts.CallExpression[] = [];
  for (let i = 0; i < 10; i++) {
    if (is(e)) return { node: e, pf: file, pushes };
    if (!ts.isIdentifier(e)) return undefined;
    let d = lookupName(e.text, e, file);
    if (d?.kind === 'import') d = ctx.project.resolveImport(d);
    if (d?.kind !== 'var' || !d.node.initializer || !(d.node.parent.flags & ts.NodeFlags.Const)) return undefined;
    // A literal changed after its declaration other than by top-level pushes: the evaluator says why it is not static.
    const changes = mutationsOf(d.node, d.pf);
    if (changes.other.length) return undefined;
    pushes = changes.pushes;
    e = skipOuter(d.node.initializer);
    file = d.pf;
  }
  return undefined;
}

export function reasonOf(err: unknown): { reason: string; span?: Span } {
  if (err instanceof Unresolvable) return { reason: err.reason, span: err.span };
  return { reason: `internal: ${err instanceof Error ? err.message : String(err)}` };
}

export function propertyName(p: ts.ObjectLiteralElementLike): string | undefined {
  if (!p.name) return undefined;
  if (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name) || ts.isNumericLiteral(p.name)) return p.name.text;
  return undefined;
}

/**
 * `wrapHandler('ListTools', wrapWithMonitoring(async () => ({ tools }), 'ListTools'))`: a handler passed through
 * wrappers (logging, metrics) that return a function whose every return is the wrapped handler's result — `return
 * handler(...)`, `return await handler(...)`, or a const holding it. The handler the server's requests reach, once
 * each wrapper is checked to be such a pass-through; undefined when one is not (it may change the result).
 */
export function throughWrappers(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): { expr: ts.Expression; pf: ParsedFile } {
  let e = skipOuter(expr);
  for (let i = 0; i < 5 && ts.isCallExpression(e); i++) {
    const wrapper = wrapperFunction(e, pf, ctx);
    const k = wrapper && passedThrough(wrapper);
    if (k === undefined || !e.arguments[k]) break;
    e = skipOuter(e.arguments[k]);
  }
  return { expr: e, pf };
}

/** The function a wrapper call runs (a function of the workspace, a method of a static object), never run itself. */
function wrapperFunction(call: ts.CallExpression, pf: ParsedFile, ctx: EvalContext): (ts.SignatureDeclaration & { body?: ts.Node }) | undefined {
  try {
    const v = evaluate(call.expression, pf, { ...ctx, unrepresentable: [] });
    return v instanceof FnExpr && v.node.body ? v.node : undefined;
  } catch {
    return undefined;
  }
}

/** Which parameter of `wrapper` its returned function passes through (see throughWrappers), if one does. */
function passedThrough(wrapper: ts.SignatureDeclaration & { body?: ts.Node }): number | undefined {
  const body = wrapper.body;
  let returned: ts.Expression | undefined;
  if (body && ts.isBlock(body)) {
    const st = body.statements;
    if (st.length === 1 && ts.isReturnStatement(st[0]) && st[0].expression) returned = st[0].expression;
  } else if (body) returned = body as ts.Expression;
  const inner = returned && skipOuter(returned);
  if (!inner || !(ts.isArrowFunction(inner) || ts.isFunctionExpression(inner))) return undefined;
  const results = returnedExpressions(inner);
  if (results.length === 0) return undefined;
  let index: number | undefined;
  for (const r of results) {
    const k = handlerCallOf(r, inner, wrapper);
    if (k === undefined || (index !== undefined && k !== index)) return undefined;
    index = k;
  }
  return index;
}

/** `h(...)`, `await h(...)` or a const of the function holding one, `h` a parameter of the wrapper: its index. */
function handlerCallOf(expr: ts.Expression, fn: ts.FunctionLikeDeclaration, wrapper: ts.SignatureDeclaration): number | undefined {
  let e = skipOuter(expr);
  if (ts.isAwaitExpression(e)) e = skipOuter(e.expression);
  if (ts.isIdentifier(e) && fn.body && ts.isBlock(fn.body)) {
    const name = e.text;
    let init: ts.Expression | undefined;
    const visit = (n: ts.Node): void => {
      if (init || ts.isFunctionLike(n)) return;
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.name.text === name && n.parent.flags & ts.NodeFlags.Const) init = n.initializer;
      else ts.forEachChild(n, visit);
    };
    ts.forEachChild(fn.body, visit);
    if (!init || changesObject(fn.body, name)) return undefined;
    e = skipOuter(init);
    if (ts.isAwaitExpression(e)) e = skipOuter(e.expression);
  }
  if (!ts.isCallExpression(e)) return undefined;
  const callee = skipOuter(e.expression);
  if (!ts.isIdentifier(callee)) return undefined;
  const k = wrapper.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === callee.text);
  return k >= 0 ? k : undefined;
}

/** Whether code writes into the object a name holds (`r.tools = x`, `r.tools.push(t)`, `delete r.x`), reading as a change. */
function changesObject(body: ts.Node, name: string): boolean {
  const rootIs = (e: ts.Expression): boolean => {
    let x = skipOuter(e);
    while (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) x = skipOuter(x.expression);
    return ts.isIdentifier(x) && x.text === name;
  };
  let found = false;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const left = skipOuter(n.left);
      if ((ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) && rootIs(left)) found = true;
    } else if (ts.isDeleteExpression(n) && rootIs(n.expression)) found = true;
    else if (ts.isCallExpression(n) && (ts.isPropertyAccessExpression(n.expression) || ts.isElementAccessExpression(n.expression)) && rootIs(n.expression.expression)) found = true;
    ts.forEachChild(n, visit);
  };
  visit(body);
  return found;
}

export function listHandlerTools(call: ts.CallExpression, pf: ParsedFile, server: ServerRef, ctx: EvalContext, framework: Framework, sdkVersion: string | undefined): ToolDefinition[] {
  const callSpan = spanOf(call, pf);
  const base = {
    server: { id: server.id, variable: server.variable, name: server.name, span: server.span },
    registration: { kind: 'add_tool' as const, span: callSpan, calleeSpan: spanOf(call.expression, pf) },
    framework,
    sdkVersion,
  };
  // What cannot be read stands for an unknown number of tools (part `tools`), one entry for exactly one (part `tool`).
  const unseen = (reason: string, at: Where, span?: Span, part: 'tools' | 'tool' = 'tools'): ToolDefinition => unseenTool(base, pf.file, reason, span ?? spanOf(at.node, at.pf), part);
  const handler = throughWrappers(call.arguments[1], pf, ctx);
  const h = resolveHandler(handler.expr, handler.pf, ctx);
  if (!h) return [unseen('the tools/list handler is not a function Toolsmith can read', { node: call.arguments[1], pf })];
  const returned = returnedExpressions(h.fn);
  if (returned.length === 0) return [unseen('the tools/list handler returns no value Toolsmith can read', { node: h.fn, pf: h.pf })];
  if (returned.length > 1) return [unseen(`the tools/list handler returns in ${returned.length} places: which list is published depends on run-time conditions`, { node: h.fn, pf: h.pf })];
  const result = literalOf(returned[0], h.pf, ctx, ts.isObjectLiteralExpression);
  const toolsProp = result?.node.properties.find((p) => propertyName(p) === 'tools');
  const toolsExpr = toolsProp && (ts.isPropertyAssignment(toolsProp) ? toolsProp.initializer : ts.isShorthandPropertyAssignment(toolsProp) ? toolsProp.name : undefined);
  if (!result || !toolsExpr) return [unseen('the tools/list handler does not return a `{ tools: [...] }` literal', { node: returned[0], pf: h.pf })];
  const list = literalOf(toolsExpr, result.pf, ctx, ts.isArrayLiteralExpression);
  const tools: ToolDefinition[] = [];
  if (!list) {
    // Not an array literal: the whole value, when it is static (an array built with a static helper call), or every
    // entry the lists it is chosen from hold, each under its condition (alternatives.ts).
    try {
      const value = evaluate(toolsExpr, result.pf, ctx);
      if (!Array.isArray(value)) return [unseen('the `tools` of the tools/list result is not an array', { node: toolsExpr, pf: result.pf })];
      for (const v of value) tools.push(toolFromValue(base, pf.file, v, { node: toolsExpr, pf: result.pf }));
      return tools;
    } catch (err) {
      const entries = alternativesOrUndefined(toolsExpr, result.pf, ctx);
      if (entries) return entries.map((entry) => conditional(toolFromValue(base, pf.file, entry.value, { node: toolsExpr, pf: result.pf }), entry));
      const r = reasonOf(err);
      return [unseen(`the tools list is not static: ${r.reason}`, { node: toolsExpr, pf: result.pf }, r.span)];
    }
  }
  for (const el of [...list.node.elements, ...list.pushes.flatMap((c) => c.arguments)]) {
    if (ts.isSpreadElement(el)) {
      try {
        const value = evaluate(el.expression, list.pf, ctx);
        if (!Array.isArray(value)) throw new Unresolvable('spread of a value that is not a static array', { node: el, pf: list.pf });
        for (const v of value) tools.push(toolFromValue(base, pf.file, v, { node: el, pf: list.pf }));
      } catch (err) {
        const entries = alternativesOrUndefined(el.expression, list.pf, ctx);
        if (entries) {
          for (const entry of entries) tools.push(conditional(toolFromValue(base, pf.file, entry.value, { node: el, pf: list.pf }), entry));
          continue;
        }
        const r = reasonOf(err);
        tools.push(unseen(`tools spread from a list that is not static: ${r.reason}`, { node: el, pf: list.pf }, r.span));
      }
      continue;
    }
    const obj = literalOf(el, list.pf, ctx, ts.isObjectLiteralExpression);
    if (obj) tools.push(toolFromLiteral(base, pf.file, obj.node, obj.pf, ctx));
    else {
      try {
        tools.push(toolFromValue(base, pf.file, evaluate(el, list.pf, ctx), { node: el, pf: list.pf }));
      } catch (err) {
        const r = reasonOf(err);
        tools.push(unseen(`a tools/list entry that is not static: ${r.reason}`, { node: el, pf: list.pf }, r.span, 'tool'));
      }
    }
  }
  return tools;
}

/** A tool read from a list chosen at run time: listed only under its entry's conditions (none: in every branch). */
function conditional(tool: ToolDefinition, entry: ListEntry): ToolDefinition {
  const condition = conditionOf(entry);
  if (condition) tool.registration = { ...tool.registration, condition };
  return tool;
}

function alternativesOrUndefined(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): ListEntry[] | undefined {
  try {
    return listAlternatives(expr, pf, ctx);
  } catch (err) {
    if (err instanceof Unresolvable) return undefined;
    throw err;
  }
}

interface Base {
  server: ToolDefinition['server'];
  registration: ToolDefinition['registration'];
  framework: Framework;
  sdkVersion: string | undefined;
}

function unseenTool(base: Base, file: string, reason: string, span: Span, part: 'tools' | 'tool' = 'tool'): ToolDefinition {
  const u: Unresolved = { part, reason, span };
  return {
    language: 'typescript',
    framework: base.framework,
    frameworkVersion: base.sdkVersion,
    file,
    server: base.server,
    registration: base.registration,
    name: { value: undefined, span, unresolved: u },
    parameters: [],
    contract: {},
    unresolved: [u],
    unrepresentable: [],
  };
}

/** One entry of a low-level list (a tool, a prompt, a resource) as read: its keys' values, where each is written, and what could not be read. */
export interface ListEntryRead {
  values: Record<string, unknown>;
  spans: Record<string, Span>;
  span: Span;
  unresolved: Unresolved[];
}

/**
 * An entry written as an object literal: each key read on its own, so one unreadable key leaves the others. `whole`
 * is the part of a row about the entry as a whole (a spread not read, a member that is not a plain property).
 */
export function entryOfLiteral(obj: ts.ObjectLiteralExpression, pf: ParsedFile, ctx: EvalContext, whole: string): ListEntryRead {
  const entry: ListEntryRead = { values: {}, spans: {}, span: spanOf(obj, pf), unresolved: [] };
  for (const p of obj.properties) {
    if (ts.isSpreadAssignment(p)) {
      try {
        const v = evaluate(p.expression, pf, ctx);
        if (typeof v === 'object' && v !== null) Object.assign(entry.values, v);
        for (const k of Object.keys(v ?? {})) entry.spans[k] = spanOf(p, pf);
      } catch (err) {
        const r = reasonOf(err);
        entry.unresolved.push({ part: whole, reason: `spread of a value that is not static: ${r.reason}`, span: r.span ?? spanOf(p, pf) });
      }
      continue;
    }
    const key = propertyName(p);
    const valueNode = ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
    if (key === undefined || !valueNode) {
      entry.unresolved.push({ part: whole, reason: 'a member that is not a plain property', span: spanOf(p, pf) });
      continue;
    }
    entry.spans[key] = spanOf(valueNode, pf);
    try {
      entry.values[key] = evaluate(valueNode, pf, ctx);
    } catch (err) {
      const r = reasonOf(err);
      entry.unresolved.push({ part: key, reason: r.reason, span: r.span ?? entry.spans[key] });
    }
  }
  return entry;
}

/** An entry evaluated whole: every key located at `span`; undefined when the value is not an object. */
export function entryOfValue(value: unknown, span: Span): ListEntryRead | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const spans: Record<string, Span> = {};
  for (const k of Object.keys(value)) spans[k] = span;
  return { values: value as Record<string, unknown>, spans, span, unresolved: [] };
}

function toolFromLiteral(base: Base, file: string, obj: ts.ObjectLiteralExpression, pf: ParsedFile, ctx: EvalContext): ToolDefinition {
  const e = entryOfLiteral(obj, pf, ctx, 'tool');
  return toolOf(base, file, e.values, e.spans, e.span, e.unresolved);
}

function toolFromValue(base: Base, file: string, value: unknown, at: Where): ToolDefinition {
  const span = spanOf(at.node, at.pf);
  const e = entryOfValue(value, span);
  if (!e) return unseenTool(base, file, 'a tools/list entry that is not an object', span);
  return toolOf(base, file, e.values, e.spans, e.span, e.unresolved);
}

function toolOf(base: Base, file: string, values: Record<string, unknown>, spans: Record<string, Span>, span: Span, unresolved: Unresolved[]): ToolDefinition {
  const built = lowLevelToolContract(values);
  const contract: JsonSchema = 'contract' in built ? built.contract : {};
  if ('error' in built) unresolved.push({ part: 'tool', reason: built.error, span });
  const located = (key: string): Located<string> | undefined => {
    const u = unresolved.find((x) => x.part === key);
    if (u) return { value: undefined, span: spans[key] ?? span, unresolved: u };
    const v = contract[key];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return { value: v, span: spans[key] ?? span };
    const bad: Unresolved = { part: key, reason: 'not a string', span: spans[key] ?? span };
    unresolved.push(bad);
    return { value: undefined, span: bad.span, unresolved: bad };
  };
  const name = located('name') ?? { value: undefined, span, unresolved: { part: 'name', reason: 'a tools/list entry without a name', span } };
  if (name.value === undefined && !unresolved.some((u) => u.part === 'name') && name.unresolved) unresolved.push(name.unresolved);
  const title = located('title');
  const description = located('description');
  const schemaSpan = spans.inputSchema ?? span;
  const schema = contract.inputSchema as { properties?: Record<string, JsonSchema>; required?: unknown } | undefined;
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const parameters: ParameterDefinition[] = Object.entries(schema?.properties ?? {}).map(([param, propSchema]) => ({
    name: param,
    nameSpan: schemaSpan,
    span: schemaSpan,
    schema: propSchema,
    required: required.includes(param),
    ...(typeof propSchema?.description === 'string' ? { description: { value: propSchema.description, span: schemaSpan, origin: 'other' as const } } : {}),
    constraints: [],
    untyped: propSchema?.type === undefined,
  }));
  const tool: ToolDefinition = {
    language: 'typescript',
    framework: base.framework,
    frameworkVersion: base.sdkVersion,
    file,
    server: base.server,
    registration: { ...base.registration, span },
    name,
    parameters,
    contract,
    unresolved,
    unrepresentable: [],
  };
  if (title) tool.title = title;
  if (description) tool.description = { ...description, origin: 'explicit' };
  if (spans.inputSchema) tool.inputSchemaSpan = spans.inputSchema;
  if (spans.outputSchema) tool.outputSchemaSpan = spans.outputSchema;
  const annotations = contract.annotations;
  if (typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations)) {
    const at = spans.annotations ?? span;
    tool.annotations = { span: at, entries: Object.entries(annotations).map(([key, value]) => ({ key, value, span: at, keySpan: at })) };
  }
  return tool;
}

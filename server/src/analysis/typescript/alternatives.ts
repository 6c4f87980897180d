/**
 * A list whose value depends on the server's configuration: `readOnly ? readonlyTools : allTools`,
 * `allTools.filter((t) => isToolAllowed(t.name))`, a memoised helper computing one of them. Which list is published
 * is known only at run time, but every entry it can hold is static: the union of the branches, each entry with the
 * condition under which it is listed (as written in the source, never evaluated). Anything else stays unresolved.
 *
 * Order: the list the server returns when no such condition holds first, i.e. the else branch of a ternary (the
 * full list when no variable is set: `flag ? subset : all`), then what only the other branch holds, in its order.
 */
import ts from './ts';
import type { Span } from '../model';
import { evaluate, FnExpr, Unresolvable, type EvalContext } from './evaluate';
import { isFunctionLikeKind, lookupName, mutationsOf, skipOuter, spanOf, type ParsedFile } from './project';

const SK = ts.SyntaxKind;

/** One condition an entry is listed under, as written; `loose`: its text needs parentheses inside `&&`. */
interface Condition {
  text: string;
  node: ts.Node;
  pf: ParsedFile;
  loose: boolean;
}

/** One entry a list can hold, and the conditions (all of them) under which it is in the list. */
export interface ListEntry {
  value: unknown;
  conditions: Condition[];
}

const MAX_NESTING = 20;

/**
 * Every entry the list `expr` can hold. A list that is static is its own entries, without conditions; a ternary on
 * a condition that is not static, a `.filter` whose predicate is not, a `.map` over such a list and a helper that
 * computes one are read as described above. Throws the evaluator's reason when the list is none of these.
 */
export function listAlternatives(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext): ListEntry[] {
  return entriesOf(expr, pf, ctx, 0);
}

/** The text of an entry's conditions, joined with `&&`, and where the first is written; undefined for none. */
export function conditionOf(entry: ListEntry): { text: string; span: Span } | undefined {
  if (entry.conditions.length === 0) return undefined;
  return { text: joined(entry.conditions), span: spanOf(entry.conditions[0].node, entry.conditions[0].pf) };
}

function joined(conditions: Condition[]): string {
  return conditions.length === 1 ? conditions[0].text : conditions.map((c) => (c.loose ? `(${c.text})` : c.text)).join(' && ');
}

function entriesOf(expr: ts.Expression, pf: ParsedFile, ctx: EvalContext, nesting: number): ListEntry[] {
  let firstError: unknown;
  try {
    const value = evaluate(expr, pf, ctx);
    if (!Array.isArray(value)) throw new Unresolvable('not an array', { node: expr, pf });
    return value.map((v: unknown) => ({ value: v, conditions: [] }));
  } catch (err) {
    if (!(err instanceof Unresolvable)) throw err;
    firstError = err;
  }
  if (nesting > MAX_NESTING) throw firstError;
  const e = skipOuter(expr);
  const next = nesting + 1;
  if (ts.isConditionalExpression(e)) return branchesOf(e, pf, ctx, next);
  if (ts.isArrayLiteralExpression(e)) return elementsOf(e, pf, ctx, next);
  if (ts.isIdentifier(e)) {
    const init = constInitializer(e, pf, ctx);
    if (init) return entriesOf(init.expr, init.pf, ctx, next);
  }
  if (ts.isCallExpression(e)) {
    const callee = skipOuter(e.expression);
    if (ts.isPropertyAccessExpression(callee) && e.arguments.length === 1 && !ts.isSpreadElement(e.arguments[0])) {
      if (callee.name.text === 'filter') return filtered(entriesOf(callee.expression, pf, ctx, next), e, pf, ctx);
      if (callee.name.text === 'map') return mapped(entriesOf(callee.expression, pf, ctx, next), e.arguments[0], pf, ctx);
    }
    const source = helperResult(e, pf, ctx);
    if (source) return entriesOf(source.expr, source.pf, ctx, next);
  }
  throw firstError;
}

/** `c ? A : B` on a condition that is not static: B's entries, then A's that B does not hold (see the file comment). */
function branchesOf(e: ts.ConditionalExpression, pf: ParsedFile, ctx: EvalContext, nesting: number): ListEntry[] {
  let decided: unknown;
  let known = false;
  try {
    decided = evaluate(e.condition, pf, ctx);
    // A primitive, or a plain object or array (truthy), decides as the evaluator's own `?:` does.
    known =
      decided === null ||
      ['string', 'number', 'boolean', 'undefined'].includes(typeof decided) ||
      Array.isArray(decided) ||
      (typeof decided === 'object' && Object.getPrototypeOf(decided) === Object.prototype);
  } catch (err) {
    if (!(err instanceof Unresolvable)) throw err;
  }
  if (known) return entriesOf(decided ? e.whenTrue : e.whenFalse, pf, ctx, nesting);
  const whenFalse = entriesOf(e.whenFalse, pf, ctx, nesting);
  const whenTrue = entriesOf(e.whenTrue, pf, ctx, nesting);
  const cond = e.condition;
  const c = text(cond, pf);
  const cLoose = isLoose(cond);
  const notC = negated(cond, pf);
  const out: ListEntry[] = [];
  const taken = new Set<ListEntry>();
  for (const f of whenFalse) {
    const t = whenTrue.find((x) => !taken.has(x) && sameValue(x.value, f.value));
    if (!t) {
      out.push({ value: f.value, conditions: [{ text: notC, node: cond, pf, loose: false }, ...f.conditions] });
      continue;
    }
    // In both branches: listed when the branch taken lists it.
    taken.add(t);
    const x = f.conditions;
    const y = t.conditions;
    const paren = (s: string, loose: boolean) => (loose ? `(${s})` : s);
    let conditions: Condition[] = [];
    if (x.length && !y.length) conditions = [{ text: `${paren(c, isConditional(cond))} || ${joined(x)}`, node: cond, pf, loose: true }];
    else if (!x.length && y.length) conditions = [{ text: `${notC} || ${joined(y)}`, node: cond, pf, loose: true }];
    else if (x.length && y.length) conditions = [{ text: `${paren(c, cLoose)} ? ${joined(y)} : ${joined(x)}`, node: cond, pf, loose: true }];
    out.push({ value: f.value, conditions });
  }
  for (const t of whenTrue) if (!taken.has(t)) out.push({ value: t.value, conditions: [{ text: c, node: cond, pf, loose: cLoose }, ...t.conditions] });
  return out;
}

/** `[...base, extra]`: spreads read as lists (entries and conditions kept), other elements as static values. */
function elementsOf(e: ts.ArrayLiteralExpression, pf: ParsedFile, ctx: EvalContext, nesting: number): ListEntry[] {
  const out: ListEntry[] = [];
  for (const el of e.elements) {
    if (ts.isSpreadElement(el)) out.push(...entriesOf(el.expression, pf, ctx, nesting));
    else out.push({ value: evaluate(el, pf, ctx), conditions: [] });
  }
  return out;
}

/**
 * `list.filter(pred)`: each entry is kept or dropped when the predicate is static for it, else kept under the
 * predicate's condition — its body as written when it is one expression (`isToolAllowed(tool.name)`), else the call.
 */
function filtered(entries: ListEntry[], call: ts.CallExpression, pf: ParsedFile, ctx: EvalContext): ListEntry[] {
  const predArg = call.arguments[0];
  let pred: FnExpr | undefined;
  try {
    const v = evaluate(predArg, pf, ctx);
    if (v instanceof FnExpr) pred = v;
  } catch (err) {
    if (!(err instanceof Unresolvable)) throw err;
  }
  const body = pred && bodyExpression(pred);
  const condition: Condition = body && pred ? { text: text(body, pred.pf), node: body, pf: pred.pf, loose: isLoose(body) } : { text: text(call, pf), node: call, pf, loose: false };
  const out: ListEntry[] = [];
  for (const entry of entries) {
    let kept: boolean | undefined;
    if (pred) {
      try {
        const r = applied(pred, entry.value, ctx);
        if (r === null || typeof r !== 'object' || Array.isArray(r) || Object.getPrototypeOf(r) === Object.prototype) kept = Boolean(r);
      } catch (err) {
        if (!(err instanceof Unresolvable)) throw err;
      }
    }
    if (kept === false) continue;
    out.push(kept ? entry : { value: entry.value, conditions: [...entry.conditions, condition] });
  }
  return out;
}

/** `list.map(fn)`: `fn` evaluated on each entry (it must be static for every one), conditions kept. */
function mapped(entries: ListEntry[], fnArg: ts.Expression, pf: ParsedFile, ctx: EvalContext): ListEntry[] {
  const fn = evaluate(fnArg, pf, ctx);
  if (!(fn instanceof FnExpr)) throw new Unresolvable('`.map` of a function Toolsmith cannot read', { node: fnArg, pf });
  return entries.map((entry) => ({ value: applied(fn, entry.value, ctx), conditions: entry.conditions }));
}

/** The one expression a function returns (its expression body, or a body that is one `return`). */
function bodyExpression(fn: FnExpr): ts.Expression | undefined {
  const body = fn.node.body;
  if (!body) return undefined;
  if (!ts.isBlock(body)) return body;
  const st = body.statements;
  return st.length === 1 && ts.isReturnStatement(st[0]) && st[0].expression ? st[0].expression : undefined;
}

/** What `fn(value)` evaluates to, its first parameter bound to the value (never run: its body is evaluated). */
function applied(fn: FnExpr, value: unknown, ctx: EvalContext): unknown {
  const body = bodyExpression(fn);
  const param = fn.node.parameters[0];
  if (!body) throw new Unresolvable('a callback whose body is not one returned expression (Toolsmith does not run functions)', { node: fn.node, pf: fn.pf });
  if (fn.node.asteriskToken || ts.getModifiers(fn.node)?.some((m) => m.kind === SK.AsyncKeyword)) throw new Unresolvable('an async or generator callback', { node: fn.node, pf: fn.pf });
  if (param && (!ts.isIdentifier(param.name) || param.dotDotDotToken)) throw new Unresolvable('a callback whose parameter is not a plain name', { node: param, pf: fn.pf });
  if (!param) return evaluate(body, fn.pf, ctx);
  const had = ctx.env.has(param);
  const before = ctx.env.get(param);
  ctx.env.set(param, value);
  try {
    return evaluate(body, fn.pf, ctx);
  } finally {
    if (had) ctx.env.set(param, before);
    else ctx.env.delete(param);
  }
}

/** The initializer of the const a name holds (followed into imports), when nothing changes it after. */
function constInitializer(id: ts.Identifier, pf: ParsedFile, ctx: EvalContext): { expr: ts.Expression; pf: ParsedFile } | undefined {
  let d = lookupName(id.text, id, pf);
  if (d?.kind === 'import') d = ctx.project.resolveImport(d);
  if (d?.kind !== 'var' || !d.node.initializer || ctx.env.has(d.node)) return undefined;
  if (!(d.node.parent.flags & ts.NodeFlags.Const)) return undefined;
  const init = skipOuter(d.node.initializer);
  if ((ts.isArrayLiteralExpression(init) || ts.isObjectLiteralExpression(init)) && mutationsOf(d.node, d.pf).other.length) return undefined;
  return { expr: d.node.initializer, pf: d.pf };
}

/**
 * What a call of a workspace function without parameters returns, when every return is the same expression — or
 * the same memo: a module `let` only this function assigns (`if (cache) return cache; cache = ...; return cache;`),
 * whose value is then what the function assigns it. Undefined for anything else (several results, arguments).
 */
function helperResult(call: ts.CallExpression, pf: ParsedFile, ctx: EvalContext): { expr: ts.Expression; pf: ParsedFile } | undefined {
  let callee: unknown;
  try {
    callee = evaluate(call.expression, pf, ctx);
  } catch (err) {
    if (err instanceof Unresolvable) return undefined;
    throw err;
  }
  if (!(callee instanceof FnExpr) || callee.thisValue || call.arguments.length || callee.node.parameters.length) return undefined;
  const fn = callee.node;
  if (!fn.body || fn.asteriskToken || ts.getModifiers(fn)?.some((m) => m.kind === SK.AsyncKeyword)) return undefined;
  if (!ts.isBlock(fn.body)) return { expr: fn.body, pf: callee.pf };
  const returned: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (isFunctionLikeKind(n.kind) || ts.isClassLike(n)) return;
    if (ts.isReturnStatement(n)) returned.push(n.expression ?? n);
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(fn.body, visit);
  const sources = new Set<ts.Expression>();
  for (const r of returned) {
    if (!ts.isExpression(r)) return undefined;
    const memo = memoValues(r, fn, callee.pf);
    if (memo === undefined) sources.add(r);
    else for (const m of memo) sources.add(m);
  }
  if (sources.size !== 1) return undefined;
  return { expr: [...sources][0], pf: callee.pf };
}

/**
 * `cache` returned by `fn`, a `let`/`var` declared outside it with no value (or null) that only `fn` assigns (plain
 * `=`): the values it assigns. Undefined when the expression is not such a memo.
 */
function memoValues(expr: ts.Expression, fn: ts.Node, pf: ParsedFile): ts.Expression[] | undefined {
  const id = skipOuter(expr);
  if (!ts.isIdentifier(id)) return undefined;
  const d = lookupName(id.text, id, pf);
  if (d?.kind !== 'var' || d.node.parent.flags & ts.NodeFlags.Const || isWithin(d.node, fn)) return undefined;
  const init = d.node.initializer && skipOuter(d.node.initializer);
  if (init && init.kind !== SK.NullKeyword && !(ts.isIdentifier(init) && init.text === 'undefined')) return undefined;
  const values: ts.Expression[] = [];
  let foreign = false;
  const visit = (n: ts.Node): void => {
    if (foreign) return;
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= SK.FirstAssignment && n.operatorToken.kind <= SK.LastAssignment) {
      const left = skipOuter(n.left);
      if (ts.isIdentifier(left) && left.text === id.text && lookupName(left.text, left, pf)?.node === d.node) {
        if (n.operatorToken.kind !== SK.EqualsToken || !isWithin(n, fn)) foreign = true;
        else values.push(n.right);
      }
    } else if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && ts.isIdentifier(n.operand) && n.operand.text === id.text) foreign = true;
    ts.forEachChild(n, visit);
  };
  visit(pf.sf);
  return foreign || values.length === 0 ? undefined : values;
}

function isWithin(inner: ts.Node, outer: ts.Node): boolean {
  return inner.pos >= outer.pos && inner.end <= outer.end;
}

/** The same entry in two branches: the same value (one const), or values written alike. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function text(node: ts.Node, pf: ParsedFile): string {
  return node.getText(pf.sf).replace(/\s+/g, ' ');
}

function isConditional(node: ts.Node): boolean {
  const n = ts.isExpression(node) ? skipOuter(node) : node;
  return ts.isConditionalExpression(n);
}

/** Whether a condition's text needs parentheses inside `&&`: `a || b`, `a ?? b`, `c ? a : b`. */
function isLoose(node: ts.Node): boolean {
  const n = ts.isExpression(node) ? skipOuter(node) : node;
  if (ts.isConditionalExpression(n)) return true;
  return ts.isBinaryExpression(n) && (n.operatorToken.kind === SK.BarBarToken || n.operatorToken.kind === SK.QuestionQuestionToken || n.operatorToken.kind === SK.CommaToken);
}

/** `!c` as written (`c` for `!c`, `!(a || b)` for a compound condition). */
function negated(cond: ts.Expression, pf: ParsedFile): string {
  const inner = skipOuter(cond);
  if (ts.isPrefixUnaryExpression(inner) && inner.operator === SK.ExclamationToken) return text(inner.operand, pf);
  return ts.isIdentifier(inner) || ts.isPropertyAccessExpression(inner) || ts.isCallExpression(inner) ? `!${text(inner, pf)}` : `!(${text(inner, pf)})`;
}

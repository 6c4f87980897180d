/**
 * The values a function's `let`/`var` locals hold when one of its statements runs, where straight-line code with
 * static conditions decides them — as in ext-apps' `registerAppTool` (inlined in a bundle as a minified helper):
 *
 *   let q = F._meta, J = q.ui, Z = q[D], $ = q;
 *   if (J?.resourceUri && !Z) $ = { ...q, [D]: J.resourceUri };
 *   else if (Z && !J?.resourceUri) $ = { ...q, ui: { ...J, resourceUri: Z } };
 *   return B.registerTool(Q, { ...F, _meta: $ }, V);
 *
 * The statements before the target are read in order with the evaluator (declarations, `x = value`, `if`/`else` on a
 * condition it can decide, blocks). A local is left to the evaluator's own answer ("assigned after its declaration")
 * when anything else may write it: an assignment under a condition known only at run time, a compound assignment, a
 * write inside a loop or a nested function, a statement that hands it to a call or writes one of its members (the
 * object could change), or one we do not read. Nothing is run: the evaluator only folds static values.
 */
import ts from './ts';
import { evaluate, Unresolvable, type EvalContext } from './evaluate';
import { isFunctionLikeKind, isReassigned, lookupName, skipOuter, type ParsedFile } from './project';

type Local = ts.VariableDeclaration;

/**
 * The values of the reassigned `let`/`var` locals of the function around `target` when `target` runs, as env entries
 * (a value, or the Unresolvable saying why it is unknown); undefined when that function has none.
 */
export function localsAt(target: ts.Node, pf: ParsedFile, ctx: EvalContext): Map<ts.Node, unknown> | undefined {
  let fn: ts.Node | undefined = target.parent;
  while (fn && !isFunctionLikeKind(fn.kind)) fn = fn.parent;
  const body = fn && (fn as ts.FunctionLikeDeclaration).body;
  if (!body || !ts.isBlock(body)) return undefined;
  const tracked = reassignedLocals(body, pf);
  if (tracked.size === 0) return undefined;
  const out = new Map<ts.Node, unknown>();
  const env = ctx.env;
  // Reads see the values known so far: the evaluator consults ctx.env for a bound local before its declaration.
  ctx.env = new Map(env);
  // An Unresolvable is bound too: a later read throws it, with its own reason.
  const bind = (decl: Local, value: unknown) => {
    out.set(decl, value);
    ctx.env.set(decl, value);
  };
  const localOf = (id: ts.Identifier): Local | undefined => {
    const d = lookupName(id.text, id, pf);
    return d?.kind === 'var' && tracked.has(d.node) ? d.node : undefined;
  };
  /** The tracked locals `n` may change (see writtenIdentifiers) become unknown, with the reason. */
  const taint = (n: ts.Node, reason: string) => {
    for (const id of writtenIdentifiers(n)) {
      const decl = localOf(id);
      if (decl) bind(decl, new Unresolvable(`\`${id.text}\` ${reason}`, { node: id, pf }));
    }
  };
  const value = (expr: ts.Expression): { ok: true; v: unknown } | { ok: false; err: Unresolvable } => {
    try {
      return { ok: true, v: evaluate(expr, pf, ctx) };
    } catch (err) {
      if (err instanceof Unresolvable) return { ok: false, err };
      throw err;
    }
  };
  /** Runs `st`; true once `target` is reached (the values are then those it sees). */
  const run = (st: ts.Statement): boolean => {
    const holds = target.pos >= st.pos && target.end <= st.end;
    if (ts.isBlock(st)) {
      for (const s of st.statements) if (run(s)) return true;
      return false;
    }
    if (ts.isIfStatement(st)) {
      const cond = value(st.expression);
      if (holds && target.pos >= st.expression.pos && target.end <= st.expression.end) return true;
      if (holds) {
        // The target runs in one branch: its values are those of that branch (the condition held, or not).
        const branch = target.pos >= st.thenStatement.pos && target.end <= st.thenStatement.end ? st.thenStatement : st.elseStatement;
        return branch ? run(branch) : true;
      }
      if (!cond.ok) {
        taint(st, 'is assigned under a condition known only at run time');
        return false;
      }
      const branch = cond.v ? st.thenStatement : st.elseStatement;
      return branch ? run(branch) : false;
    }
    if (holds) return true;
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (!tracked.has(d)) continue;
        if (!d.initializer) bind(d, undefined);
        else {
          const v = value(d.initializer);
          bind(d, v.ok ? v.v : v.err);
        }
      }
      // An initializer may still hand a tracked local to a call that changes it (`let a = f(b)`).
      for (const d of st.declarationList.declarations) if (d.initializer) taint(d.initializer, 'is handed to a call that may change it');
      return false;
    }
    if (ts.isExpressionStatement(st)) {
      const e = skipOuter(st.expression);
      if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(skipOuter(e.left))) {
        const decl = localOf(skipOuter(e.left) as ts.Identifier);
        if (decl) {
          taint(e.right, 'is handed to a call that may change it');
          const v = value(e.right);
          bind(decl, v.ok ? v.v : v.err);
          return false;
        }
      }
    }
    taint(st, 'is changed by a statement Toolsmith does not follow');
    return false;
  };
  try {
    for (const st of body.statements) if (run(st)) break;
  } finally {
    ctx.env = env;
  }
  return out;
}

const isAssignment = (kind: ts.SyntaxKind) => kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;

/** `a.b.c`, `a[k]` -> a: the object a member write or a method call reaches. */
function receiverOf(e: ts.Expression): ts.Identifier | undefined {
  let x = skipOuter(e);
  while (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) x = skipOuter(x.expression);
  return ts.isIdentifier(x) ? x : undefined;
}

/**
 * The names `n` may change: assigned (`a = …`, `a += …`, `a++`, destructuring), a member written or deleted
 * (`a.b = …`), handed to a call or `new` (it may mutate what it is given), or a method called on them (`a.push(…)`).
 */
function writtenIdentifiers(n: ts.Node): ts.Identifier[] {
  const out: ts.Identifier[] = [];
  const target = (e: ts.Expression) => {
    const x = skipOuter(e);
    if (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) {
      const r = receiverOf(x);
      if (r) out.push(r);
    } else forEachIdentifier(x, (id) => out.push(id));
  };
  const visit = (x: ts.Node): void => {
    if (ts.isBinaryExpression(x) && isAssignment(x.operatorToken.kind)) target(x.left);
    else if ((ts.isPrefixUnaryExpression(x) || ts.isPostfixUnaryExpression(x)) && (x.operator === ts.SyntaxKind.PlusPlusToken || x.operator === ts.SyntaxKind.MinusMinusToken)) target(x.operand);
    else if (ts.isDeleteExpression(x)) target(x.expression);
    else if (ts.isCallExpression(x) || ts.isNewExpression(x)) {
      for (const a of x.arguments ?? []) {
        const arg = skipOuter(ts.isSpreadElement(a) ? a.expression : a);
        if (ts.isIdentifier(arg)) out.push(arg);
      }
      const callee = skipOuter(x.expression);
      if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
        const r = receiverOf(callee);
        if (r) out.push(r);
      }
    }
    ts.forEachChild(x, visit);
  };
  visit(n);
  return out;
}

/**
 * The `let`/`var` locals declared directly in `body` (not in a nested function or a loop) that something assigns
 * again, and that no nested function, loop or `try` writes (those run at times a reading in order cannot know).
 */
function reassignedLocals(body: ts.Block, pf: ParsedFile): Set<Local> {
  // Once per function body: a file registering many tools in one function asks for each of them.
  let out = trackedByBody.get(body);
  if (out) return out;
  out = new Set<Local>();
  trackedByBody.set(body, out);
  for (const st of body.statements) {
    if (!ts.isVariableStatement(st) || st.declarationList.flags & ts.NodeFlags.Const) continue;
    for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && isReassigned(d, pf)) out.add(d);
  }
  if (out.size === 0) return out;
  // Writes where the order of execution is not the order of the text (a callback, a loop, a try, a switch): those
  // locals are left to the evaluator.
  const visit = (n: ts.Node): void => {
    if (isFunctionLikeKind(n.kind) || ts.isIterationStatement(n, false) || ts.isTryStatement(n) || ts.isSwitchStatement(n) || ts.isLabeledStatement(n)) {
      for (const id of writtenIdentifiers(n)) {
        const d = lookupName(id.text, id, pf);
        if (d?.kind === 'var') out.delete(d.node);
      }
      return;
    }
    ts.forEachChild(n, visit);
  };
  for (const st of body.statements) visit(st);
  return out;
}

const trackedByBody = new WeakMap<ts.Block, Set<Local>>();

function forEachIdentifier(n: ts.Node, f: (id: ts.Identifier) => void): void {
  if (ts.isIdentifier(n)) f(n);
  else ts.forEachChild(n, (c) => forEachIdentifier(c, f));
}

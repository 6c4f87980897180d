/**
 * The guard a registration runs under: `if (clientSupportsRoots) server.registerTool(...)`, `skip || server.tool(...)`,
 * `if (!enabled) return;` before it. Such a tool is listed only when the guard holds at run time (server-everything
 * registers its roots, sampling and elicitation tools only for a client declaring those capabilities), so a live
 * tools/list without it is not a wrong prediction. Read within the registering function (or file), never evaluated.
 */
import ts from './ts';
import type { RegistrationArm, Span } from '../model';
import { isFunctionLikeKind, skipOuter, spanOf, type ParsedFile } from './project';

const SK = ts.SyntaxKind;

/** `if (c) return;` / `if (c) { throw e; }` with no else: what follows runs only when `c` is false. */
function exitGuard(st: ts.Statement): ts.Expression | undefined {
  if (!ts.isIfStatement(st) || st.elseStatement) return undefined;
  let then: ts.Statement = st.thenStatement;
  if (ts.isBlock(then) && then.statements.length === 1) then = then.statements[0];
  const exits = ts.isReturnStatement(then) || ts.isThrowStatement(then) || ts.isContinueStatement(then) || ts.isBreakStatement(then);
  return exits ? st.expression : undefined;
}

/**
 * The early exits of a statement list (index and condition, in order): found once per list, not once per
 * registration in it — 200 top-level registrations each scanned every statement above them (20,000 tests).
 */
const exitGuardsOf = new WeakMap<ts.NodeArray<ts.Statement>, { index: number; condition: ts.Expression }[]>();
function exitGuards(statements: ts.NodeArray<ts.Statement>): { index: number; condition: ts.Expression }[] {
  let guards = exitGuardsOf.get(statements);
  if (!guards) {
    guards = [];
    for (let i = 0; i < statements.length; i++) {
      const condition = exitGuard(statements[i]);
      if (condition) guards.push({ index: i, condition });
    }
    exitGuardsOf.set(statements, guards);
  }
  return guards;
}

/** `statements.indexOf(child)`, by position first (statements are in source order). */
function statementIndex(statements: ts.NodeArray<ts.Statement>, child: ts.Node): number {
  let lo = 0;
  let hi = statements.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const st = statements[mid];
    if (st === child) return mid;
    if (st.pos < child.pos) lo = mid + 1;
    else hi = mid - 1;
  }
  // Zero-width (missing) statements of a file with syntax errors can share a position: the plain search then.
  return statements.indexOf(child as ts.Statement);
}

/** The guards from the registration outwards, as written (`!(c)` where the registration runs when `c` is false). */
export function registrationGuard(call: ts.CallExpression, pf: ParsedFile): { text: string; span: Span; arms: RegistrationArm[] } | undefined {
  const guards: { text: string; node: ts.Node }[] = [];
  // `if`/`?:` arms, innermost first (reversed at the end).
  const arms: RegistrationArm[] = [];
  const text = (e: ts.Node) => e.getText(pf.sf);
  const negated = (e: ts.Expression) => {
    const inner = skipOuter(e);
    if (ts.isPrefixUnaryExpression(inner) && inner.operator === SK.ExclamationToken) return text(inner.operand);
    return ts.isIdentifier(inner) || ts.isPropertyAccessExpression(inner) || ts.isCallExpression(inner) ? `!${text(inner)}` : `!(${text(inner)})`;
  };
  let child: ts.Node = call;
  for (let node: ts.Node | undefined = call.parent; node && !isFunctionLikeKind(node.kind); child = node, node = node.parent) {
    if (ts.isIfStatement(node) || ts.isConditionalExpression(node)) {
      const cond = ts.isIfStatement(node) ? node.expression : node.condition;
      const then = ts.isIfStatement(node) ? node.thenStatement : node.whenTrue;
      const otherwise = ts.isIfStatement(node) ? node.elseStatement : node.whenFalse;
      if (child === then || child === otherwise) {
        guards.push({ text: child === then ? text(cond) : negated(cond), node: cond });
        arms.push({ statement: `${pf.file}:${node.getStart(pf.sf)}`, arm: child === then ? 'then' : 'else' });
      }
    } else if (ts.isBinaryExpression(node) && child === node.right) {
      const op = node.operatorToken.kind;
      if (op === SK.AmpersandAmpersandToken) guards.push({ text: text(node.left), node: node.left });
      else if (op === SK.BarBarToken) guards.push({ text: negated(node.left), node: node.left });
      else if (op === SK.QuestionQuestionToken) guards.push({ text: `${text(node.left)} == null`, node: node.left });
    } else if (ts.isCaseClause(node)) {
      guards.push({ text: `${text(node.parent.parent.expression)} === ${text(node.expression)}`, node: node.expression });
    }
    if (ts.isBlock(node) || ts.isSourceFile(node) || ts.isCaseOrDefaultClause(node)) {
      // Early exits before the statement holding the registration, nearest first.
      const before = statementIndex(node.statements, child);
      const exits = exitGuards(node.statements);
      for (let i = exits.length - 1; i >= 0; i--) {
        if (exits[i].index >= before) continue;
        const c = exits[i].condition;
        guards.push({ text: negated(c), node: c });
      }
    }
    if (ts.isSourceFile(node)) break;
  }
  if (guards.length === 0) return undefined;
  return { text: guards.map((g) => g.text).join(' && '), span: spanOf(guards[0].node, pf), arms: arms.reverse() };
}

type Guard = NonNullable<ReturnType<typeof registrationGuard>>;

/** The guards of a call into a helper (`outer`) and of the registration inside it (`inner`): both must hold. */
export function joinGuards(outer: Guard | undefined, inner: Guard | undefined): Guard | undefined {
  if (!outer || !inner) return outer ?? inner;
  return { text: `${outer.text} && ${inner.text}`, span: inner.span, arms: [...outer.arms, ...inner.arms] };
}

/**
 * Handler facts for the rules (they never read the syntax tree): calls with the handler parameters that reach
 * them, `shell: true`, awaits; every return with its keys, text contents, isError, error-looking payloads and
 * leaked error internals; whether a path containment check is written.
 */
import ts from 'typescript';
import type { CallFact, HandlerDefinition, ReturnFact, Span } from '../model';
import { evaluate, type EvalContext } from './evaluate';
import { lookupName, skipOuter, spanOf, type ParsedFile } from './project';

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
  if (e.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (ts.isElementAccessExpression(e)) return `${calleeName(e.expression, pf)}[]`;
  return e.getText(pf.sf).slice(0, 60);
}

function bindingNames(name: ts.BindingName, out: string[]): void {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const el of name.elements) if (!ts.isOmittedExpression(el)) bindingNames(el.name, out);
}

const ERRORISH = /^\s*(error|erreur|failed|failure)\b|^\s*\{\s*"error"/i;

export function handlerFacts(fn: FnNode, pf: ParsedFile, ctx: EvalContext): HandlerDefinition {
  const isAsync = !!ts.getModifiers(fn)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
  const body = fn.body;
  const bodySpan = body ? spanOf(body, pf) : spanOf(fn, pf);
  // Taint: handler parameters (the tool arguments), then locals assigned from them.
  const taint = new Map<string, Set<string>>();
  const first = fn.parameters[0];
  let argsObject: string | undefined;
  if (first) {
    if (ts.isIdentifier(first.name)) argsObject = first.name.text;
    else if (ts.isObjectBindingPattern(first.name)) {
      for (const el of first.name.elements) {
        const names: string[] = [];
        bindingNames(el.name, names);
        const prop = el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : names[0];
        for (const n of names) taint.set(n, new Set([prop ?? n]));
      }
    }
  }
  const catchVars = new Set<string>();
  const sourcesOf = (node: ts.Node): Set<string> => {
    const out = new Set<string>();
    const visit = (n: ts.Node): void => {
      if (ts.isPropertyAccessExpression(n) && argsObject && ts.isIdentifier(n.expression) && n.expression.text === argsObject) {
        out.add(n.name.text);
        return;
      }
      if (ts.isIdentifier(n)) {
        for (const s of taint.get(n.text) ?? []) out.add(s);
        return;
      }
      if (ts.isPropertyAccessExpression(n)) {
        visit(n.expression);
        return;
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
    return out;
  };

  const calls: CallFact[] = [];
  const returns: ReturnFact[] = [];
  let hasResolve = false;
  let hasWithinTest = false;

  const visit = (n: ts.Node, inNested: boolean): void => {
    if (ts.isCatchClause(n) && n.variableDeclaration && ts.isIdentifier(n.variableDeclaration.name)) catchVars.add(n.variableDeclaration.name.text);
    if (ts.isVariableDeclaration(n) && n.initializer) {
      const src = sourcesOf(n.initializer);
      if (src.size) {
        const names: string[] = [];
        bindingNames(n.name, names);
        for (const name of names) taint.set(name, new Set([...(taint.get(name) ?? []), ...src]));
      }
    }
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(n.left)) {
      const src = sourcesOf(n.right);
      if (src.size) taint.set(n.left.text, new Set([...(taint.get(n.left.text) ?? []), ...src]));
    }
    if (ts.isCallExpression(n)) {
      const callee = calleeName(n.expression, pf);
      const params = new Set<string>();
      let shell = false;
      for (const a of n.arguments) {
        for (const s of sourcesOf(a)) params.add(s);
        const obj = skipOuter(a);
        if (ts.isObjectLiteralExpression(obj)) {
          for (const p of obj.properties) {
            if (ts.isPropertyAssignment(p) && p.name.getText(pf.sf) === 'shell' && p.initializer.kind !== ts.SyntaxKind.FalseKeyword) shell = true;
            if (ts.isShorthandPropertyAssignment(p) && p.name.text === 'shell') shell = true;
          }
        }
      }
      let parent = n.parent;
      while (parent && ts.isParenthesizedExpression(parent)) parent = parent.parent;
      calls.push({ callee, span: spanOf(n, pf), paramsInArgs: [...params], shell, awaited: !!parent && ts.isAwaitExpression(parent) });
      if (/(^|\.)(resolve|normalize|realpath|realpathSync)$/.test(callee)) hasResolve = true;
      if (/(^|\.)(startsWith|relative)$/.test(callee)) hasWithinTest = true;
    }
    if (ts.isReturnStatement(n) && !inNested) returns.push(returnFact(n.expression, n, pf, ctx, catchVars));
    const nested = inNested || (n !== fn && ts.isFunctionLike(n));
    ts.forEachChild(n, (c) => visit(c, nested));
  };
  if (body) {
    if (ts.isBlock(body)) visit(body, false);
    else {
      visit(body, false);
      returns.push(returnFact(body, body, pf, ctx, catchVars));
    }
  }
  const name = ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn) || ts.isMethodDeclaration(fn) ? fn.name?.getText(pf.sf) : undefined;
  return {
    span: spanOf(fn, pf),
    name,
    isAsync,
    bodySpan,
    calls,
    returns,
    raises: [],
    hasPathContainmentCheck: hasResolve && hasWithinTest,
  };
}

function staticString(node: ts.Expression, pf: ParsedFile, ctx: EvalContext): string | undefined {
  try {
    const v = evaluate(node, pf, { ...ctx, unrepresentable: [], depth: 0 });
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function propName(p: ts.ObjectLiteralElementLike, pf: ParsedFile): string | undefined {
  if (!p.name) return undefined;
  if (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) return p.name.text;
  return p.name.getText(pf.sf);
}

function leaksIn(node: ts.Node, pf: ParsedFile, catchVars: Set<string>): ReturnFact['leaks'] {
  const out: ReturnFact['leaks'] = [];
  const isErr = (e: ts.Expression): boolean => {
    const x = skipOuter(e);
    return ts.isIdentifier(x) && (catchVars.has(x.text) || /^(e|err|error|ex|exc|exception)$/.test(x.text));
  };
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAccessExpression(n) && n.name.text === 'stack' && isErr(n.expression)) out.push({ kind: 'stack', span: spanOf(n, pf) });
    else if (ts.isCallExpression(n)) {
      const c = n.expression.getText(pf.sf);
      if ((c === 'String' || c === 'JSON.stringify') && n.arguments[0] && isErr(n.arguments[0])) out.push({ kind: 'stringified-error', span: spanOf(n, pf) });
      else if (ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'toString' && isErr(n.expression.expression)) out.push({ kind: 'stringified-error', span: spanOf(n, pf) });
    } else if (ts.isTemplateSpan(n) && isErr(n.expression)) out.push({ kind: 'stringified-error', span: spanOf(n.expression, pf) });
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

function returnFact(expr0: ts.Expression | undefined, at: ts.Node, pf: ParsedFile, ctx: EvalContext, catchVars: Set<string>): ReturnFact {
  const span: Span = spanOf(at, pf);
  if (!expr0) return { span, texts: [], looksLikeError: false, valueKind: 'none', leaks: [] };
  let expr = skipOuter(expr0);
  if (ts.isAwaitExpression(expr)) expr = skipOuter(expr.expression);
  const leaks = leaksIn(expr, pf, catchVars);
  if (ts.isObjectLiteralExpression(expr)) {
    const keys: string[] = [];
    const texts: string[] = [];
    let hasText = false;
    let isError: boolean | undefined;
    let looksLikeError = false;
    for (const p of expr.properties) {
      const k = ts.isSpreadAssignment(p) ? undefined : propName(p, pf);
      if (k === undefined) continue;
      keys.push(k);
      if (k === 'error') looksLikeError = true;
      if (k === 'isError' && ts.isPropertyAssignment(p)) isError = p.initializer.kind === ts.SyntaxKind.TrueKeyword ? true : p.initializer.kind === ts.SyntaxKind.FalseKeyword ? false : undefined;
      if (k === 'content' && ts.isPropertyAssignment(p)) {
        const arr = skipOuter(p.initializer);
        if (ts.isArrayLiteralExpression(arr)) {
          for (const item of arr.elements) {
            const o = skipOuter(item as ts.Expression);
            if (!ts.isObjectLiteralExpression(o)) continue;
            const type = o.properties.find((q) => propName(q, pf) === 'type');
            const typeValue = type && ts.isPropertyAssignment(type) ? staticString(type.initializer, pf, ctx) : undefined;
            if (typeValue !== 'text') continue;
            hasText = true;
            const text = o.properties.find((q) => propName(q, pf) === 'text');
            if (text && ts.isPropertyAssignment(text)) {
              const tExpr = skipOuter(text.initializer);
              const s = staticString(tExpr, pf, ctx);
              if (s !== undefined) {
                texts.push(s);
                if (ERRORISH.test(s)) looksLikeError = true;
              } else if (ts.isTemplateExpression(tExpr)) {
                texts.push(tExpr.head.text);
                if (ERRORISH.test(tExpr.head.text)) looksLikeError = true;
              } else if (ts.isCallExpression(tExpr) && tExpr.expression.getText(pf.sf) === 'JSON.stringify' && tExpr.arguments[0]) {
                const arg = skipOuter(tExpr.arguments[0]);
                if (ts.isObjectLiteralExpression(arg) && arg.properties.some((q) => propName(q, pf) === 'error')) looksLikeError = true;
              }
            }
          }
        }
      }
    }
    const last = expr.properties[expr.properties.length - 1];
    return {
      span,
      keys,
      hasTextContent: hasText,
      hasStructuredContent: keys.includes('structuredContent'),
      isError,
      texts,
      looksLikeError,
      valueKind: 'object',
      leaks,
      objectEndOffset: last ? last.getEnd() : expr.getStart(pf.sf) + 1,
    };
  }
  if (ts.isStringLiteralLike(expr) || ts.isTemplateExpression(expr)) {
    const s = staticString(expr, pf, ctx) ?? (ts.isTemplateExpression(expr) ? expr.head.text : '');
    return { span, texts: [s], looksLikeError: ERRORISH.test(s), valueKind: 'string', leaks };
  }
  if (ts.isArrayLiteralExpression(expr)) return { span, texts: [], looksLikeError: false, valueKind: 'list', leaks };
  if (expr.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(expr) && expr.text === 'undefined')) return { span, texts: [], looksLikeError: false, valueKind: 'none', leaks };
  return { span, texts: [], looksLikeError: false, valueKind: 'other', leaks };
}

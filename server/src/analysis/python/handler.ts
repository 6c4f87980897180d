/**
 * Facts about a Python tool handler's body that security / I/O / error rules read: calls (callee resolved through
 * imports, parameters reaching arguments, shell=True, awaited), returns (texts, error-looking payloads, leaked
 * internals), raises and path containment checks.
 */
import type { SyntaxNode } from '@lezer/common';
import type { CallFact, HandlerDefinition, ReturnFact } from '../model';
import type { PyModule } from './module';
import { argsOf, child, children, dottedName, kwargsWithNames, meaningful, stringValue } from './syntax';

export function handlerFacts(mod: PyModule, fn: SyntaxNode, paramNames: string[]): HandlerDefinition {
  const body = child(fn, 'Body');
  const nameNode = child(fn, 'VariableName');
  const isAsync = children(fn).some((c) => c.name === 'async');
  const returnTypeDef = children(fn).find((c) => c.name === 'TypeDef');
  const retAnn = returnTypeDef ? meaningful(returnTypeDef).find((c) => c.name !== '->') : undefined;
  const calls: CallFact[] = [];
  const returns: ReturnFact[] = [];
  const raises: HandlerDefinition['raises'] = [];
  /** local name -> handler parameters its value derives from. */
  const taint = new Map<string, Set<string>>(paramNames.map((p) => [p, new Set([p])]));
  /** local name -> qualified callee of the call that produced it (`client = httpx.Client()`). */
  const instanceOf = new Map<string, string>();
  /** names bound by `except X as e`. */
  const errorVars = new Set<string>();
  let containment = false;

  const paramsIn = (node: SyntaxNode): string[] => {
    const found = new Set<string>();
    node.cursor().iterate((n) => {
      if (n.name === 'VariableName') {
        const t = taint.get(mod.src(n));
        if (t) for (const p of t) found.add(p);
      }
    });
    return [...found];
  };

  const calleeName = (callee: SyntaxNode): string => {
    const d = dottedName(callee, mod.text);
    if (!d) {
      // `httpx.Client().get` / `open(p).read`: use the inner call's callee.
      if (callee.name === 'MemberExpression') {
        const parts = children(callee);
        const prop = parts[parts.length - 1];
        if (parts[0]?.name === 'CallExpression' && prop?.name === 'PropertyName' && parts[0].firstChild)
          return `${calleeName(parts[0].firstChild)}.${mod.src(prop)}`;
      }
      return mod.src(callee).slice(0, 80);
    }
    const [head, ...rest] = d.split('.');
    const inst = instanceOf.get(head);
    if (inst && rest.length) return [inst, ...rest].join('.');
    return mod.qualifyName(d);
  };

  const leaksIn = (node: SyntaxNode): ReturnFact['leaks'] => {
    const leaks: ReturnFact['leaks'] = [];
    node.cursor().iterate((n) => {
      if (n.name === 'CallExpression') {
        const c = n.node.firstChild;
        const q = c ? calleeName(c) : '';
        if (/^traceback\.(format_exc|format_exception|format_tb|format_stack|print_exc)$/.test(q)) {
          leaks.push({ kind: 'traceback', span: mod.span(n) });
          return false;
        }
        if ((q === 'str' || q === 'repr') && c) {
          const a = argsOf(child(n.node, 'ArgList'));
          if (a.length === 1 && a[0].value.name === 'VariableName' && errorVars.has(mod.src(a[0].value))) {
            leaks.push({ kind: 'stringified-error', span: mod.span(n) });
            return false;
          }
        }
      }
      if (n.name === 'FormatReplacement') {
        const inner = meaningful(n.node).filter((x) => x.name !== '{' && x.name !== '}');
        if (inner[0]?.name === 'VariableName' && errorVars.has(mod.src(inner[0]))) leaks.push({ kind: 'stringified-error', span: mod.span(n) });
      }
      if (n.name === 'MemberExpression') {
        const d = dottedName(n.node, mod.text);
        if (d && /\.__traceback__$/.test(d)) leaks.push({ kind: 'stack', span: mod.span(n) });
      }
      return undefined;
    });
    return leaks;
  };

  const textsIn = (node: SyntaxNode): string[] => {
    const texts: string[] = [];
    node.cursor().iterate((n) => {
      if (n.name === 'String' || n.name === 'FormatString') {
        if (n.node.parent?.name === 'ContinuedString') return false;
        const v = stringValue(n.node, mod.text);
        texts.push(v ?? mod.src(n).replace(/^[a-zA-Z]*("""|'''|"|')|("""|'''|"|')$/g, ''));
        return false;
      }
      if (n.name === 'ContinuedString') {
        const v = stringValue(n.node, mod.text);
        texts.push(v ?? mod.src(n));
        return false;
      }
      return undefined;
    });
    return texts;
  };

  const returnFact = (stmt: SyntaxNode): ReturnFact => {
    const value = meaningful(stmt).find((c) => c.name !== 'return');
    const texts = value ? textsIn(value) : [];
    let valueKind: ReturnFact['valueKind'] = 'other';
    let looksLikeError = false;
    let isError: boolean | undefined;
    if (!value || value.name === 'None') valueKind = 'none';
    else if (value.name === 'DictionaryExpression' || value.name === 'DictionaryComprehensionExpression') {
      valueKind = 'object';
      const parts = children(value);
      for (let i = 0; i < parts.length; i++) {
        if (parts[i + 1]?.name !== ':') continue;
        const key = stringValue(parts[i], mod.text);
        if (key && /^(error|errors|err|error_message|error_code)$/i.test(key)) looksLikeError = true;
        if (key === 'isError' || key === 'is_error') isError = mod.src(parts[i + 2] ?? parts[i]) === 'True';
      }
    } else if (value.name === 'String' || value.name === 'FormatString' || value.name === 'ContinuedString') valueKind = 'string';
    else if (value.name === 'ArrayExpression' || value.name === 'ArrayComprehensionExpression' || value.name === 'TupleExpression') valueKind = 'list';
    else if (value.name === 'CallExpression') {
      const callee = value.firstChild ? calleeName(value.firstChild) : '';
      const last = callee.split('.').pop() ?? '';
      if (callee === 'dict') valueKind = 'object';
      else if (callee === 'json.dumps' || callee === 'str') valueKind = 'string';
      else if (callee === 'list') valueKind = 'list';
      else if (/^[A-Z]/.test(last)) {
        valueKind = 'object';
        if (/CallToolResult$/.test(callee)) {
          for (const a of kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text)) if (a.name === 'isError' || a.name === 'is_error') isError = mod.src(a.value) === 'True';
        }
      }
      if (callee === 'json.dumps') {
        const a = argsOf(child(value, 'ArgList'))[0];
        if (a?.value.name === 'DictionaryExpression') looksLikeError = returnFactLooksError(a.value);
      }
    } else if (value.name === 'VariableName' && errorVars.has(mod.src(value))) valueKind = 'other';
    for (const t of texts) {
      if (/^\s*(error|failed|failure|exception)\b/i.test(t) || /"error"\s*:/.test(t)) looksLikeError = true;
    }
    const leaks = value ? leaksIn(value) : [];
    return { span: mod.span(stmt), texts, looksLikeError, valueKind, leaks, ...(isError !== undefined ? { isError } : {}) };
  };

  const returnFactLooksError = (dict: SyntaxNode): boolean => {
    const parts = children(dict);
    return parts.some((p, i) => parts[i + 1]?.name === ':' && /^(error|errors|err)$/i.test(stringValue(p, mod.text) ?? ''));
  };

  // One cursor pass over the body (no SyntaxNode allocation for nodes that carry no fact).
  const visit = (root: SyntaxNode): void => {
    root.cursor().iterate((ref) => {
      if (ref.from === root.from && ref.to === root.to && ref.name === root.name) return undefined;
      switch (ref.name) {
        case 'FunctionDefinition':
        case 'ClassDefinition':
        case 'DecoratedStatement':
        case 'LambdaExpression':
          return false; // nested definitions run elsewhere
        case 'AssignStatement':
        case 'WithStatement':
        case 'TryStatement':
        case 'ForStatement':
        case 'ReturnStatement':
        case 'RaiseStatement':
        case 'CallExpression':
          break;
        default:
          return undefined;
      }
      const c = ref.node;
      switch (c.name) {
        case 'AssignStatement': {
          const parts = children(c);
          const opIdx = parts.findIndex((p) => p.name === 'AssignOp');
          const value = opIdx >= 0 ? parts[parts.length - 1] : undefined;
          if (value) {
            const ps = paramsIn(value);
            for (const target of parts.slice(0, opIdx)) {
              if (target.name !== 'VariableName') continue;
              const name = mod.src(target);
              if (ps.length) taint.set(name, new Set([...(taint.get(name) ?? []), ...ps]));
              if (value.name === 'CallExpression' && value.firstChild) {
                const q = calleeName(value.firstChild);
                if (/^[\w.]+$/.test(q)) instanceOf.set(name, q);
              }
            }
          }
          break;
        }
        case 'WithStatement': {
          // with httpx.Client() as client:
          const parts = children(c);
          for (let i = 0; i < parts.length; i++) {
            if (parts[i].name === 'as' && parts[i + 1]?.name === 'VariableName' && parts[i - 1]?.name === 'CallExpression' && parts[i - 1].firstChild) {
              instanceOf.set(mod.src(parts[i + 1]), calleeName(parts[i - 1].firstChild!));
              const ps = paramsIn(parts[i - 1]);
              if (ps.length) taint.set(mod.src(parts[i + 1]), new Set(ps));
            }
          }
          break;
        }
        case 'TryStatement': {
          const parts = children(c);
          for (let i = 0; i < parts.length; i++) if (parts[i].name === 'as' && parts[i + 1]?.name === 'VariableName') errorVars.add(mod.src(parts[i + 1]));
          break;
        }
        case 'ForStatement': {
          const parts = children(c);
          const inIdx = parts.findIndex((p) => p.name === 'in');
          if (inIdx > 0 && parts[inIdx + 1]) {
            const ps = paramsIn(parts[inIdx + 1]);
            for (const t of parts.slice(0, inIdx)) if (t.name === 'VariableName' && ps.length) taint.set(mod.src(t), new Set(ps));
          }
          break;
        }
        case 'ReturnStatement':
          returns.push(returnFact(c));
          break;
        case 'RaiseStatement': {
          const value = meaningful(c).find((x) => x.name !== 'raise' && x.name !== 'from');
          let exception = '';
          let message: string | undefined;
          if (value?.name === 'CallExpression' && value.firstChild) {
            exception = (dottedName(value.firstChild, mod.text) ?? mod.src(value.firstChild)).split('.').pop() ?? '';
            const a = argsOf(child(value, 'ArgList'))[0];
            if (a && !a.name) message = stringValue(a.value, mod.text) ?? mod.src(a.value);
          } else if (value) exception = (dottedName(value, mod.text) ?? mod.src(value)).split('.').pop() ?? '';
          raises.push({ exception, span: mod.span(c), ...(message !== undefined ? { message } : {}) });
          break;
        }
        case 'CallExpression': {
          const callee = c.firstChild;
          if (callee) {
            const q = calleeName(callee);
            const argList = child(c, 'ArgList');
            const args = kwargsWithNames(argsOf(argList), mod.text);
            const shell = args.some((a) => a.name === 'shell' && mod.src(a.value) === 'True');
            calls.push({ callee: q, span: mod.span(c), paramsInArgs: argList ? paramsIn(argList) : [], shell, awaited: c.parent?.name === 'AwaitExpression' });
            if (/(\.is_relative_to|os\.path\.commonpath|\.relative_to)$/.test(q)) containment = true;
            if (/\.startswith$/.test(q) && /(resolve|realpath|abspath)/.test(mod.text.slice(fn.from, fn.to))) containment = true;
          }
          break;
        }
      }
      return undefined;
    });
  };
  if (body) visit(body);
  return {
    span: mod.span(fn),
    name: nameNode ? mod.src(nameNode) : undefined,
    isAsync,
    bodySpan: body ? mod.span(body) : mod.span(fn),
    calls,
    returns,
    raises,
    returnAnnotation: retAnn ? mod.src(retAnn) : undefined,
    hasPathContainmentCheck: containment,
  };
}

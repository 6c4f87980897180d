/**
 * Facts about a Python tool handler's body that security / I/O / error rules read: calls (callee resolved through
 * imports, parameters reaching arguments, shell=True, awaited), returns (texts, error-looking payloads, leaked
 * internals), raises and path containment checks.
 */
import type { SyntaxNode } from '@lezer/common';
import type { CallFact, ErrorLeak, HandlerDefinition, ReturnFact } from '../model';
import type { PyModule } from './module';
import { argsOf, child, children, dottedName, kwargsWithNames, meaningful, stringValue } from './syntax';

/** Calls that look at a URL's scheme or host (given a parameter): parsing it, a prefix test, a validator named for it. */
const URL_CHECK = /(^|\.)(urlparse|urlsplit|startswith)$|valid\w*_?ur[li]|ur[li]\w*valid|safe_?ur[li]|check_?ur[li]|allowed_?(host|domain|url)/i;

const ERROR_KEY = /^(error|errors|err|error_message)$/i;

/** Calls whose result no longer carries the caller's text (numbers, lengths, shell-quoted words). */
const CUTS_TAINT = /^(int|float|bool|len|hash|abs|round|shlex\.quote|shlex\.join|pipes\.quote)$/;

export function handlerFacts(mod: PyModule, fn: SyntaxNode, paramNames: string[]): HandlerDefinition {
  const body = child(fn, 'Body');
  const nameNode = child(fn, 'VariableName');
  const isAsync = children(fn).some((c) => c.name === 'async');
  const returnTypeDef = children(fn).find((c) => c.name === 'TypeDef');
  const retAnn = returnTypeDef ? meaningful(returnTypeDef).find((c) => c.name !== '->') : undefined;
  const facts: BodyFacts = { calls: [], returns: [], raises: [] };
  if (body) collectBodyFacts(mod, body, new Locals(mod, paramNames), facts);
  return {
    span: mod.span(fn),
    name: nameNode ? mod.src(nameNode) : undefined,
    isAsync,
    bodySpan: body ? mod.span(body) : mod.span(fn),
    calls: facts.calls,
    returns: facts.returns,
    raises: facts.raises,
    returnAnnotation: retAnn ? mod.src(retAnn) : undefined,
    hasPathContainmentCheck: hasContainmentCheck(mod, fn, 0),
    checksUrl: facts.calls.some((c) => c.paramsInArgs.length > 0 && URL_CHECK.test(c.callee)),
    ...parameterListEnd(fn),
  };
}

/**
 * Where a fix appends a parameter (`limit`, `dry_run`): the `)` closing the def's parameter list, and the end of
 * the last parameter's own text (never after a trailing comment).
 */
function parameterListEnd(fn: SyntaxNode): Pick<HandlerDefinition, 'paramsEndOffset' | 'paramsContentEndOffset'> {
  const close = child(fn, 'ParamList')?.lastChild;
  if (close?.name !== ')') return {};
  let lastContent = close.prevSibling;
  while (lastContent && (lastContent.name === 'Comment' || lastContent.name === ',')) lastContent = lastContent.prevSibling;
  return { paramsEndOffset: close.from, ...(lastContent && lastContent.name !== '(' ? { paramsContentEndOffset: lastContent.to } : {}) };
}

type BodyFacts = Pick<HandlerDefinition, 'calls' | 'returns' | 'raises'>;

/**
 * What the walk knows about the handler's local names so far: which parameters each one's value derives from,
 * which ones hold an instance made by a known call, which ones hold a caught exception.
 */
class Locals {
  /** local name -> handler parameters its value derives from. */
  readonly taint: Map<string, Set<string>>;
  /** local name -> qualified callee of the call that produced it (`client = httpx.Client()`). */
  readonly instanceOf = new Map<string, string>();
  /** names bound by `except X as e`. */
  readonly errorVars = new Set<string>();

  constructor(
    private readonly mod: PyModule,
    paramNames: string[],
  ) {
    this.taint = new Map(paramNames.map((p) => [p, new Set([p])]));
  }

  assignTo(target: SyntaxNode, ps: string[], strong: boolean): void {
    if (target.name !== 'VariableName') return; // attributes / subscripts of other objects: not a local alias
    const name = this.mod.src(target);
    const next = new Set(strong ? [] : (this.taint.get(name) ?? []));
    for (const p of ps) next.add(p);
    if (next.size) this.taint.set(name, next);
    else this.taint.delete(name);
  }

  /**
   * Handler parameters whose value flows into `node`: names read directly or through a tainted local, inside
   * f-strings, concatenation, `%` / `.format`, attributes and subscripts. Not followed: keyword names (`f(name=...)`),
   * lambda parameters, and calls that turn a value into a number or a shell-quoted word (`int(x)`, `len(x)`,
   * `shlex.quote(x)`): what comes out of those is no longer the caller's text.
   */
  paramsIn(node: SyntaxNode): string[] {
    const mod = this.mod;
    // No tainted name in the text at all: nothing can reach (most arguments of most calls).
    const text = mod.text.slice(node.from, node.to);
    let any = false;
    for (const name of this.taint.keys())
      if (text.includes(name)) {
        any = true;
        break;
      }
    if (!any) return [];
    const found = new Set<string>();
    node.cursor().iterate((n) => {
      if (n.name === 'VariableName') {
        // Untainted names (most of them) need no node: the keyword-name check only matters for a tainted one.
        const t = this.taint.get(mod.src(n));
        if (!t) return undefined;
        const next = n.node.nextSibling;
        if (next?.name === 'AssignOp' && n.node.parent?.name === 'ArgList') return false; // keyword name
        for (const p of t) found.add(p);
      } else if (n.name === 'ParamList') return false;
      else if (n.name === 'CallExpression' && n.node.firstChild && CUTS_TAINT.test(this.calleeName(n.node.firstChild))) return false;
      return undefined;
    });
    return [...found];
  }

  /** The qualified name of a callee: through imports, and through locals holding an instance (`client.get`). */
  calleeName(callee: SyntaxNode): string {
    const mod = this.mod;
    const d = dottedName(callee, mod.text);
    if (!d) {
      // `httpx.Client().get` / `open(p).read`: use the inner call's callee.
      if (callee.name === 'MemberExpression') {
        const parts = children(callee);
        const prop = parts[parts.length - 1];
        if (parts[0]?.name === 'CallExpression' && prop?.name === 'PropertyName' && parts[0].firstChild) return `${this.calleeName(parts[0].firstChild)}.${mod.src(prop)}`;
      }
      return mod.src(callee).slice(0, 80);
    }
    const dot = d.indexOf('.');
    if (dot >= 0) {
      const inst = this.instanceOf.get(d.slice(0, dot));
      if (inst) return inst + d.slice(dot);
    }
    return mod.qualifyName(d);
  }
}

/** One cursor pass over the body (no SyntaxNode allocation for nodes that carry no fact). */
function collectBodyFacts(mod: PyModule, root: SyntaxNode, locals: Locals, facts: BodyFacts): void {
  root.cursor().iterate((ref) => {
    if (ref.from === root.from && ref.to === root.to && ref.name === root.name) return undefined;
    switch (ref.name) {
      case 'FunctionDefinition':
      case 'ClassDefinition':
      case 'DecoratedStatement':
      case 'LambdaExpression':
        return false; // nested definitions run elsewhere
      case 'AssignStatement':
      case 'UpdateStatement':
      case 'NamedExpression':
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
      case 'AssignStatement':
        bindAssignment(mod, c, root, locals);
        break;
      case 'UpdateStatement': // cmd += name
      case 'NamedExpression': {
        // (n := name)
        const parts = children(c);
        if (parts[0]?.name === 'VariableName' && parts[2]) locals.assignTo(parts[0], locals.paramsIn(parts[2]), false);
        break;
      }
      case 'WithStatement':
        bindWithTargets(mod, c, locals);
        break;
      case 'TryStatement': {
        const parts = children(c);
        for (let i = 0; i < parts.length; i++) if (parts[i].name === 'as' && parts[i + 1]?.name === 'VariableName') locals.errorVars.add(mod.src(parts[i + 1]));
        break;
      }
      case 'ForStatement': {
        const parts = children(c);
        const inIdx = parts.findIndex((p) => p.name === 'in');
        if (inIdx > 0 && parts[inIdx + 1]) {
          const ps = locals.paramsIn(parts[inIdx + 1]);
          for (const t of parts.slice(0, inIdx)) if (t.name === 'VariableName' && ps.length) locals.taint.set(mod.src(t), new Set(ps));
        }
        break;
      }
      case 'ReturnStatement':
        facts.returns.push(returnFact(mod, c, locals));
        break;
      case 'RaiseStatement':
        facts.raises.push(raiseFact(mod, c, locals));
        break;
      case 'CallExpression': {
        const call = callFact(mod, c, locals);
        if (call) facts.calls.push(call);
        break;
      }
    }
    return undefined;
  });
}

/** `a = b = value`, `x: T = value`, `a, b = p, q` (paired when the counts match). */
function bindAssignment(mod: PyModule, c: SyntaxNode, body: SyntaxNode, locals: Locals): void {
  const parts = children(c).filter((p) => p.name !== 'TypeDef');
  const segments: SyntaxNode[][] = [[]];
  for (const p of parts) {
    if (p.name === 'AssignOp') segments.push([]);
    else if (p.name !== ',') segments[segments.length - 1].push(p);
  }
  if (segments.length < 2) return;
  const values = segments.pop()!;
  // A top-level statement runs once, in order: it replaces what the name held. Inside a branch or a loop
  // the old value may survive, so taints add up.
  const strong = c.parent?.from === body.from && c.parent?.to === body.to;
  for (const targets of segments) {
    targets.forEach((target, i) => {
      const value = targets.length === values.length ? values[i] : values.length === 1 ? values[0] : undefined;
      locals.assignTo(target, value ? locals.paramsIn(value) : values.flatMap((v) => locals.paramsIn(v)), strong);
      if (value?.name === 'CallExpression' && value.firstChild && target.name === 'VariableName') {
        const q = locals.calleeName(value.firstChild);
        if (/^[\w.]+$/.test(q)) locals.instanceOf.set(mod.src(target), q);
      }
    });
  }
}

/** with httpx.Client() as client: */
function bindWithTargets(mod: PyModule, c: SyntaxNode, locals: Locals): void {
  const parts = children(c);
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].name === 'as' && parts[i + 1]?.name === 'VariableName' && parts[i - 1]?.name === 'CallExpression' && parts[i - 1].firstChild) {
      locals.instanceOf.set(mod.src(parts[i + 1]), locals.calleeName(parts[i - 1].firstChild!));
      const ps = locals.paramsIn(parts[i - 1]);
      if (ps.length) locals.taint.set(mod.src(parts[i + 1]), new Set(ps));
    }
  }
}

function callFact(mod: PyModule, c: SyntaxNode, locals: Locals): CallFact | undefined {
  const callee = c.firstChild;
  if (!callee) return undefined;
  const q = locals.calleeName(callee);
  const argList = child(c, 'ArgList');
  const args = kwargsWithNames(argsOf(argList), mod.text);
  const shell = args.some((a) => a.name === 'shell' && mod.src(a.value) === 'True');
  const reached = new Set(argList ? locals.paramsIn(argList) : []);
  // A method call reads its receiver too: `(ROOT / path).read_text()`, `target.unlink()`. A receiver that
  // is itself a call (`Path(path).read_text()`) already has its own fact.
  const receiver = callee.name === 'MemberExpression' ? callee.firstChild : null;
  if (receiver && receiver.name !== 'CallExpression' && callee.lastChild?.name === 'PropertyName') for (const p of locals.paramsIn(receiver)) reached.add(p);
  const positional = args.filter((a) => !a.name);
  const urlArg = args.find((a) => a.name === 'url')?.value ?? positional[/(^|\.)request$/.test(q) ? 1 : 0]?.value;
  const inUrl = urlArg && !fixedOrigin(mod, urlArg) ? locals.paramsIn(urlArg) : [];
  const helper = reached.size > 0 ? helperFunction(mod, callee) : undefined;
  const joined = new Set<string>();
  if (helper) for (const i of joinsUncheckedPath(helper.mod, helper.fn)) if (positional[i]) for (const p of locals.paramsIn(positional[i].value)) joined.add(p);
  const viaHelper: { callee: string; params: string[] }[] = [];
  if (helper)
    for (const inner of urlArgsInHelper(helper.mod, helper.fn)) {
      const params = new Set<string>();
      for (const at of inner.at) {
        const a = args.find((x) => x.name === at.name) ?? positional[at.position];
        if (a) for (const p of locals.paramsIn(a.value)) params.add(p);
      }
      if (params.size) viaHelper.push({ callee: inner.callee, params: [...params] });
    }
  return {
    callee: q,
    span: mod.span(c),
    paramsInArgs: [...reached],
    shell,
    awaited: c.parent?.name === 'AwaitExpression',
    ...(joined.size ? { joinsUncheckedPath: [...joined] } : {}),
    ...(inUrl.length ? { paramsInUrlArg: inUrl } : {}),
    ...(viaHelper.length ? { urlArgInHelper: viaHelper } : {}),
  };
}

/**
 * `f"https://mirror.example.org/fetch?u={url}"`, `"https://api.x.com/" + name`: the scheme and host are the author's;
 * what the caller passes lands in the path or the query, not in the destination.
 */
function fixedOrigin(mod: PyModule, value: SyntaxNode): boolean {
  let head = value;
  while (head.name === 'BinaryExpression' && head.firstChild && head.firstChild.nextSibling && mod.src(head.firstChild.nextSibling) === '+') head = head.firstChild;
  if (head === value && head.name !== 'FormatString') return false;
  if (head.name !== 'String' && head.name !== 'FormatString') return false;
  return /^[a-zA-Z]*("""|'''|"|')[a-z][a-z0-9+.-]*:\/\/[^/?#\s{]+[/?#]/i.test(mod.src(head));
}

/**
 * The module-level function a callee names, with the module it is defined in: a function of this module
 * (`get_excel_path(name)`), one imported from a module of the project (`from .paths import get_excel_path`,
 * `from excel_mcp.paths import ...` inside the excel_mcp package), or a function of an imported project module
 * (`paths.get_excel_path(name)` after `from . import paths`). Library modules are never read.
 */
function helperFunction(mod: PyModule, callee: SyntaxNode): { mod: PyModule; fn: SyntaxNode } | undefined {
  if (callee.name === 'VariableName') {
    const name = mod.src(callee);
    const local = mod.functions.get(name);
    if (local) return { mod, fn: local };
    const imp = mod.imports.get(name);
    if (!imp || imp.qualified === imp.module) return undefined;
    const target = projectModule(mod, imp.level ? '.'.repeat(imp.level) + imp.module : imp.module);
    const fn = target?.functions.get(imp.qualified.split('.').pop() ?? '');
    return target && fn ? { mod: target, fn } : undefined;
  }
  if (callee.name !== 'MemberExpression') return undefined;
  const parts = children(callee);
  const owner = parts[0];
  const prop = parts[parts.length - 1];
  if (owner?.name !== 'VariableName' || prop?.name !== 'PropertyName' || parts.length !== 3) return undefined;
  const imp = mod.imports.get(mod.src(owner));
  if (!imp) return undefined;
  // `from . import paths` (qualified `.paths`) or `import pkg.paths as paths` (qualified `pkg.paths`): a module.
  const target = projectModule(mod, imp.qualified);
  const fn = target?.functions.get(mod.src(prop));
  return target && fn ? { mod: target, fn } : undefined;
}

/**
 * A module of the project this file belongs to, never a library: a relative import, a module of the package the
 * file is in (`excel_mcp.paths` from excel_mcp/server.py), or of a package next to the file (`server.py` beside
 * `docsrv/`).
 */
function projectModule(mod: PyModule, name: string): PyModule | undefined {
  if (!name.startsWith('.')) {
    const top = name.split('.')[0];
    const folders = mod.file.split(/[\\/]/).slice(0, -1);
    const dir = folders.join('/');
    const host = mod.program.host;
    if (!folders.includes(top) && !host.fileExists(`${dir}/${top}/__init__.py`) && !host.fileExists(`${dir}/${top}.py`)) return undefined;
  }
  return mod.program.resolveModule(name, mod.file);
}

type HelperUrlArg = { callee: string; at: { name: string; position: number }[] };
const urlArgsMemo = new WeakMap<SyntaxNode, HelperUrlArg[]>();

/**
 * The calls inside the module-level function `helper` (and the helpers it calls) whose URL argument comes from its
 * parameters, by parameter name and position. The helper's body is walked like a handler's, so the same taint and
 * URL-check facts apply; a helper that checks the URL (`URL_CHECK` on a parameter) or installs a request hook of
 * this module that refuses destinations (httpx `event_hooks`, run before every request and redirect hop) has none.
 */
function urlArgsInHelper(mod: PyModule, helper: SyntaxNode): HelperUrlArg[] {
  const known = urlArgsMemo.get(helper);
  if (known) return known;
  urlArgsMemo.set(helper, []); // recursion guard
  const body = child(helper, 'Body');
  const names: string[] = [];
  const paramList = child(helper, 'ParamList');
  // A parameter's name, not a default value (`limit=DEFAULT_LIMIT`).
  for (const n of paramList ? children(paramList) : []) if (n.name === 'VariableName' && n.prevSibling?.name !== 'AssignOp') names.push(mod.src(n));
  const positional = names.filter((n) => n !== 'self' && n !== 'cls');
  const out: HelperUrlArg[] = [];
  if (body && positional.length) {
    const facts: BodyFacts = { calls: [], returns: [], raises: [] };
    collectBodyFacts(mod, body, new Locals(mod, positional), facts);
    // Parsing alone is not a check in a helper (`urlparse(url)` to build the robots.txt address): the parts must be compared.
    const checks = facts.calls.some((c) => c.paramsInArgs.length > 0 && URL_CHECK.test(c.callee) && (!URL_PARSE.test(c.callee) || comparesUrlParts(mod, body))) || installsRefusingHook(mod, body);
    if (!checks) {
      const at = (ps: string[]) => ps.map((name) => ({ name, position: positional.indexOf(name) }));
      for (const c of facts.calls) {
        if (c.paramsInUrlArg) out.push({ callee: c.callee, at: at(c.paramsInUrlArg) });
        for (const inner of c.urlArgInHelper ?? []) out.push({ callee: inner.callee, at: at(inner.params) });
      }
    }
  }
  urlArgsMemo.set(helper, out);
  return out;
}

const URL_PARSE = /(^|\.)(urlparse|urlsplit)$/;
const URL_PART = /^(scheme|hostname|netloc|host|port|domain)$/;

/** A comparison of a URL's parts: `parsed.scheme not in ("http", "https")`, `host != "api.example.com"`, `parsed.hostname in ALLOWED`. */
function comparesUrlParts(mod: PyModule, body: SyntaxNode): boolean {
  let found = false;
  body.cursor().iterate((n) => {
    if (found) return false;
    if (n.name !== 'BinaryExpression') return undefined;
    const parts = children(n.node);
    if (!parts.some((x) => x.name === 'CompareOp' || x.name === 'in')) return undefined;
    // An operand naming a part: `host`, `parsed.hostname`, `parsed.scheme.lower()`.
    found = parts.some((x) => {
      if (x.name === 'VariableName') return URL_PART.test(mod.src(x));
      let names = false;
      x.cursor().iterate((m) => {
        if (m.name === 'PropertyName' && URL_PART.test(mod.src(m.node))) names = true;
        return !names && m.name !== 'ArgList' ? undefined : false;
      });
      return names;
    });
    return undefined;
  });
  return found;
}

/** `client.event_hooks = {"request": [guard]}` / `event_hooks=...` naming a function of this module that raises. */
function installsRefusingHook(mod: PyModule, body: SyntaxNode): boolean {
  let hook = false;
  const named: string[] = [];
  body.cursor().iterate((n) => {
    if ((n.name === 'PropertyName' || n.name === 'VariableName') && mod.src(n.node) === 'event_hooks') hook = true;
    else if (n.name === 'VariableName') named.push(mod.src(n.node));
    return undefined;
  });
  if (!hook) return false;
  return named.some((name) => {
    const fn = mod.functions.get(name);
    let raises = false;
    fn?.cursor().iterate((n) => {
      if (n.name === 'RaiseStatement') raises = true;
      return !raises;
    });
    return raises;
  });
}

const PATH_JOIN = /^(os\.path\.join|posixpath\.join|ntpath\.join|pathlib\.Path|pathlib\.PurePath|pathlib\.PurePosixPath|Path|PurePath)$/;
const PATH_LIKE_OPERAND = /path|dir|root|base|folder|home|Path\(/i;
const joinsPathMemo = new WeakMap<SyntaxNode, number[]>();

/**
 * Which parameters (by position) of the module-level function `helper` end up in a path it joins and returns
 * (`os.path.join(BASE, name)`, `Path(BASE) / name`, directly or through a local) without refusing what escapes the
 * base? Its containment check is the one the handler check reads (`hasContainmentCheck`), so a helper that resolves
 * and tests returns none.
 */
function joinsUncheckedPath(mod: PyModule, helper: SyntaxNode): number[] {
  const known = joinsPathMemo.get(helper);
  if (known) return known;
  joinsPathMemo.set(helper, []); // recursion guard
  const body = child(helper, 'Body');
  const paramList = child(helper, 'ParamList');
  /** local name -> positions of the helper parameters its value derives from. */
  const tainted = new Map<string, Set<number>>();
  let position = 0;
  if (paramList)
    for (const n of children(paramList)) {
      if (n.name !== 'VariableName') continue;
      const name = mod.src(n);
      if (name === 'self' || name === 'cls') continue;
      tainted.set(name, new Set([position++]));
    }
  const result = new Set<number>();
  if (body && tainted.size && !hasContainmentCheck(mod, helper, 0)) {
    const joined = new Map<string, Set<number>>();
    const sourcesIn = (node: SyntaxNode, names: Map<string, Set<number>>, into: Set<number>): Set<number> => {
      node.cursor().iterate((n) => {
        if (n.name === 'VariableName') for (const i of names.get(mod.src(n)) ?? []) into.add(i);
        return undefined;
      });
      return into;
    };
    /** The parameter positions that reach a path join inside `node` (only through a later part of the join). */
    const joinSources = (node: SyntaxNode): Set<number> => {
      const out = new Set<number>();
      node.cursor().iterate((n) => {
        if (n.name === 'VariableName') for (const i of joined.get(mod.src(n)) ?? []) out.add(i);
        else if (n.name === 'CallExpression') {
          const callee = n.node.firstChild;
          const d = callee ? dottedName(callee, mod.text) : undefined;
          const isJoin = !!d && PATH_JOIN.test(mod.qualifyName(d));
          const isJoinPath = callee?.name === 'MemberExpression' && callee.lastChild?.name === 'PropertyName' && mod.src(callee.lastChild) === 'joinpath';
          // A join of two parts or more, a later one from the caller: `os.path.join(BASE, name)`, `Path(BASE, name)`, `base.joinpath(name)`.
          const args = argsOf(child(n.node, 'ArgList'));
          if (isJoinPath) for (const a of args) sourcesIn(a.value, tainted, out);
          else if (isJoin && args.length >= 2) for (const a of args.slice(1)) sourcesIn(a.value, tainted, out);
        } else if (n.name === 'BinaryExpression') {
          const parts = children(n.node);
          if (parts.length === 3 && mod.src(parts[1]) === '/' && PATH_LIKE_OPERAND.test(mod.src(parts[0]))) sourcesIn(parts[2], tainted, out);
        }
        return undefined;
      });
      return out;
    };
    body.cursor().iterate((ref) => {
      if (ref.name === 'FunctionDefinition' || ref.name === 'ClassDefinition' || ref.name === 'LambdaExpression') return false;
      if (ref.name === 'AssignStatement') {
        const parts = children(ref.node);
        const value = parts[parts.length - 1];
        if (!value || value.name === 'AssignOp') return undefined;
        const targets = parts
          .slice(0, -1)
          .filter((x) => x.name === 'VariableName')
          .map((x) => mod.src(x));
        const j = joinSources(value);
        const t = sourcesIn(value, tainted, new Set());
        for (const name of targets) {
          if (j.size) joined.set(name, j);
          else if (t.size) tainted.set(name, t);
        }
        return undefined;
      }
      if (ref.name === 'ReturnStatement') {
        // The returned value is the path itself (or `str(...)` / `os.path.normpath(...)` of it), not a text mentioning it.
        let value = meaningful(ref.node).find((x) => x.name !== 'return');
        while (value?.name === 'CallExpression' && value.firstChild && /^(str|os\.path\.(normpath|abspath)|Path|pathlib\.Path)$/.test(mod.qualifyName(dottedName(value.firstChild, mod.text) ?? ''))) {
          const a = argsOf(child(value, 'ArgList'));
          if (a.length !== 1) break;
          value = a[0].value;
        }
        if (value && (value.name === 'VariableName' || value.name === 'CallExpression' || value.name === 'BinaryExpression')) for (const i of joinSources(value)) result.add(i);
      }
      return undefined;
    });
  }
  const positions = [...result].sort((a, b) => a - b);
  joinsPathMemo.set(helper, positions);
  return positions;
}

function raiseFact(mod: PyModule, c: SyntaxNode, locals: Locals): HandlerDefinition['raises'][number] {
  const value = meaningful(c).find((x) => x.name !== 'raise' && x.name !== 'from');
  let exception = '';
  let message: string | undefined;
  let leaks: ReturnFact['leaks'] = [];
  if (value?.name === 'CallExpression' && value.firstChild) {
    exception = (dottedName(value.firstChild, mod.text) ?? mod.src(value.firstChild)).split('.').pop() ?? '';
    const argList = child(value, 'ArgList');
    const a = argsOf(argList)[0];
    if (a && !a.name) message = stringValue(a.value, mod.text) ?? mod.src(a.value);
    // What the exception carries (not the `from e` cause, which is never shown).
    if (argList) leaks = leaksIn(mod, argList, locals);
  } else if (value) exception = (dottedName(value, mod.text) ?? mod.src(value)).split('.').pop() ?? '';
  return { exception, span: mod.span(c), ...(message !== undefined ? { message } : {}), ...(leaks.length ? { leaks } : {}) };
}

function returnFact(mod: PyModule, stmt: SyntaxNode, locals: Locals): ReturnFact {
  const value = meaningful(stmt).find((c) => c.name !== 'return');
  const texts = value ? textsIn(mod, value) : [];
  let valueKind: ReturnFact['valueKind'] = 'other';
  let looksLikeError = false;
  let isError: boolean | undefined;
  /** The message a `raise ToolError(...)` fix would carry. */
  let message: SyntaxNode | undefined;
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
    message = errorEntryValue(mod, value, locals);
  } else if (value.name === 'String' || value.name === 'FormatString' || value.name === 'ContinuedString') valueKind = 'string';
  else if (value.name === 'ArrayExpression' || value.name === 'ArrayComprehensionExpression' || value.name === 'TupleExpression') valueKind = 'list';
  else if (value.name === 'CallExpression') {
    const callee = value.firstChild ? locals.calleeName(value.firstChild) : '';
    const last = callee.split('.').pop() ?? '';
    if (callee === 'dict') {
      valueKind = 'object';
      message = errorEntryValue(mod, value, locals);
      if (message) looksLikeError = true;
    } else if (callee === 'json.dumps' || callee === 'str') valueKind = 'string';
    else if (callee === 'list') valueKind = 'list';
    else if (/^[A-Z]/.test(last)) {
      valueKind = 'object';
      if (/CallToolResult$/.test(callee)) {
        for (const a of kwargsWithNames(argsOf(child(value, 'ArgList')), mod.text)) if (a.name === 'isError' || a.name === 'is_error') isError = mod.src(a.value) === 'True';
      }
    }
    if (callee === 'json.dumps') {
      const a = argsOf(child(value, 'ArgList'))[0];
      if (a?.value.name === 'DictionaryExpression') looksLikeError = hasErrorKey(mod, a.value);
      if (a && !a.name) message = errorEntryValue(mod, a.value, locals);
    }
  } else if (value.name === 'VariableName' && locals.errorVars.has(mod.src(value))) valueKind = 'other';
  for (const t of texts) {
    if (/^\s*(error|failed|failure|exception)\b/i.test(t) || /"error"\s*:/.test(t)) looksLikeError = true;
  }
  if (!message && value && looksLikeError && isTextExpression(mod, value)) message = value;
  const leaks = value ? leaksIn(mod, value, locals) : [];
  return {
    span: mod.span(stmt),
    texts,
    looksLikeError,
    valueKind,
    leaks,
    ...(isError !== undefined ? { isError } : {}),
    ...(value ? { valueSpan: mod.span(value) } : {}),
    ...(message && looksLikeError ? { errorMessageSpan: mod.span(message) } : {}),
  };
}

/** A dict literal with an `error` / `errors` / `err` key (inside `json.dumps(...)`). */
function hasErrorKey(mod: PyModule, dict: SyntaxNode): boolean {
  const parts = children(dict);
  return parts.some((p, i) => parts[i + 1]?.name === ':' && /^(error|errors|err)$/i.test(stringValue(p, mod.text) ?? ''));
}

/** Tracebacks, stacks and stringified caught exceptions inside `node`. */
function leaksIn(mod: PyModule, node: SyntaxNode, locals: Locals): ReturnFact['leaks'] {
  const leaks: ReturnFact['leaks'] = [];
  node.cursor().iterate((n) => {
    if (n.name === 'CallExpression') {
      const c = n.node.firstChild;
      const q = c ? locals.calleeName(c) : '';
      if (/^traceback\.(format_exc|format_exception|format_tb|format_stack|print_exc)$/.test(q)) {
        leaks.push({ kind: 'traceback', span: mod.span(n) });
        return false;
      }
      if ((q === 'str' || q === 'repr') && c) {
        const a = argsOf(child(n.node, 'ArgList'));
        if (a.length === 1 && a[0].value.name === 'VariableName' && locals.errorVars.has(mod.src(a[0].value))) {
          leaks.push({ kind: 'stringified-error', span: mod.span(n), ...caughtException(mod, n.node, mod.src(a[0].value)) });
          return false;
        }
      }
    }
    if (n.name === 'FormatReplacement') {
      const inner = meaningful(n.node).filter((x) => x.name !== '{' && x.name !== '}');
      if (inner[0]?.name === 'VariableName' && locals.errorVars.has(mod.src(inner[0])))
        leaks.push({ kind: 'stringified-error', span: mod.span(n), ...caughtException(mod, n.node, mod.src(inner[0])) });
    }
    if (n.name === 'MemberExpression') {
      const d = dottedName(n.node, mod.text);
      if (d && /\.__traceback__$/.test(d)) leaks.push({ kind: 'stack', span: mod.span(n) });
    }
    return undefined;
  });
  return leaks;
}

/**
 * What the except clause binding the exception `name` stringified at `node` says about it:
 * - `ownException` when every class it catches is the project's own: defined in this module, imported relatively, or
 *   imported from the package this file is in (`from excel_mcp.exceptions import ValidationError` in
 *   excel_mcp/server.py). Their text is what the author wrote for the caller; a builtin or a library's exception
 *   carries whatever failed.
 * - `catchAll` when it catches `Exception` / `BaseException`: anything that failed, connection errors included.
 * - `text`: the literal text of the f-string the exception is formatted into (`f"Unexpected error: {e}"`).
 */
function caughtException(mod: PyModule, node: SyntaxNode, name: string): Pick<ErrorLeak, 'ownException' | 'catchAll' | 'text'> {
  const text = formatText(mod, node);
  const out: Pick<ErrorLeak, 'ownException' | 'catchAll' | 'text'> = text !== undefined ? { text } : {};
  // The except clause whose body holds `node`: the Body child of a TryStatement, after `except <classes> as name`.
  let body: SyntaxNode | null = node;
  while (body && !(body.name === 'Body' && body.parent?.name === 'TryStatement')) body = body.parent;
  if (!body) return out;
  const as = body.prevSibling;
  const bound = as?.name === 'VariableName' ? as : undefined;
  if (!bound || mod.src(bound) !== name || bound.prevSibling?.name !== 'as') return out;
  const caught = bound.prevSibling.prevSibling;
  if (!caught) return out;
  const classes = caught.name === 'TupleExpression' || caught.name === 'ParenthesizedExpression' ? meaningful(caught).filter((x) => x.name !== '(' && x.name !== ')' && x.name !== ',') : [caught];
  const packages = new Set(mod.file.split(/[\\/]/).slice(0, -1));
  const own = (c: SyntaxNode) => {
    const d = dottedName(c, mod.text);
    if (!d) return false;
    if (mod.classes.has(d)) return true;
    const q = mod.qualifyName(d);
    if (q === d) return false; // a builtin, or a name this module neither defines nor imports
    return q.startsWith('.') || packages.has(q.split('.')[0]);
  };
  if (classes.length > 0 && classes.every(own)) out.ownException = true;
  if (classes.some((c) => /^(Exception|BaseException)$/.test(mod.qualifyName(dottedName(c, mod.text) ?? '')))) out.catchAll = true;
  return out;
}

/** The literal text of the f-string `node` is formatted into, its replacement fields left out. */
function formatText(mod: PyModule, node: SyntaxNode): string | undefined {
  let f: SyntaxNode | null = node;
  while (f && f.name !== 'FormatString') {
    if (f.name === 'Body' || f.name.endsWith('Statement')) return undefined;
    f = f.parent;
  }
  if (!f) return undefined;
  let text = '';
  let at = f.from;
  for (const r of children(f)) {
    if (r.name !== 'FormatReplacement') continue;
    text += mod.text.slice(at, r.from);
    at = r.to;
  }
  return (text + mod.text.slice(at, f.to)).replace(/^[a-zA-Z]*("""|'''|"|')|("""|'''|"|')$/g, '');
}

/** The literal texts inside `node` (string values; the raw text of what cannot be decoded). */
function textsIn(mod: PyModule, node: SyntaxNode): string[] {
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
}

/** The value of the first error-like key of a dict literal (`{"error": msg}`), or of `dict(error=msg)`. */
function errorEntryValue(mod: PyModule, node: SyntaxNode, locals: Locals): SyntaxNode | undefined {
  if (node.name === 'DictionaryExpression') {
    const parts = children(node);
    for (let i = 0; i < parts.length; i++) {
      if (parts[i + 1]?.name === ':' && ERROR_KEY.test(stringValue(parts[i], mod.text) ?? '') && parts[i + 2]) return parts[i + 2];
    }
  } else if (node.name === 'CallExpression' && node.firstChild && locals.calleeName(node.firstChild) === 'dict') {
    return kwargsWithNames(argsOf(child(node, 'ArgList')), mod.text).find((a) => a.name !== undefined && ERROR_KEY.test(a.name))?.value;
  }
  return undefined;
}

/** A text-valued expression: a string literal, an f-string, `"Error: " + ...`, `"...".format(...)`, `"..." % x`. */
function isTextExpression(mod: PyModule, node: SyntaxNode): boolean {
  if (node.name === 'String' || node.name === 'FormatString' || node.name === 'ContinuedString') return true;
  if (node.name === 'BinaryExpression') return !!node.firstChild && isTextExpression(mod, node.firstChild);
  if (node.name === 'CallExpression' && node.firstChild?.name === 'MemberExpression') {
    const recv = node.firstChild.firstChild;
    const prop = node.firstChild.lastChild;
    return !!recv && isTextExpression(mod, recv) && prop?.name === 'PropertyName' && mod.src(prop) === 'format';
  }
  return false;
}

/** Function-name lengths per module: the cheap exit below only looks at text ending right before a `(`. */
const nameLengths = new WeakMap<PyModule, number[]>();

/**
 * Same answer as "some same-file function name followed by `(` occurs in src", without a scan of the body per
 * function (200 tools in a file made that quadratic): the text right before each `(` is looked up by length.
 */
/** Some name this module imports (a function, or a module whose function is called) is called in `src`. */
function callsImportedName(mod: PyModule, src: string): boolean {
  for (const name of mod.imports.keys()) {
    for (let i = src.indexOf(name); i >= 0; i = src.indexOf(name, i + 1)) {
      const next = src[i + name.length];
      if (next === '(' || next === '.') return true;
    }
  }
  return false;
}

function callsSameFileFunction(mod: PyModule, src: string): boolean {
  if (!mod.functions.size) return false;
  let lengths = nameLengths.get(mod);
  if (!lengths) {
    lengths = [...new Set([...mod.functions.keys()].map((k) => k.length))];
    nameLengths.set(mod, lengths);
  }
  for (let i = src.indexOf('('); i >= 0; i = src.indexOf('(', i + 1)) {
    for (const len of lengths) if (len <= i && mod.functions.has(src.slice(i - len, i))) return true;
  }
  return false;
}

const NORMALIZES = /^(os\.path\.(realpath|abspath|normpath)|posixpath\.(realpath|abspath|normpath)|ntpath\.(realpath|abspath|normpath))$/;

/**
 * Does `fn` (or a same-file helper it calls, two levels deep) refuse paths outside a root? Accepted:
 * `.is_relative_to(...)` / `.relative_to(...)`, `os.path.commonpath(...)`, and `.startswith(...)` on a value that went
 * through `.resolve()` / `os.path.realpath|abspath|normpath` (a plain string prefix without that lets `../` through).
 */
function hasContainmentCheck(mod: PyModule, fn: SyntaxNode, depth: number): boolean {
  const body = child(fn, 'Body');
  if (!body) return false;
  const src = mod.text.slice(body.from, body.to);
  // Cheap exit for the common handler: no check word and no call to a same-file function.
  if (!/relative_to|commonpath|startswith/.test(src) && !(depth < 2 && (callsSameFileFunction(mod, src) || callsImportedName(mod, src)))) return false;
  const normalized = new Set<string>();
  const isNormalizing = (call: SyntaxNode): boolean => {
    const callee = call.firstChild;
    if (!callee) return false;
    if (callee.name === 'MemberExpression' && callee.lastChild?.name === 'PropertyName' && mod.src(callee.lastChild) === 'resolve') return true;
    const d = dottedName(callee, mod.text);
    return !!d && NORMALIZES.test(mod.qualifyName(d));
  };
  const carriesNormalized = (node: SyntaxNode): boolean => {
    let yes = false;
    node.cursor().iterate((n) => {
      if (yes) return false;
      if (n.name === 'VariableName' && normalized.has(mod.src(n))) yes = true;
      else if (n.name === 'CallExpression' && isNormalizing(n.node)) yes = true;
      return undefined;
    });
    return yes;
  };
  let found = false;
  body.cursor().iterate((ref) => {
    if (found) return false;
    if (ref.name === 'FunctionDefinition' || ref.name === 'ClassDefinition' || ref.name === 'LambdaExpression') return false;
    if (ref.name === 'AssignStatement') {
      const parts = children(ref.node);
      const value = parts[parts.length - 1];
      if (value && value.name !== 'AssignOp' && carriesNormalized(value)) {
        for (const p of parts) {
          if (p.name === 'AssignOp') break;
          if (p.name === 'VariableName') normalized.add(mod.src(p));
        }
      }
      return undefined;
    }
    if (ref.name !== 'CallExpression') return undefined;
    const callee = ref.node.firstChild;
    if (!callee) return undefined;
    const prop = callee.name === 'MemberExpression' && callee.lastChild?.name === 'PropertyName' ? mod.src(callee.lastChild) : undefined;
    if (prop === 'is_relative_to' || prop === 'relative_to') found = true;
    else if (/^(os\.path|posixpath|ntpath)\.commonpath$/.test(mod.qualifyName(dottedName(callee, mod.text) ?? ''))) found = true;
    else if (prop === 'startswith' && callee.firstChild && carriesNormalized(callee.firstChild)) found = true;
    else if (depth < 2 && (callee.name === 'VariableName' || callee.name === 'MemberExpression')) {
      const helper = helperFunction(mod, callee);
      if (helper && helper.fn !== fn && hasContainmentCheck(helper.mod, helper.fn, depth + 1)) found = true;
    }
    return found ? false : undefined;
  });
  return found;
}

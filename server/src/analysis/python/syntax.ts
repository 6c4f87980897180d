/**
 * Small helpers over the @lezer/python syntax tree: child access, source text and the evaluation of
 * Python literals (strings with prefixes and escapes, numbers, None/True/False, containers).
 */
import type { SyntaxNode } from '@lezer/common';
import type { JsonValue } from '../model';

/**
 * Child nodes without comments: lezer keeps `# ...` as Comment nodes wherever they sit (inside a parameter list,
 * an argument list, a dict), and no fact ever depends on one.
 */
export function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.name !== 'Comment') out.push(c);
  return out;
}

export function child(node: SyntaxNode, name: string): SyntaxNode | undefined {
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.name === name) return c;
  return undefined;
}

const PUNCT = new Set(['(', ')', '[', ']', '{', '}', ',', ':', '.', '⚠']);

/** Children that carry meaning (no brackets, commas, error markers). */
export function meaningful(node: SyntaxNode): SyntaxNode[] {
  return children(node).filter((c) => !PUNCT.has(c.name) && !c.type.isError);
}

export interface Arg {
  /** Keyword name, undefined for positional. */
  name?: string;
  nameNode?: SyntaxNode;
  value: SyntaxNode;
  /** `*x` / `**x` spread. */
  spread?: '*' | '**';
}

/** Arguments of an ArgList: positional and keyword, in order. */
export function argsOf(argList: SyntaxNode | null | undefined): Arg[] {
  if (!argList) return [];
  const out: Arg[] = [];
  const list = children(argList);
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (PUNCT.has(c.name) || c.type.isError) continue;
    if (c.name === '*' || c.name === '**') {
      const v = list[i + 1];
      if (v) out.push({ value: v, spread: c.name });
      i++;
      continue;
    }
    if (c.name === 'VariableName' && list[i + 1]?.name === 'AssignOp') {
      const v = list[i + 2];
      if (v && !PUNCT.has(v.name)) out.push({ name: '', nameNode: c, value: v });
      i += 2;
      continue;
    }
    out.push({ value: c });
  }
  return out;
}

export function kwargsWithNames(args: Arg[], text: string): Arg[] {
  return args.map((a) => (a.nameNode ? { ...a, name: text.slice(a.nameNode.from, a.nameNode.to) } : a));
}

/** Dotted name of a VariableName / MemberExpression (`a.b.c`), undefined for anything else. */
export function dottedName(node: SyntaxNode, text: string): string | undefined {
  if (node.name === 'VariableName') return text.slice(node.from, node.to);
  if (node.name === 'MemberExpression') {
    const parts = children(node);
    if (parts.length === 3 && parts[1].name === '.' && parts[2].name === 'PropertyName') {
      const left = dottedName(parts[0], text);
      return left === undefined ? undefined : `${left}.${text.slice(parts[2].from, parts[2].to)}`;
    }
  }
  return undefined;
}

export type LiteralResult = { ok: true; value: JsonValue; python?: 'tuple' | 'set' } | { ok: false; reason: string };

/** Decodes one Python string token (prefixes, quotes, escapes). Returns undefined for f-strings with fields. */
export function decodeStringToken(raw: string): { value: string; bytes: boolean } | undefined {
  const m = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(raw);
  if (!m) return undefined;
  const prefix = m[1].toLowerCase();
  const quote = m[2];
  if (!raw.endsWith(quote) || raw.length < m[0].length + quote.length) return undefined;
  let body = raw.slice(m[0].length, raw.length - quote.length);
  if (prefix.includes('f')) {
    if (/\{(?!\{)/.test(body.replace(/\{\{/g, ''))) return undefined;
    body = body.replace(/\{\{/g, '{').replace(/\}\}/g, '}');
  }
  const bytes = prefix.includes('b');
  if (prefix.includes('r')) return { value: body, bytes };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const n = body[++i];
    if (n === undefined) {
      out += '\\';
      break;
    }
    switch (n) {
      case '\n':
        break;
      case '\r':
        if (body[i + 1] === '\n') i++;
        break;
      case '\\':
      case "'":
      case '"':
        out += n;
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'a':
        out += '\x07';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x': {
        const h = body.slice(i + 1, i + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(h)) return undefined;
        out += String.fromCharCode(parseInt(h, 16));
        i += 2;
        break;
      }
      case 'u':
      case 'U': {
        if (bytes) {
          out += '\\' + n;
          break;
        }
        const len = n === 'u' ? 4 : 8;
        const h = body.slice(i + 1, i + 1 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(h)) return undefined;
        const cp = parseInt(h, 16);
        if (cp > 0x10ffff) return undefined;
        out += String.fromCodePoint(cp);
        i += len;
        break;
      }
      case 'N':
        // Named unicode escapes need the Unicode name table: not resolved statically.
        return undefined;
      default:
        if (/[0-7]/.test(n)) {
          let o = n;
          while (o.length < 3 && /[0-7]/.test(body[i + 1] ?? '')) o += body[++i];
          out += String.fromCharCode(parseInt(o, 8));
        } else out += '\\' + n;
    }
  }
  return { value: out, bytes };
}

/** The value of a String / ContinuedString / FormatString node, or undefined when not a plain constant. */
export function stringValue(node: SyntaxNode, text: string): string | undefined {
  if (node.name === 'String' || node.name === 'FormatString') {
    if (node.firstChild && node.name === 'FormatString' && hasReplacement(node)) return undefined;
    const d = decodeStringToken(text.slice(node.from, node.to));
    return d && !d.bytes ? d.value : undefined;
  }
  if (node.name === 'ContinuedString') {
    let out = '';
    for (const c of children(node)) {
      const v = stringValue(c, text);
      if (v === undefined) return undefined;
      out += v;
    }
    return out;
  }
  if (node.name === 'ParenthesizedExpression') {
    const inner = meaningful(node);
    if (inner.length === 1) return stringValue(inner[0], text);
  }
  return undefined;
}

/**
 * An f-string whose fields are names of constants (`f"Start timestamp. {TIMESTAMP_FORMATS}"`), without conversion or
 * format spec: the text Python builds, when each name resolves to a string (or an integer, printed as Python does).
 */
function formatStringValue(node: SyntaxNode, text: string, resolveName: (node: SyntaxNode) => LiteralResult | undefined, depth: number): LiteralResult | undefined {
  let raw = '';
  let at = node.from;
  const values: string[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.name !== 'FormatReplacement') continue;
    const inner = meaningful(c).filter((x) => x.name !== '{' && x.name !== '}');
    if (inner.length !== 1 || (inner[0].name !== 'VariableName' && inner[0].name !== 'MemberExpression'))
      return { ok: false, reason: `f-string field {${text.slice(c.from + 1, c.to - 1)}} is not a constant's name` };
    const v = depth < 50 ? resolveName(inner[0]) : undefined;
    if (!v?.ok) return { ok: false, reason: `f-string field {${text.slice(inner[0].from, inner[0].to)}} is not a constant the analyser can evaluate${v && !v.ok ? `: ${v.reason}` : ''}` };
    if (typeof v.value !== 'string' && !(typeof v.value === 'number' && Number.isInteger(v.value)))
      return { ok: false, reason: `f-string field {${text.slice(inner[0].from, inner[0].to)}} is not a string or an integer` };
    raw += text.slice(at, c.from) + `\u0000${values.length}\u0000`;
    values.push(String(v.value));
    at = c.to;
  }
  raw += text.slice(at, node.to);
  const d = decodeStringToken(raw);
  if (!d || d.bytes) return undefined;
  return { ok: true, value: d.value.replace(/\u0000(\d+)\u0000/g, (_, i: string) => values[Number(i)]) };
}

function hasReplacement(node: SyntaxNode): boolean {
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.name === 'FormatReplacement') return true;
  return false;
}

/** Python numeric literal -> JS number (ints beyond 2^53 and complex numbers are refused). */
function numberValue(raw: string): { value: number; isFloat: boolean } | undefined {
  const s = raw.replace(/_/g, '');
  if (/[jJ]$/.test(s)) return undefined;
  if (/^0[xX][0-9a-fA-F]+$/.test(s)) return safeInt(parseInt(s.slice(2), 16));
  if (/^0[oO][0-7]+$/.test(s)) return safeInt(parseInt(s.slice(2), 8));
  if (/^0[bB][01]+$/.test(s)) return safeInt(parseInt(s.slice(2), 2));
  if (/^\d+$/.test(s)) return safeInt(Number(s));
  if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
    const v = Number(s);
    return Number.isFinite(v) ? { value: v, isFloat: true } : undefined;
  }
  return undefined;
}

function safeInt(v: number): { value: number; isFloat: boolean } | undefined {
  return Number.isSafeInteger(v) ? { value: v, isFloat: false } : undefined;
}

/**
 * Evaluates a constant Python expression to its JSON form (as pydantic would dump it):
 * tuples and sets become arrays, None -> null. `resolveName` handles names (enum members, constants).
 */
export function literalValue(node: SyntaxNode, text: string, resolveName?: (node: SyntaxNode) => LiteralResult | undefined, depth = 0): LiteralResult {
  if (depth > 50) return { ok: false, reason: 'literal nested too deeply' };
  const src = () => text.slice(node.from, node.to);
  switch (node.name) {
    case 'None':
      return { ok: true, value: null };
    case 'Boolean':
      return { ok: true, value: src() === 'True' };
    case 'Number': {
      const n = numberValue(src());
      return n ? { ok: true, value: n.value } : { ok: false, reason: `number ${src()} is not representable statically` };
    }
    case 'String':
    case 'ContinuedString':
    case 'FormatString': {
      const s = stringValue(node, text);
      if (s !== undefined) return { ok: true, value: s };
      if (resolveName && node.name === 'FormatString') {
        const f = formatStringValue(node, text, resolveName, depth);
        if (f) return f;
      }
      if (resolveName && node.name === 'ContinuedString') {
        let out = '';
        for (const c of children(node)) {
          const v = literalValue(c, text, resolveName, depth + 1);
          if (!v.ok || typeof v.value !== 'string') return v.ok ? { ok: false, reason: 'string part is not a string' } : v;
          out += v.value;
        }
        return { ok: true, value: out };
      }
      // bytes: pydantic dumps them as UTF-8 text; only ASCII is decoded here.
      const b = node.name === 'String' ? decodeStringToken(text.slice(node.from, node.to)) : undefined;
      if (b?.bytes && /^[\x00-\x7f]*$/.test(b.value)) return { ok: true, value: b.value };
      return { ok: false, reason: 'string is not a constant (f-string, bytes or unknown escape)' };
    }
    case 'UnaryExpression': {
      const parts = children(node);
      if (parts.length === 2 && parts[0].name === 'ArithOp') {
        const op = text.slice(parts[0].from, parts[0].to);
        const inner = literalValue(parts[1], text, resolveName, depth + 1);
        if (inner.ok && typeof inner.value === 'number' && (op === '-' || op === '+')) {
          return { ok: true, value: op === '-' ? (inner.value === 0 ? 0 : -inner.value) : inner.value };
        }
      }
      return { ok: false, reason: `expression ${src()} is not a constant` };
    }
    case 'ParenthesizedExpression': {
      const inner = meaningful(node);
      if (inner.length === 1) return literalValue(inner[0], text, resolveName, depth + 1);
      return { ok: false, reason: 'unsupported expression' };
    }
    case 'TupleExpression':
    case 'ArrayExpression':
    case 'SetExpression': {
      const items: JsonValue[] = [];
      for (const c of meaningful(node)) {
        const v = literalValue(c, text, resolveName, depth + 1);
        if (!v.ok) return v;
        items.push(v.value);
      }
      return { ok: true, value: items, python: node.name === 'TupleExpression' ? 'tuple' : node.name === 'SetExpression' ? 'set' : undefined };
    }
    case 'DictionaryExpression': {
      const parts = children(node).filter((c) => c.name !== '{' && c.name !== '}' && c.name !== ',');
      const out: { [k: string]: JsonValue } = {};
      for (let i = 0; i < parts.length; i++) {
        const k = parts[i];
        if (k.name === '**') return { ok: false, reason: 'dict with ** spread' };
        if (parts[i + 1]?.name !== ':') return { ok: false, reason: 'unsupported dict entry' };
        const v = parts[i + 2];
        if (!v) return { ok: false, reason: 'incomplete dict' };
        const kv = literalValue(k, text, resolveName, depth + 1);
        if (!kv.ok) return kv;
        const vv = literalValue(v, text, resolveName, depth + 1);
        if (!vv.ok) return vv;
        out[typeof kv.value === 'string' ? kv.value : JSON.stringify(kv.value)] = vv.value;
        i += 2;
      }
      return { ok: true, value: out };
    }
    case 'VariableName':
    case 'MemberExpression':
    case 'CallExpression': {
      const r = resolveName?.(node);
      if (r) return r;
      if (node.name === 'CallExpression') {
        const callee = node.firstChild;
        const name = callee ? dottedName(callee, text) : undefined;
        const args = argsOf(child(node, 'ArgList'));
        if ((name === 'set' || name === 'list' || name === 'tuple' || name === 'frozenset') && args.length === 0)
          return { ok: true, value: [], python: name === 'tuple' ? 'tuple' : name === 'list' ? undefined : 'set' };
        if (name === 'dict' && args.length === 0) return { ok: true, value: {} };
        // Path("x") defaults: pydantic dumps str(path).
        if ((name === 'Path' || name === 'pathlib.Path' || name === 'PurePath' || name === 'PurePosixPath') && args.length === 1 && !args[0].name) {
          const s = stringValue(args[0].value, text);
          if (s !== undefined) return { ok: true, value: posixPathStr(s) };
        }
      }
      return { ok: false, reason: `${src()} is not a constant the analyser can evaluate` };
    }
    default:
      return { ok: false, reason: `${src().slice(0, 40)} is not a constant the analyser can evaluate` };
  }
}

/** `str(PurePosixPath(s))`: collapses `//` and `.` segments, drops a trailing slash; "" -> ".". */
function posixPathStr(s: string): string {
  if (!s) return '.';
  const abs = s.startsWith('/');
  const lead = abs && s.startsWith('//') && !s.startsWith('///') ? '//' : abs ? '/' : '';
  const parts = s.split('/').filter((p) => p && p !== '.');
  const out = lead + parts.join('/');
  return out || '.';
}

const SCOPES = new Set(['FunctionDefinition', 'ClassDefinition', 'LambdaExpression']);
const EXITS = new Set(['ReturnStatement', 'RaiseStatement', 'ContinueStatement', 'BreakStatement']);

/** `not (x)` as a reader writes it: `x` for `not x`, `a is not None` for `a is None`, `not x` for a name or call. */
function negated(cond: SyntaxNode, text: string): string {
  const src = text.slice(cond.from, cond.to);
  if (cond.name === 'UnaryExpression' && cond.firstChild?.name === 'not' && cond.lastChild) return text.slice(cond.lastChild.from, cond.lastChild.to);
  const is = /^(.*)\sis\s+None$/s.exec(src);
  if (cond.name === 'BinaryExpression' && is && !/\bnot\s+None$/.test(src)) return `${is[1]} is not None`;
  return /^[\w.]+(\(.*\))?$/s.test(src) && !/\s/.test(src) ? `not ${src}` : `not (${src})`;
}

/** Whether a Body's last statement leaves the enclosing block (`return`, `raise`, `continue`, `break`). */
function exits(body: SyntaxNode): boolean {
  const last = meaningful(body)
    .filter((c) => c.name !== ':')
    .pop();
  return !!last && EXITS.has(last.name);
}

/**
 * The `if` guards a statement runs under in its function or module, as written and joined with `and`, outermost
 * first: the branch it sits in (`a`; `not a` in an `else`; `not a and b` in an `elif b`), and an earlier
 * `if c: return` of the same block (`not c`). Undefined when it runs unconditionally there; a guard in a caller
 * is not followed. `at`: the innermost guard's condition, for positions; `arms`: the `if` arms it sits in, outermost
 * first: the `if`'s offset and the index of the body (registrations in two arms of one `if` are never both made).
 */
export function guardOf(stmt: SyntaxNode, text: string): { text: string; at: SyntaxNode; arms: { at: number; arm: number }[] } | undefined {
  const parts: { text: string; at: SyntaxNode }[] = [];
  const arms: { at: number; arm: number }[] = [];
  for (let n: SyntaxNode = stmt; n.parent && !SCOPES.has(n.name); n = n.parent) {
    const block = n.parent;
    if (block.name !== 'Body' && block.name !== 'Script') continue;
    // Early exits before the statement in its own block, innermost (nearest) last.
    const before: { text: string; at: SyntaxNode }[] = [];
    for (let s = n.prevSibling; s; s = s.prevSibling) {
      if (s.name !== 'IfStatement') continue;
      const kids = children(s);
      const body = kids.find((k) => k.name === 'Body');
      const cond = kids[1];
      if (!body || !cond || kids.some((k) => k.name === 'elif' || k.name === 'else') || !exits(body)) continue;
      before.unshift({ text: negated(cond, text), at: cond });
    }
    parts.unshift(...before);
    const ifStmt = block.parent;
    if (block.name === 'Body' && ifStmt?.name === 'IfStatement') {
      const kids = children(ifStmt);
      const own: { text: string; at: SyntaxNode }[] = [];
      arms.unshift({ at: ifStmt.from, arm: kids.filter((k) => k.name === 'Body' && k.from <= block.from).length });
      for (let i = 0; i < kids.length; i++) {
        const k = kids[i];
        if ((k.name === 'if' || k.name === 'elif') && kids[i + 1] && kids[i + 2]?.name === 'Body') {
          if (kids[i + 2].from === block.from) {
            own.push({ text: text.slice(kids[i + 1].from, kids[i + 1].to), at: kids[i + 1] });
            break;
          }
          own.push({ text: negated(kids[i + 1], text), at: kids[i + 1] });
        }
      }
      parts.unshift(...own);
    }
  }
  if (!parts.length) return undefined;
  return { text: parts.map((p) => p.text).join(' and '), at: parts[parts.length - 1].at, arms };
}

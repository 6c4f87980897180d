/**
 * Docstrings as the frameworks see them:
 *  - `__doc__` (the official SDK publishes it as-is; Python >= 3.13 strips its indentation at compile time);
 *  - `inspect.cleandoc` / `inspect.getdoc` (FastMCP, pydantic model descriptions): server/src/contract/python/cleandoc.ts;
 *  - the Google-style parse FastMCP does with griffe (`fastmcp/utilities/docstring_parsing.py`):
 *    free text before the first structured section is the description, `Args:` items describe parameters.
 * Every Args entry keeps its source span so rules and fixes can point at it.
 */
import type { SyntaxNode } from '@lezer/common';
import type { Span } from '../model';
import { decodeStringToken, stringValue } from './syntax';
import type { CleanLine } from '../../contract/python/cleandoc';

export interface DocstringInfo {
  /** Exactly `fn.__doc__`. */
  value: string;
  node: SyntaxNode;
  /** Source offset of each character of `value` when the literal has no escapes (so offsets map 1:1). */
  bodyStart?: number;
}

/** The docstring of a function body (first statement, a plain string literal), if any. */
export function docstringOf(body: SyntaxNode | null | undefined, text: string): DocstringInfo | undefined {
  if (!body) return undefined;
  let first: SyntaxNode | null = body.firstChild;
  while (first && (first.name === ':' || first.name === 'Comment')) first = first.nextSibling;
  if (!first || first.name !== 'ExpressionStatement') return undefined;
  const expr = first.firstChild;
  if (!expr || (expr.name !== 'String' && expr.name !== 'ContinuedString')) return undefined;
  const raw = text.slice(expr.from, expr.to);
  if (expr.name === 'String' && /^[bB]|^[rR][bB]/.test(raw)) return undefined;
  const value = stringValue(expr, text);
  if (value === undefined) return undefined;
  let bodyStart: number | undefined;
  if (expr.name === 'String') {
    const m = /^([rRuU]?)('''|"""|'|")/.exec(raw);
    if (m) {
      const body = raw.slice(m[0].length, raw.length - m[2].length);
      const decoded = decodeStringToken(raw);
      if (decoded && decoded.value === body) bodyStart = expr.from + m[0].length;
    }
  }
  return { value, node: expr, bodyStart };
}

export interface DocArg {
  name: string;
  description: string;
  /** Index of the item's first line in the cleaned lines. */
  line: number;
  endLine: number;
}

export interface ParsedDocstring {
  /** The description FastMCP publishes (undefined = none). */
  description?: string;
  args: DocArg[];
  /** Cleaned-line range of the Args section (header .. last item line). */
  argsSection?: { startLine: number; endLine: number };
  /** A Sphinx/NumPy docstring the analyser does not parse: FastMCP's result is not predicted. */
  unsupportedStyle?: 'sphinx' | 'numpy';
}

const SECTION_KIND: Record<string, string> = {
  args: 'parameters',
  arguments: 'parameters',
  params: 'parameters',
  parameters: 'parameters',
  'keyword args': 'other',
  'keyword arguments': 'other',
  'other args': 'other',
  'other arguments': 'other',
  'other params': 'other',
  'other parameters': 'other',
  'type args': 'other',
  'type arguments': 'other',
  'type params': 'other',
  'type parameters': 'other',
  raises: 'other',
  exceptions: 'other',
  returns: 'other',
  yields: 'other',
  receives: 'other',
  examples: 'other',
  attributes: 'other',
  functions: 'other',
  methods: 'other',
  classes: 'other',
  'type aliases': 'other',
  modules: 'other',
  warns: 'other',
  warnings: 'other',
};

const SECTION_ADMONITIONS = new Set([
  'attention',
  'caution',
  'danger',
  'error',
  'example',
  'hint',
  'important',
  'note',
  'notes',
  'raise',
  'references',
  'return',
  'see-also',
  'tip',
  'todo',
  'warning',
  'yield',
]);

const RE_ADMONITION = /^(?<type>[\p{L}\p{N}_][\s\p{L}\p{N}_-]*):(\s+(?<title>[^\s].*))?\s*$/iu;
const isEmpty = (l: string | undefined) => l === undefined || !l.trim();

/** Reads indented items (griffe `_read_block_items`); returns items and the index of the block's last line. */
function readBlockItems(lines: string[], offset: number): { items: { line: number; lines: string[] }[]; end: number } {
  if (offset >= lines.length) return { items: [], end: offset };
  let i = offset;
  while (i < lines.length && isEmpty(lines[i])) i++;
  if (i >= lines.length) return { items: [], end: i - 1 };
  const indent = lines[i].length - lines[i].replace(/^\s+/, '').length;
  if (indent === 0) return { items: [], end: i - 1 };
  const items: { line: number; lines: string[] }[] = [];
  let cur = { line: i, lines: [lines[i].slice(indent)] };
  i++;
  while (i < lines.length) {
    const line = lines[i];
    if (isEmpty(line)) cur.lines.push('');
    else if (line.startsWith(' '.repeat(indent * 2))) cur.lines.push(line.slice(indent * 2));
    else if (line.startsWith(' '.repeat(indent + 1))) cur.lines.push(line.slice(line.length - line.replace(/^\s+/, '').length));
    else if (line.startsWith(' '.repeat(indent))) {
      items.push(cur);
      cur = { line: i, lines: [line.slice(indent)] };
    } else break;
    i++;
  }
  items.push(cur);
  return { items, end: i - 1 };
}

function readBlock(lines: string[], offset: number): { contents: string; end: number } {
  if (offset >= lines.length) return { contents: '', end: offset - 1 };
  let i = offset;
  while (i < lines.length && isEmpty(lines[i])) i++;
  if (i >= lines.length) return { contents: '', end: offset - 1 };
  const indent = lines[i].length - lines[i].replace(/^\s+/, '').length;
  if (indent === 0) return { contents: '', end: offset - 1 };
  const block = [lines[i].replace(/^\s+/, '')];
  i++;
  while (i < lines.length && (lines[i].startsWith(' '.repeat(indent)) || isEmpty(lines[i]))) {
    block.push(lines[i].slice(indent));
    i++;
  }
  return { contents: block.join('\n').replace(/\n+$/, ''), end: i - 1 };
}

/** FastMCP's docstring parse (griffe Google style first; Sphinx/NumPy detected and reported unsupported). */
export function parseDocstring(cleaned: string): ParsedDocstring {
  if (!cleaned) return { args: [] };
  const lines = cleaned.split('\n');
  type Section = { kind: 'text'; value: string } | { kind: 'parameters'; args: DocArg[]; start: number; end: number } | { kind: 'other' } | { kind: 'admonition'; type: string };
  const sections: Section[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length && current.some((l) => l)) sections.push({ kind: 'text', value: current.join('\n').replace(/\n+$/, '') });
    current = [];
  };
  let inCode = false;
  for (let offset = 0; offset < lines.length; offset++) {
    const line = lines[offset];
    const fence = line.replace(/^ +/, '').startsWith('```');
    if (inCode) {
      if (fence) inCode = false;
      current.push(line);
      continue;
    }
    if (fence) {
      inCode = true;
      current.push(line);
      continue;
    }
    const m = line.includes(':') ? RE_ADMONITION.exec(line) : null;
    if (!m) {
      current.push(line);
      continue;
    }
    const type = m.groups!.type;
    const kind = SECTION_KIND[type.toLowerCase()];
    const blankAbove = offset === 0 || isEmpty(lines[offset - 1]);
    const hasNext = offset < lines.length - 1;
    const hasNext2 = offset < lines.length - 2;
    const blankBelow = hasNext && isEmpty(lines[offset + 1]);
    const blanksBelow = hasNext2 && isEmpty(lines[offset + 2]);
    const indentedBelow = hasNext && !blankBelow && lines[offset + 1].startsWith(' ');
    const indentedBelow2 = hasNext2 && !blanksBelow && lines[offset + 2].startsWith(' ');
    if (!(indentedBelow || indentedBelow2) || !blankAbove || (indentedBelow2 && blankBelow)) {
      current.push(line);
      continue;
    }
    if (kind) {
      flush();
      const { items, end } = readBlockItems(lines, offset + 1);
      if (kind === 'parameters') {
        const args: DocArg[] = [];
        for (const item of items) {
          const colon = item.lines[0].indexOf(':');
          if (colon < 0) continue;
          const nameWithType = item.lines[0].slice(0, colon);
          const desc = [item.lines[0].slice(colon + 1).replace(/^\s+/, ''), ...item.lines.slice(1)].join('\n').replace(/\n+$/, '');
          const name = nameWithType.includes('(') && nameWithType.endsWith(')') ? nameWithType.slice(0, nameWithType.indexOf('(')).trim() : nameWithType;
          args.push({ name, description: desc, line: item.line, endLine: item.line + item.lines.length - 1 });
        }
        sections.push({ kind: 'parameters', args, start: offset, end: Math.max(offset, end) });
      } else sections.push({ kind: 'other' });
      offset = end;
    } else {
      const { contents, end } = readBlock(lines, offset + 1);
      if (contents) {
        flush();
        sections.push({ kind: 'admonition', type: type.toLowerCase().replace(/ /g, '-') });
      } else if (end < lines.length) current.push(lines[end]);
      offset = end;
    }
  }
  flush();

  let description: string | undefined;
  const args: DocArg[] = [];
  let argsSection: ParsedDocstring['argsSection'];
  let structured = false;
  for (const s of sections) {
    if (s.kind === 'text') {
      if (description === undefined) description = s.value;
    } else if (s.kind === 'parameters') {
      for (const a of s.args) if (!args.some((b) => b.name === a.name)) args.push(a);
      if (!argsSection) argsSection = { startLine: s.start, endLine: s.end };
      structured = true;
    } else if (s.kind === 'admonition') {
      if (SECTION_ADMONITIONS.has(s.type)) structured = true;
    } else structured = true;
  }
  if (args.length || structured) {
    // griffe keeps the last duplicate entry's description (dict assignment order).
    const last = new Map<string, DocArg>();
    for (const s of sections) if (s.kind === 'parameters') for (const a of s.args) last.set(a.name, a);
    return { description, args: [...last.values()], argsSection };
  }
  // Google found nothing: griffe then tries NumPy and Sphinx, which we do not reproduce.
  if (lines.some((l, i) => i > 0 && /^\s*-{3,}\s*$/.test(l) && lines[i - 1].trim())) return { description: cleaned, args: [], unsupportedStyle: 'numpy' };
  if (lines.some((l) => /^:(param|parameter|arg|argument|key|keyword|type|raises?|except|exception|var|ivar|cvar|vartype|returns?|rtype)\b/.test(l)))
    return { description: cleaned, args: [], unsupportedStyle: 'sphinx' };
  return { description: cleaned, args: [] };
}

/** Maps a cleaned line back to a source span (whole docstring literal when the text has escapes). */
export function cleanLineSpan(info: DocstringInfo, lines: CleanLine[], first: number, last: number, file: string): Span {
  if (info.bodyStart === undefined || !lines[first] || !lines[last]) return { file, start: info.node.from, end: info.node.to };
  const docLines = info.value.split('\n');
  const lineStart = (i: number) => {
    let off = 0;
    for (let k = 0; k < i; k++) off += docLines[k].length + 1;
    return off;
  };
  // expandtabs may shift columns; clamp to the raw line.
  const lead = lines[first].text.length - lines[first].text.replace(/^\s+/, '').length;
  const s = lineStart(lines[first].docLine) + Math.min(lines[first].docCol + lead, docLines[lines[first].docLine].length);
  const e = lineStart(lines[last].docLine) + docLines[lines[last].docLine].length;
  return { file, start: info.bodyStart + s, end: info.bodyStart + Math.max(s, e) };
}

/**
 * What Python does to a docstring before a framework reads it: `inspect.cleandoc` (FastMCP descriptions, pydantic
 * model descriptions) and the compile-time stripping of Python 3.13+. Pure text functions, imported by the
 * contract builders and by the Python front-end's docstring parser (server/src/analysis/python/docstring.ts).
 */

function expandTabs(s: string): string {
  if (!s.includes('\t')) return s;
  let out = '';
  let col = 0;
  for (const ch of s) {
    if (ch === '\t') {
      const n = 8 - (col % 8);
      out += ' '.repeat(n);
      col += n;
    } else {
      out += ch;
      col = ch === '\n' || ch === '\r' ? 0 : col + 1;
    }
  }
  return out;
}

const PY_WS = /^[\s\x1c-\x1f\x85]*/;
function pyLstripLen(s: string): number {
  return PY_WS.exec(s)![0].length;
}

/** A cleaned line and where it came from in `__doc__` (line index, column where the kept text starts). */
export interface CleanLine {
  text: string;
  docLine: number;
  docCol: number;
}

/** `inspect.cleandoc` (Python 3.11+), keeping the origin of each line. */
export function cleandocLines(doc: string): CleanLine[] {
  const raw = expandTabs(doc).split('\n');
  let margin = Infinity;
  for (const line of raw.slice(1)) {
    const content = line.length - pyLstripLen(line);
    if (content) margin = Math.min(margin, line.length - content);
  }
  const lines: CleanLine[] = raw.map((t, i) => ({ text: t, docLine: i, docCol: 0 }));
  if (lines.length) {
    const n = pyLstripLen(lines[0].text);
    lines[0] = { text: lines[0].text.slice(n), docLine: 0, docCol: n };
  }
  if (margin < Infinity) for (let i = 1; i < lines.length; i++) lines[i] = { text: lines[i].text.slice(margin), docLine: i, docCol: Math.min(margin, lines[i].text.length) };
  while (lines.length && !lines[lines.length - 1].text) lines.pop();
  while (lines.length && !lines[0].text) lines.shift();
  return lines;
}

export function cleandoc(doc: string): string {
  return cleandocLines(doc)
    .map((l) => l.text)
    .join('\n');
}

/** What Python 3.13+ stores in `__doc__`: the compiler strips the common indentation (not blank lines). */
export function compilerCleanDoc(doc: string): string {
  const lines = doc.split('\n');
  let margin = Infinity;
  for (const line of lines.slice(1)) {
    const content = line.replace(/^ +/, '');
    if (content.length) margin = Math.min(margin, line.length - content.length);
  }
  const out = lines.map((l, i) => {
    if (i === 0) return l.replace(/^ +/, '');
    if (!l.trim()) return '';
    return margin < Infinity ? l.slice(margin) : l;
  });
  return out.join('\n');
}

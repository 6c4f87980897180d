import * as path from 'node:path';
import type { FindingRow } from './rows';

const SEVERITY_COLOR = { error: '\x1b[31m', warning: '\x1b[33m', info: '\x1b[36m' } as const;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** ESLint's "stylish" layout: a header per file, aligned `line:col  severity  message  rule`, a summary. */
export function formatStylish(rows: FindingRow[], opts: { cwd: string; color: boolean }): string {
  const c = (code: string, text: string) => (opts.color ? `${code}${text}\x1b[0m` : text);
  const byFile = new Map<string, FindingRow[]>();
  for (const r of rows) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  let out = '';
  for (const [file, list] of byFile) {
    out += `\n${c('\x1b[4m', path.relative(opts.cwd, file) || file)}\n`;
    const where = list.map((r) => `${r.line}:${r.column}`);
    const wWhere = Math.max(...where.map((w) => w.length));
    const wSeverity = Math.max(...list.map((r) => r.severity.length));
    const wMessage = Math.max(...list.map((r) => r.message.replace(/\n/g, ' ').length));
    list.forEach((r, i) => {
      const message = r.message.replace(/\n/g, ' ');
      out += `  ${c('\x1b[2m', where[i].padStart(wWhere))}  ${c(SEVERITY_COLOR[r.severity], r.severity.padEnd(wSeverity))}  ${message.padEnd(wMessage)}  ${c('\x1b[2m', r.ruleId)}\n`;
    });
  }
  if (rows.length === 0) return '';
  const errors = rows.filter((r) => r.severity === 'error').length;
  const warnings = rows.filter((r) => r.severity === 'warning').length;
  const infos = rows.length - errors - warnings;
  const mark = errors ? c('\x1b[31m', '✖') : c('\x1b[33m', '⚠');
  out += `\n${mark} ${plural(rows.length, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${infos} info)\n`;
  const fixable = rows.filter((r) => r.fixes.some((f) => f.safe));
  if (fixable.length) {
    const fe = fixable.filter((r) => r.severity === 'error').length;
    const fw = fixable.filter((r) => r.severity === 'warning').length;
    out += `  ${plural(fe, 'error')}, ${plural(fw, 'warning')} and ${fixable.length - fe - fw} info potentially fixable with the \`--fix\` option.\n`;
  }
  return out;
}

/** Zod quick-fix helpers: find the base call of a zod chain (`z.string()`, `z.number()`) inside a parameter's type span. */
import * as path from 'node:path';
import type { ParameterDefinition } from '../../analysis/model';
import type { RuleContext } from '../types';
import { spanText } from './source';
import { memoByText } from './memo';

interface ZodBase {
  /** `z` (or whatever the zod namespace is called here). */
  ns: string;
  /** `string`, `number`, ... */
  kind: string;
  /** Offsets (absolute) of the base call `z.string()`. */
  start: number;
  end: number;
  /** Methods chained after the base call, in order (`int`, `min`, `describe`, ...), top level only. */
  chain: string[];
  typeText: string;
}

/** Parses `ns.kind(...)` followed by `.method(...)` calls; undefined when the expression is not such a chain. */
export function zodBase(ctx: RuleContext, param: ParameterDefinition): ZodBase | undefined {
  if (!param.typeSpan) return undefined;
  const typeText = spanText(ctx, param.typeSpan);
  if (!typeText) return undefined;
  const m = /^([A-Za-z_$][\w$]*)\s*\.\s*([A-Za-z_$][\w$]*)\s*\(/.exec(typeText);
  if (!m) return undefined;
  const close = matchParen(typeText, m[0].length - 1);
  if (close < 0) return undefined;
  const chain: string[] = [];
  let i = close + 1;
  for (;;) {
    const c = /^\s*\.\s*([A-Za-z_$][\w$]*)\s*\(/.exec(typeText.slice(i));
    if (!c) break;
    chain.push(c[1]);
    const end = matchParen(typeText, i + c[0].length - 1);
    if (end < 0) break;
    i = end + 1;
  }
  return { ns: m[1], kind: m[2], start: param.typeSpan.start, end: param.typeSpan.start + close + 1, chain, typeText };
}

/** Index of the parenthesis closing the one at `open`, skipping strings; -1 if none. */
function matchParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** True when the file imports zod 3 (`zod/v3`), where formats are chained methods (`z.string().email()`). */
export function usesZod3(ctx: RuleContext, file: string): boolean {
  const text = ctx.textOf(file) ?? '';
  // A bare `zod` import is the major installed: zod 3.25 (fetch-mcp 0.0.5) has no `z.url()`.
  return importsZod3(text) || (importsBareZod(text) && zodMajorNear(file, ctx) === 3);
}

const importsBareZod = memoByText((text: string) => /from\s*["']zod["']|require\(\s*["']zod["']\s*\)/.test(text));

/**
 * The zod major installed next to the file (the nearest node_modules/zod/package.json), else the one its nearest
 * package.json asks for; undefined when neither says.
 */
export function zodMajorNear(file: string, ctx: RuleContext): number | undefined {
  let dir = path.dirname(file);
  for (let i = 0; i < 30; i++) {
    const installed = ctx.textOf(path.join(dir, 'node_modules/zod/package.json'));
    const v = installed && /"version"\s*:\s*"(\d+)\./.exec(installed);
    if (v) return Number(v[1]);
    const manifest = ctx.textOf(path.join(dir, 'package.json'));
    const range = manifest && /"zod"\s*:\s*"[^\d"]*(\d+)/.exec(manifest);
    if (range) return Number(range[1]);
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

// A scan of the whole file, asked once per format finding: once per file text.
const importsZod3 = memoByText((text: string) => /from\s+["']zod\/v3["']|require\(\s*["']zod\/v3["']\s*\)/.test(text));

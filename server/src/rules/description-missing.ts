import type { Edit, Fix, Rule, RuleContext } from './types';
import type { ToolDefinition } from '../analysis/model';
import { finding, toolLabel } from './util/finding';
import { indentAt, insertAt, lineStart, spanText } from './util/source';
import { quoteString, replaceLiteralValue } from './util/string-literals';

const TEMPLATE = '<what it does>. Use when <situation>; do not use for <other case>. Returns <what comes back>.';

function pythonDocstring(indent: string): string {
  return `"""<what it does>.\n\n${indent}Use when <situation>; do not use for <other case>.\n${indent}Returns <what comes back>.\n${indent}"""`;
}

/** Edits inserting the what / when / returns template where this framework reads the description from. */
function templateEdits(tool: ToolDefinition, ctx: RuleContext): Edit[] | undefined {
  // An explicit empty description ("" / description="") gets its value replaced.
  if (tool.description && tool.description.value !== undefined) {
    const e = replaceLiteralValue(ctx, tool.description.span, TEMPLATE);
    return e ? [e] : undefined;
  }
  const text = ctx.textOf(tool.file);
  if (text === undefined) return undefined;
  if (tool.language === 'typescript') {
    const config = tool.registration.configSpan;
    if (tool.registration.kind === 'registerTool' && config && text[config.start] === '{') {
      const afterBrace = text.slice(config.start + 1, config.end);
      const prop = `description: ${quoteString(TEMPLATE)},`;
      const nl = /^[ \t]*\r?\n/.exec(afterBrace);
      if (nl) {
        const nextLine = config.start + 1 + nl[0].length;
        const indent = /^[ \t]*/.exec(text.slice(nextLine))![0];
        return [insertAt(tool.file, config.start + 1, `\n${indent}${prop}`)];
      }
      return [insertAt(tool.file, config.start + 1, /^\s*\}/.test(afterBrace) ? ` ${prop.slice(0, -1)} ` : ` ${prop}`)];
    }
    // Deprecated server.tool(name, [description,] ...): the description is the second argument.
    if (tool.registration.kind === 'tool' && spanText(ctx, tool.name.span)?.match(/^["'`]/)) {
      return [insertAt(tool.file, tool.name.span.end, `, ${quoteString(TEMPLATE)}`)];
    }
    return undefined;
  }
  // Python: a docstring as the first statement of the function body.
  const body = tool.handler?.bodySpan;
  if (!body) return undefined;
  let pos = body.start;
  if (text[pos] === ':') pos++; // the body span may start at the colon of `def f(...):`
  // Skip blank lines and comments: the docstring goes before the first statement.
  for (;;) {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
    if (text[pos] !== '#') break;
    while (pos < text.length && text[pos] !== '\n') pos++;
  }
  if (pos >= text.length || text.slice(lineStart(text, pos), pos).trim() !== '') return undefined;
  const indent = indentAt(text, pos);
  return [insertAt(tool.file, pos, `${pythonDocstring(indent)}\n${indent}`)];
}

export const descriptionMissing: Rule = {
  id: 'description-missing',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'No description (TS) / no docstring and no description= (Py).',
  checkTool(tool, ctx) {
    const d = tool.description;
    if (d && (d.value === undefined || d.value.trim() !== '')) return [];
    // A tool the analysis could not read (a list_tools entry built by a call) may well have one: unresolved, not missing.
    if (tool.unresolved.some((u) => u.part === 'tool' || u.part === 'description')) return [];
    const how =
      tool.language === 'typescript'
        ? 'Add a description to the config: what it does, when to use it (and when not), what it returns.'
        : 'Add a docstring (or description=): what it does, when to use it (and when not), what it returns.';
    const message = `Tool ${toolLabel(tool)} has ${d ? 'an empty' : 'no'} description: the model sees only its name and schema, so it cannot tell when to call it or what it gets back, and will skip it or misuse it. ${how}`;
    const edits = templateEdits(tool, ctx);
    const fixes: Fix[] = edits ? [{ title: 'Insert a description template (what / when to use / returns)', edits, safe: false }] : [];
    return [finding(tool, d?.span ?? tool.name.span, message, fixes)];
  },
};

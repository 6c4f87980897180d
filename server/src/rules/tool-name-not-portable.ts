import type { Rule } from './types';
import { finding } from './util/finding';
import { renameEdit } from './util/string-literals';
import { SPEC_NAME } from './tool-name-invalid';

/** What OpenAI / Anthropic / Gemini function-calling APIs accept as a function name. */
const PORTABLE = /^[a-zA-Z0-9_-]{1,64}$/;

export const toolNameNotPortable: Rule = {
  id: 'tool-name-not-portable',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'Tool name over 64 characters or containing ".": rejected by common model APIs (^[a-zA-Z0-9_-]{1,64}$).',
  checkTool(tool, ctx) {
    if (ctx.settings.naming.style === 'domain.verb') return [];
    const name = tool.name.value;
    if (name === undefined || !SPEC_NAME.test(name) || PORTABLE.test(name)) return [];
    const problems: string[] = [];
    if (name.includes('.')) problems.push('contains "."');
    if (name.length > 64) problems.push(`is ${name.length} characters long`);
    const fixed = name.replace(/\./g, '_');
    const message =
      `Tool name "${name}" ${problems.join(' and ')}: it is valid MCP, but model APIs that take function names as ` +
      '^[a-zA-Z0-9_-]{1,64}$ (OpenAI, Anthropic, Gemini) reject it or the client has to rewrite it, and the model then ' +
      `sees a different name than your docs. Use at most 64 letters, digits, "_" and "-"${PORTABLE.test(fixed) ? ` — for example "${fixed}"` : ''}` +
      ' (or set toolsmith.naming.style to "domain.verb" if your clients accept dots).';
    const rename = PORTABLE.test(fixed) ? renameEdit(ctx, tool.name.span, name, fixed) : undefined;
    const fixes = rename ? [{ title: `Rename to "${fixed}"`, edits: [rename.edit], safe: false }] : [];
    return [finding(tool, tool.name.span, message, fixes)];
  },
};

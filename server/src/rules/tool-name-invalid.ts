import type { Rule } from './types';
import { finding } from './util/finding';
import { renameEdit } from './util/string-literals';

/** The MCP specification's tool-name grammar. */
export const SPEC_NAME = /^[A-Za-z0-9._-]{1,128}$/;

export const toolNameInvalid: Rule = {
  id: 'tool-name-invalid',
  defaultSeverity: 'error',
  languages: ['typescript', 'python'],
  summary: 'Tool name outside the MCP specification grammar ^[A-Za-z0-9._-]{1,128}$, or empty.',
  checkTool(tool, ctx) {
    const name = tool.name.value;
    if (name === undefined || SPEC_NAME.test(name)) return [];
    if (name.length === 0) {
      return [finding(tool, tool.name.span, 'The tool name is empty: clients cannot list it and the model cannot call it. Give it a verb_object name such as "search_tickets".')];
    }
    const bad = [...new Set(name.replace(/[A-Za-z0-9._-]/g, ''))].map((c) => JSON.stringify(c)).join(', ');
    const fixed = name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 128);
    const why = name.length > 128 ? `is ${name.length} characters long (the MCP specification allows 128)` : `contains ${bad}, which the MCP specification does not allow in tool names`;
    const message = `Tool name "${name}" ${why}: clients may refuse the tool and models cannot call it reliably. Use only letters, digits, "_", "-" and "." — for example "${fixed}".`;
    const rename = renameEdit(ctx, tool.name.span, name, fixed);
    // Replacing characters in a literal cannot break anything that worked; renaming a Python function could.
    const fixes = rename ? [{ title: `Rename to "${fixed}"`, edits: [rename.edit], safe: rename.literal }] : [];
    return [finding(tool, tool.name.span, message, fixes)];
  },
};

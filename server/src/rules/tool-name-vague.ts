import type { Rule } from './types';
import { finding } from './util/finding';
import { formatSuggestion, isVagueName, nameFromDescription } from './util/names';
import { renameEdit } from './util/string-literals';

export const toolNameVague: Rule = {
  id: 'tool-name-vague',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'Generic tool names (process, handle_request, run, execute, do_it, query, db_query, tool, helper, data...).',
  checkTool(tool, ctx) {
    const name = tool.name.value;
    if (!name || !isVagueName(name, tool.description?.value)) return [];
    const style = ctx.settings.naming.style;
    const words = nameFromDescription(tool.description?.value);
    const proposed = words ? formatSuggestion(words, style, name) : undefined;
    // A description that only repeats the vague name ("Gets an item" for get_item) suggests nothing better.
    const suggestion = proposed && proposed.toLowerCase() !== name.toLowerCase() ? proposed : undefined;
    const example = suggestion ?? (style === 'domain.verb' ? 'tickets.search' : 'search_tickets');
    const message =
      `Tool name "${name}" is generic: the model chooses a tool by its name first, and "${name}" says neither what it ` +
      `does nor to what, so it gets called at the wrong moment or not at all. Name the action and its object, ` +
      `${suggestion ? `for example "${suggestion}" (from the description)` : `like "${example}"`}.`;
    const rename = suggestion ? renameEdit(ctx, tool.name.span, name, suggestion) : undefined;
    const fixes = rename ? [{ title: `Rename to "${suggestion}"`, edits: [rename.edit], safe: false }] : [];
    return [finding(tool, tool.name.span, message, fixes)];
  },
};

import type { Rule } from './types';
import { finding, toolLabel, toolSpan } from './util/finding';
import { hint } from './util/annotations';
import { descriptionText } from './util/description';
import { nameTokens } from './util/names';

const DESTRUCTIVE_VERB = /^(delete|drop|remove|destroy|purge|wipe|erase|truncate|rm|del)$/;
/** The description names what the tool destroys or changes: the verb itself is the warning the model reads. */
const NAMES_DESTRUCTION = /\b(delet|remov|drop|destro|eras|wip|purg|truncat|overwrit|replac|reset|clear|move|renam|edit|modif|unstag|revok|cancel|terminat|kill|uninstall|discard|clean|unlink|rm\b)/i;
const WARNING =
  /permanent|irreversib|irrecoverab|cannot be (undone|recovered|reversed|restored)|can ?not be (undone|recovered)|can't be (undone|recovered)|not (be )?reversible|no undo|undo|warning|caution|careful|destructive|data loss|\blost\b|confirm|be sure|forever|for good|use with care|dangerous|⚠/i;

export const destructiveToolWithoutWarning: Rule = {
  id: 'destructive-tool-without-warning',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A destructive tool (destructiveHint, or a delete / drop / remove name) whose description never says it destroys anything.',
  checkTool(tool) {
    const name = tool.name.value;
    if (!name) return [];
    const destructive = hint(tool, 'destructiveHint');
    if (hint(tool, 'readOnlyHint').value === true || destructive.value === false) return [];
    const verb = nameTokens(name.split('.').pop() ?? name)[0]?.toLowerCase() ?? '';
    if (destructive.value !== true && !DESTRUCTIVE_VERB.test(verb)) return [];
    const d = descriptionText(tool);
    if (d === undefined || WARNING.test(d) || NAMES_DESTRUCTION.test(d)) return [];
    return [
      finding(
        tool,
        tool.description?.span ?? toolSpan(tool),
        `${toolLabel(tool)} destroys data but its description never says so (no delete, remove, overwrite, reset..., no warning): the model picks it ` +
          `as lightly as a read, and a user approving the call sees no warning. Say what is lost and whether it can be undone, e.g. "Permanently deletes … This cannot be undone."`,
      ),
    ];
  },
};

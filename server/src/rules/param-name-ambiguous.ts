import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { ACTION_VERBS, GENERIC_WORDS, nameTokens, nameStyle, toStyle } from './util/names';
import { paramDescription } from './util/json-schema';

const AMBIGUOUS = new Set(['id', 'data', 'obj', 'object', 'info', 'user', 'item', 'value', 'val', 'payload', 'params', 'args', 'arg', 'param', 'thing', 'stuff', 'input', 'entity', 'record', 'key']);

/** The object the tool acts on, from its name: `get_user_profile` -> ["user", "profile"]. */
function toolObject(tool: ToolDefinition): string[] {
  const words = nameTokens(tool.name.value ?? '').filter((w) => !ACTION_VERBS.has(w) && !GENERIC_WORDS.has(w));
  return words.slice(-1).map((w) => (w.endsWith('ies') ? w.slice(0, -3) + 'y' : w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
}

function suggestion(tool: ToolDefinition, name: string): string {
  const lower = name.toLowerCase();
  const obj = toolObject(tool);
  const styleOf = (words: string[]) => toStyle(words, nameStyle(tool.parameters.find((p) => nameStyle(p.name) !== 'single')?.name ?? '') === 'camelCase' ? 'camelCase' : 'snake_case');
  if (lower === 'id' || lower === 'key') return obj.length ? styleOf([...obj, lower]) : styleOf(['order', lower]);
  if (lower === 'user') return `${styleOf(['user', 'id'])}" or "${styleOf(['user', 'email'])}`;
  if (obj.length) return styleOf([...obj, lower === 'data' || lower === 'payload' ? 'fields' : 'name']);
  return styleOf(['customer', 'email']);
}

export const paramNameAmbiguous: Rule = {
  id: 'param-name-ambiguous',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'Parameter names like id, data, obj, info, user, or single letters, with no description saying what they hold.',
  checkTool(tool) {
    const out: RuleFinding[] = [];
    for (const p of tool.parameters) {
      const bare = p.name.replace(/^_+/, '');
      if (!AMBIGUOUS.has(bare.toLowerCase()) && !/^[A-Za-z]$/.test(bare)) continue;
      // A described parameter says which thing and which format (`a`: "First number", `q`: "Search query", `params`:
      // "Parameters of the query"): on the labelled real-world set 0 of 13 described ones were worth renaming, and
      // both keeps were undescribed (`data` of add_table, a 2-D array of cells).
      if (paramDescription(p)?.trim()) continue;
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter name "${p.name}" of ${toolLabel(tool)} is ambiguous: the model fills parameters from their names first, and ` +
            `"${p.name}" does not say which thing or which format (an id? a name? an email?). Use a precise name, e.g. "${suggestion(tool, bare)}".`,
        ),
      );
    }
    return out;
  },
};

import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';
import { nameTokens } from './util/names';

/** Verbs that mean the same action: one server should pick one of each group. */
// prettier-ignore
const SYNONYMS: readonly (readonly string[])[] = [
  ['get', 'fetch', 'retrieve', 'obtain'],
  ['search', 'find', 'lookup'],
  ['update', 'modify'],
];

/**
 * The leading verb of a tool name. Not delete / remove: removing a member from a group is not deleting it (the IAM
 * server's remove_user_from_group next to delete_user). Not a verb joined to another (`search_and_replace`).
 */
function verbOf(tool: ToolDefinition): string | undefined {
  const name = tool.name.value;
  if (!name) return undefined;
  const words = nameTokens(name.split('.').pop() ?? name).map((w) => w.toLowerCase());
  return words[1] === 'and' ? undefined : words[0];
}

export const toolNameVerbMixed: Rule = {
  id: 'tool-name-verb-mixed',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'One server names the same action with different verbs (get_x and fetch_y, search_x and find_y).',
  checkServer(tools) {
    const out: RuleFinding[] = [];
    for (const group of SYNONYMS) {
      const byVerb = new Map<string, ToolDefinition[]>();
      for (const t of tools) {
        const v = verbOf(t);
        if (v && group.includes(v)) byVerb.set(v, [...(byVerb.get(v) ?? []), t]);
      }
      if (byVerb.size < 2) continue;
      // The verb most tools use; a tie goes to the one first in the group (the plainest word).
      const majority = [...byVerb].sort((a, b) => b[1].length - a[1].length || group.indexOf(a[0]) - group.indexOf(b[0]))[0][0];
      for (const [verb, list] of byVerb) {
        if (verb === majority) continue;
        for (const t of list) {
          const other = byVerb.get(majority)![0].name.value!;
          out.push(
            finding(
              t,
              t.name.span,
              `"${t.name.value!}" says ${verb} where "${other}" on the same server says ${majority}: the model reads two verbs as two kinds of ` +
                `action and guesses names that do not exist ("${majority}_…" for this one). Use one verb for one action (${majority}).`,
            ),
          );
        }
      }
    }
    return out;
  },
};

import type { ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext, RuleFinding } from './types';
import { booleanLiteral, entryExtent, HINT_KEYS, hintKey } from './util/annotations';
import { finding } from './util/finding';
import { removeEntry } from './util/object-edits';
import { replace } from './util/source';

export const annotationIncoherent: Rule = {
  id: 'annotation-incoherent',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'readOnlyHint: true together with destructiveHint: true, or a hint that is not a boolean.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const entries = tool.annotations?.entries ?? [];
    const readOnly = entries.some((e) => hintKey(e.key) === 'readOnlyHint' && e.value === true);
    const out: RuleFinding[] = [];
    for (const e of entries) {
      const key = hintKey(e.key);
      if (!(HINT_KEYS as readonly string[]).includes(key)) continue;
      if (e.value !== undefined && typeof e.value !== 'boolean') {
        const fixes: Fix[] = [];
        const s = typeof e.value === 'string' ? e.value.trim().toLowerCase() : undefined;
        if ((s === 'true' || s === 'false') && e.valueSpan) {
          fixes.push({ title: `Write ${e.key} as the boolean ${s}`, edits: [replace(e.valueSpan, booleanLiteral(tool, s === 'true'))], safe: true });
        } else {
          const edit = removeEntry(ctx, entryExtent(e));
          if (edit) fixes.push({ title: `Remove ${e.key}`, edits: [edit], safe: false });
        }
        out.push(
          finding(
            tool,
            entryExtent(e),
            `${e.key} is ${JSON.stringify(e.value)}, not a boolean: clients expect true or false and ignore (or reject) anything else, ` + 'so the hint says nothing. Write true or false.',
            fixes,
          ),
        );
        continue;
      }
      // destructiveHint: false and idempotentHint next to readOnlyHint: true agree with it (the spec ignores them for
      // read-only tools, and saying "not destructive" again is harmless); only destructiveHint: true contradicts it.
      if (readOnly && key === 'destructiveHint' && e.value === true) {
        const edit = removeEntry(ctx, entryExtent(e));
        out.push(
          finding(
            tool,
            entryExtent(e),
            `${e.key}: true contradicts readOnlyHint: true: a tool cannot both only read and destroy data, and clients decide ` +
              'whether to ask the user from these hints. Remove the one that is wrong (readOnlyHint if the tool does write).',
            edit ? [{ title: `Remove ${e.key}`, edits: [edit], safe: false }] : [],
          ),
        );
      }
    }
    return out;
  },
};

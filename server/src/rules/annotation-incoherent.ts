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
  summary: 'readOnlyHint: true together with destructive/idempotent hints, or a hint that is not a boolean.',
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
      if (readOnly && (key === 'destructiveHint' || key === 'idempotentHint')) {
        const edit = removeEntry(ctx, entryExtent(e));
        out.push(
          finding(
            tool,
            entryExtent(e),
            `${e.key} means nothing when readOnlyHint is true (the spec only reads it for tools that write)` +
              (key === 'destructiveHint' && e.value === true ? ', and destructiveHint: true contradicts read-only outright' : '') +
              '. Remove it, or set readOnlyHint: false if the tool does write.',
            edit ? [{ title: `Remove ${e.key}`, edits: [edit], safe: e.value !== true || key === 'idempotentHint' }] : [],
          ),
        );
      }
    }
    return out;
  },
};

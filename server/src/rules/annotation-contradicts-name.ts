import type { ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext, RuleFinding } from './types';
import { entryExtent, hintKey, setBooleanEdit } from './util/annotations';
import { finding } from './util/finding';
import { nameIntent, toolWrites } from './util/tool-intent';

export const annotationContradictsName: Rule = {
  id: 'annotation-contradicts-name',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: '`readOnlyHint: true` on a writing tool, or `destructiveHint: false` on delete/remove/drop.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const out: RuleFinding[] = [];
    const name = tool.name.value ?? 'This tool';
    const w = toolWrites(tool);
    const intent = nameIntent(tool.name.value ?? '');
    for (const e of tool.annotations?.entries ?? []) {
      const key = hintKey(e.key);
      let to: boolean | undefined;
      let message = '';
      if (key === 'readOnlyHint' && e.value === true && w.writes) {
        to = false;
        message =
          `${name} is marked readOnlyHint: true, but ${w.why}: clients run read-only tools without asking, so this write ` +
          'would happen with no confirmation. Set readOnlyHint: false (and say whether it is destructive).';
      } else if (key === 'destructiveHint' && e.value === false && intent.kind === 'destructive') {
        to = true;
        message = `${name} says "${intent.verb}" but is marked destructiveHint: false: clients may skip the confirmation a deletion deserves. ` + 'Set destructiveHint: true.';
      }
      if (to === undefined) continue;
      const fixes: Fix[] = [];
      const edit = setBooleanEdit(tool, ctx, e, to);
      if (edit) fixes.push({ title: `Set ${e.key} to ${to}`, edits: [edit], safe: true });
      out.push(finding(tool, entryExtent(e), message, fixes));
    }
    return out;
  },
};

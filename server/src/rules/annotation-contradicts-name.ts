import type { ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext, RuleFinding } from './types';
import { booleanLiteral, entryExtent, hint, hintKey, setBooleanEdit } from './util/annotations';
import type { AnnotationEntry } from '../analysis/model';
import type { Edit } from './types';
import { insertAt, spanText } from './util/source';

/**
 * Inserts another hint after `entry`, written the way the entry is (`readOnlyHint: true`, `"readOnlyHint": True`,
 * `read_only_hint=True`), or undefined when the entry's text is not one of those.
 */
function siblingHintEdit(tool: ToolDefinition, ctx: RuleContext, entry: AnnotationEntry, key: string, value: boolean): Edit | undefined {
  const ext = entryExtent(entry);
  const text = spanText(ctx, ext);
  if (text === undefined) return undefined;
  const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const m = /^(["']?)(readOnlyHint|read_only_hint)\1(\s*[:=]\s*)(true|false|True|False)$/.exec(text.trim());
  if (!m) return undefined;
  return insertAt(ext.file, ext.end, `, ${m[1]}${m[2] === 'readOnlyHint' ? key : snake}${m[1]}${m[3]}${booleanLiteral(tool, value)}`);
}
import { finding } from './util/finding';
import { handlerEffects, nameIntent, toolWrites } from './util/tool-intent';

/**
 * Verbs that also name a pure computation (`generate_pie_chart` renders a chart and returns its URL,
 * `generate_uuid`): an author's `readOnlyHint: true` wins over the name alone, unless the handler shows a write.
 */
const COMPUTING_VERBS = new Set(['generate']);

/** Whether the only sign of a write is a computing verb in the name, against the hint the author declared. */
function computedByName(tool: ToolDefinition, verb: string | undefined): boolean {
  const fx = handlerEffects(tool);
  return verb !== undefined && COMPUTING_VERBS.has(verb) && !fx.writesFiles && !fx.deletesFiles && !fx.networkWrites;
}

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
      if (key === 'readOnlyHint' && e.value === true && w.writes && !(intent.kind === 'write' && computedByName(tool, intent.verb))) {
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
      // readOnlyHint: false with no destructiveHint makes the tool destructive (the spec default). Right for a delete;
      // for a write that destroys nothing (an update, a sleep) the fix says destructiveHint: false too.
      const needsDestructive = key === 'readOnlyHint' && !w.destructive && !hint(tool, 'destructiveHint').present;
      const sibling = needsDestructive ? siblingHintEdit(tool, ctx, e, 'destructiveHint', false) : undefined;
      if (edit && (!needsDestructive || sibling))
        fixes.push({
          title: needsDestructive ? `Set ${e.key} to ${to} (and destructiveHint: false)` : `Set ${e.key} to ${to}`,
          edits: sibling ? [edit, sibling] : [edit],
          // "Not destructive" is read from the name and the handler: the author confirms it.
          safe: !needsDestructive,
        });
      out.push(finding(tool, entryExtent(e), message, fixes));
    }
    return out;
  },
};

import type { ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext } from './types';
import { HINT_KEYS, hintKey, insertAnnotationsEdit } from './util/annotations';
import { finding, toolSpan } from './util/finding';
import { handlerEffects, nameIntent, toolWrites } from './util/tool-intent';

/** The hints a writing tool most likely has, from its name and handler. */
function inferredHints(tool: ToolDefinition): [string, boolean][] {
  const intent = nameIntent(tool.name.value ?? '');
  const w = toolWrites(tool);
  const fx = handlerEffects(tool);
  return [
    ['readOnlyHint', false],
    ['destructiveHint', w.destructive],
    ['idempotentHint', intent.idempotent],
    ['openWorldHint', intent.external || fx.network],
  ];
}

export const annotationsMissing: Rule = {
  id: 'annotations-missing',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'A tool that writes declares no annotations.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const hasHints = tool.annotations?.entries.some((e) => (HINT_KEYS as readonly string[]).includes(hintKey(e.key)));
    if (hasHints) return [];
    if (tool.unresolved.some((u) => u.part.startsWith('annotations'))) return [];
    const w = toolWrites(tool);
    if (!w.writes) return [];
    const hints = inferredHints(tool);
    const fixes: Fix[] = [];
    const edit = insertAnnotationsEdit(tool, ctx, hints);
    // Not safe: the author should confirm what the name and the handler only suggest.
    if (edit) fixes.push({ title: `Add annotations (${hints.map(([k, v]) => `${k}: ${v}`).join(', ')})`, edits: [edit], safe: false });
    return [
      finding(
        tool,
        toolSpan(tool),
        `${tool.name.value ?? 'This tool'} changes things (${w.why}) but declares no annotations, so clients must assume the worst ` +
          '(destructive, open world) and ask for confirmation every time, or worse, treat it like a harmless read. ' +
          'Declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint.',
        fixes,
      ),
    ];
  },
};

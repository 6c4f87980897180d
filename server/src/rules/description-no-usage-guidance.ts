import type { Rule } from './types';
import { toolFinding, toolLabel } from './util/finding';
import { descriptionText, isPlaceholder } from './util/description';
import { hasUsageGuidance } from './util/text';
import { appendSentence } from './util/source';

export const descriptionNoUsageGuidance: Rule = {
  id: 'description-no-usage-guidance',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'The description says what the tool does but never when to use it (or when not to).',
  checkTool(tool, ctx) {
    const text = descriptionText(tool);
    if (text === undefined || isPlaceholder(tool) || hasUsageGuidance(text)) return [];
    const edit = appendSentence(ctx, tool.description!.span, 'Use when <situation>.');
    return [
      toolFinding(
        tool,
        tool.description!.span,
        `The description of ${toolLabel(tool)} says what it does but not when to use it: with several similar tools the model ` +
          'picks by guesswork. Add a sentence such as "Use when the user asks about …; do not use for …".',
        edit ? [{ title: 'Append a "Use when ..." sentence', edits: [edit], safe: false }] : [],
      ),
    ];
  },
};

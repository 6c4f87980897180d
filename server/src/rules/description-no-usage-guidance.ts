import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';
import { descriptionText, isPlaceholder } from './util/description';
import { hasUsageGuidance } from './util/text-heuristics';

export const descriptionNoUsageGuidance: Rule = {
  id: 'description-no-usage-guidance',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'The description says what the tool does but never when to use it (or when not to).',
  checkTool(tool) {
    const text = descriptionText(tool);
    if (text === undefined || isPlaceholder(tool) || hasUsageGuidance(text)) return [];
    return [
      finding(
        tool,
        tool.description!.span,
        `The description of ${toolLabel(tool)} says what it does but not when to use it: with several similar tools the model ` +
          'picks by guesswork. Add a sentence such as "Use when the user asks about …; do not use for …".',
      ),
    ];
  },
};

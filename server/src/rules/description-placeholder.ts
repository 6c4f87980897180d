import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';
import { descriptionText } from './util/description';
import { placeholderReason } from './util/text-heuristics';

export const descriptionPlaceholder: Rule = {
  id: 'description-placeholder',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'Placeholder description: TODO, "...", "description", or only repeats the name.',
  checkTool(tool) {
    const text = descriptionText(tool);
    const reason = text !== undefined ? placeholderReason(text, tool.name.value) : undefined;
    if (!reason) return [];
    return [
      finding(
        tool,
        tool.description!.span,
        `The description of ${toolLabel(tool)} is a placeholder (${reason}): the model reads it literally and learns nothing ` +
          'about when to call the tool. Write what it does, when to use it, and what it returns.',
      ),
    ];
  },
};

import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';
import { descriptionText, isPlaceholder } from './util/description';

export const descriptionTooShort: Rule = {
  id: 'description-too-short',
  // Opt-in (named in toolsmith.rules): on the labelled real-world set 0 of 49 short descriptions ("Switches
  // branches", "Get directions between two points") were incomplete, even for strict; length alone is no evidence.
  defaultSeverity: 'info',
  preset: 'opt-in',
  languages: ['typescript', 'python'],
  summary: 'Description under toolsmith.thresholds.descriptionMinLength characters (40).',
  checkTool(tool, ctx) {
    const text = descriptionText(tool);
    const min = ctx.settings.thresholds.descriptionMinLength;
    if (text === undefined || isPlaceholder(tool) || text.trim().length >= min) return [];
    return [
      finding(
        tool,
        tool.description!.span,
        `The description of ${toolLabel(tool)} is ${text.trim().length} characters (under ${min}): too short to tell the model ` +
          'when to pick this tool over its neighbours and what it returns. Say what it does, when to use it, and what comes back.',
      ),
    ];
  },
};

import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';
import { descriptionText } from './util/description';

export const descriptionTooLong: Rule = {
  id: 'description-too-long',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'Description over toolsmith.thresholds.descriptionMaxLength characters (1,500).',
  checkTool(tool, ctx) {
    const text = descriptionText(tool);
    const max = ctx.settings.thresholds.descriptionMaxLength;
    if (text === undefined || text.length <= max) return [];
    return [
      finding(
        tool,
        tool.description!.span,
        `The description of ${toolLabel(tool)} is ${text.length.toLocaleString('en-US')} characters (over ${max.toLocaleString('en-US')}): ` +
          'it is sent with every request and costs context on every turn, and the key sentences drown. Keep what it does, ' +
          "when to use it and what it returns; move parameter details into the parameters' own descriptions.",
      ),
    ];
  },
};

import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';
import { declaresOutputShape, descriptionText, isPlaceholder } from './util/description';
import { hasReturnInfo } from './util/text-heuristics';
import { FRAMEWORKS } from '../../../common/frameworks';

export const descriptionNoReturnInfo: Rule = {
  id: 'description-no-return-info',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'The description never says what comes back (and no output schema says it either).',
  checkTool(tool) {
    const text = descriptionText(tool);
    if (text === undefined || isPlaceholder(tool) || hasReturnInfo(text) || declaresOutputShape(tool)) return [];
    // A parsed docstring is cut at its first section: a "Returns:" section never reaches the model.
    const profile = FRAMEWORKS[tool.framework];
    const dropped =
      profile.docstring === 'parsed' && tool.docstring && /^\s*Returns?:/m.test(tool.docstring.raw)
        ? ` ${profile.name} drops the docstring's "Returns:" section from the description, so say it in the first paragraph.`
        : '';
    return [
      finding(
        tool,
        tool.description!.span,
        `The description of ${toolLabel(tool)} never says what comes back: the model cannot plan its next step or tell the ` +
          `user what to expect, and may call the tool again to find out. Add "Returns …" (shape, limits, order).${dropped}`,
      ),
    ];
  },
};

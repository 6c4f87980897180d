import type { Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { declaresOutputShape, descriptionText, isPlaceholder } from './util/description';
import { isReadTool, serverPrefix } from './util/sibling-names';
import { hasReturnInfo } from './util/text-heuristics';
import { FRAMEWORKS } from '../../../common/frameworks';

export const descriptionNoReturnInfo: Rule = {
  id: 'description-no-return-info',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A read tool whose description never says what comes back (and no output schema says it either).',
  // Read tools only: on the labelled real-world set, 0 of 101 write and action tools needed their status message
  // described; what a read returns is what the model plans its next step on.
  checkServer(tools) {
    const out: RuleFinding[] = [];
    const prefix = serverPrefix(tools);
    for (const tool of tools) {
      const text = descriptionText(tool);
      if (text === undefined || isPlaceholder(tool) || hasReturnInfo(text) || declaresOutputShape(tool) || !isReadTool(tool, prefix)) continue;
      // A parsed docstring is cut at its first section: a "Returns:" section never reaches the model.
      const profile = FRAMEWORKS[tool.framework];
      const dropped =
        profile.docstring === 'parsed' && tool.docstring && /^\s*Returns?:/m.test(tool.docstring.raw)
          ? ` ${profile.name} drops the docstring's "Returns:" section from the description, so say it in the first paragraph.`
          : '';
      out.push(
        finding(
          tool,
          tool.description!.span,
          `${toolLabel(tool) === 'this tool' ? 'This tool' : toolLabel(tool)} reads, and its description never says what comes back: the model cannot plan its next step or tell the ` +
            `user what to expect, and may call the tool again to find out. Add "Returns …" (shape, limits, order).${dropped}`,
        ),
      );
    }
    return out;
  },
};

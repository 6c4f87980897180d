import type { Rule } from './types';
import { finding, toolLabel } from './util/finding';

export const paramTooMany: Rule = {
  id: 'param-too-many',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'More than toolsmith.thresholds.maxParams (10) parameters.',
  checkTool(tool, ctx) {
    const max = ctx.settings.thresholds.maxParams;
    const n = tool.parameters.length;
    if (n <= max) return [];
    const required = tool.parameters.filter((p) => p.required).length;
    return [
      finding(
        tool,
        tool.name.span,
        `Tool ${toolLabel(tool)} takes ${n} parameters (${required} required; more than ${max}): every one is a decision the ` +
          'model can get wrong, and long schemas cost context on every turn. Give rarely used options good defaults and ' +
          'drop them, or split the tool by task.',
      ),
    ];
  },
};

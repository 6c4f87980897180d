import type { FileFacts, ToolDefinition } from '../analysis/model';
import type { Rule, RuleContext } from './types';
import { finding } from './util/finding';

export const tooManyTools: Rule = {
  id: 'too-many-tools',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'More than 20 tools (setting) on one server.',
  checkServer(tools: ToolDefinition[], _files: FileFacts[], ctx: RuleContext) {
    const max = ctx.settings.thresholds.maxTools;
    if (tools.length <= max) return [];
    const server = tools[0].server;
    return [
      finding(
        null,
        server.span,
        `This server registers ${tools.length} tools (more than ${max}). Every tool's contract is sent to the model on every turn, ` +
          'costing context, and near-duplicates make it pick the wrong one. Build tools around user tasks rather than API endpoints, ' +
          'merge the ones that differ only by a parameter, or split the server by domain.',
      ),
    ];
  },
};

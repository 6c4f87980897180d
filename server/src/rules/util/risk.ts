/**
 * The risk level of a tool from its source, for the preview (not a rule): the one risk model of common/risk.ts, fed
 * with the hints the author wrote and, for those left out, what the name and the handler's calls say.
 */
import type { ToolDefinition } from '../../analysis/model';
import { assessRisk, type InferredRisk, type RiskAssessment, type RiskHint } from '../../../../common/risk';
import { hint } from './annotations';
import { handlerEffects, nameIntent, toolWrites } from './tool-intent';

const RISK_HINTS: readonly RiskHint[] = ['readOnlyHint', 'destructiveHint', 'openWorldHint'];

export function riskLevel(tool: ToolDefinition): RiskAssessment {
  const written = Object.fromEntries(RISK_HINTS.map((key) => [key, hint(tool, key).value]));
  return assessRisk(written, inferredRisk(tool));
}

function inferredRisk(tool: ToolDefinition): InferredRisk {
  const intent = nameIntent(tool.name.value ?? '');
  const writes = toolWrites(tool);
  return {
    writes: writes.writes,
    destructive: writes.destructive,
    why: writes.why,
    readVerb: intent.kind === 'read' ? intent.verb : undefined,
    leavesSystem: intent.external,
    externalVerb: intent.external ? intent.verb : undefined,
    network: handlerEffects(tool).network,
    otherUsers: intent.otherUsers,
  };
}

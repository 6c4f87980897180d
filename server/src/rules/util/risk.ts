/**
 * Risk level shown in the contract preview (docs/preview.md, "Risk level"; not a rule):
 *   Low      = read-only;
 *   Medium   = writes, not destructive, closed world;
 *   High     = destructive, or touches other users' data (or writes to an open world);
 *   Critical = destructive and open world, or an effect that leaves the system (sends, pays, publishes).
 * Annotations the author wrote win; what they leave out is read from the name and the handler's calls.
 */
import type { ToolDefinition } from '../../analysis/model';
import { hint } from './annotations';
import { handlerEffects, nameIntent, toolWrites } from './tool-intent';

export type RiskLevel = 'Low' | 'Medium' | 'High' | 'Critical';

export interface RiskAssessment {
  level: RiskLevel;
  /** Short sentences explaining the level, in the order they were used (shown next to the level). */
  reasons: string[];
}

const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

export function riskLevel(tool: ToolDefinition): RiskAssessment {
  const name = tool.name.value ?? '';
  const intent = nameIntent(name);
  const fx = handlerEffects(tool);
  const inferred = toolWrites(tool);
  const reasons: string[] = [];

  const readOnlyHint = bool(hint(tool, 'readOnlyHint').value);
  const destructiveHint = bool(hint(tool, 'destructiveHint').value);
  const openWorldHint = bool(hint(tool, 'openWorldHint').value);

  let readOnly: boolean;
  if (readOnlyHint !== undefined) {
    readOnly = readOnlyHint;
    reasons.push(`readOnlyHint: ${readOnlyHint}`);
  } else {
    readOnly = !inferred.writes;
    reasons.push(inferred.writes ? `writes: ${inferred.why}` : intent.kind === 'read' ? `reads: its name says "${intent.verb}"` : 'no write seen in its name or handler');
  }
  if (readOnly) return { level: 'Low', reasons };

  let destructive: boolean;
  if (destructiveHint !== undefined) {
    destructive = destructiveHint;
    reasons.push(`destructiveHint: ${destructiveHint}`);
  } else {
    destructive = inferred.destructive;
    if (destructive) reasons.push(`destructive: ${inferred.why}`);
  }

  let openWorld: boolean;
  if (openWorldHint !== undefined) {
    openWorld = openWorldHint;
    reasons.push(`openWorldHint: ${openWorldHint}`);
  } else {
    openWorld = intent.external || fx.network;
    if (intent.external) reasons.push(`open world: its name says "${intent.verb}"`);
    else if (fx.network) reasons.push('open world: its handler calls the network');
  }

  if (destructive && openWorld) return { level: 'Critical', reasons };
  if (intent.external && openWorldHint !== false) {
    reasons.push('the effect leaves the system (sent, paid or published) and cannot be taken back');
    return { level: 'Critical', reasons };
  }
  if (destructive) return { level: 'High', reasons };
  if (intent.otherUsers) {
    reasons.push("touches other users' data or rights");
    return { level: 'High', reasons };
  }
  if (openWorld) return { level: 'High', reasons };
  return { level: 'Medium', reasons };
}

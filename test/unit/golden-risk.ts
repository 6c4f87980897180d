/**
 * The risk label each surface shows for a tool, recorded in the golden outputs. Today three functions answer
 * (rules/preview from the source, preview from the contract, the Servers tree from annotations): the golden file
 * keeps what each says, so unifying them shows as a reviewed diff.
 */
import type { ToolDefinition } from '../../server/src/analysis/model';
import { riskLevel } from '../../server/src/rules/util/risk';
import { assessRisk } from '../../common/preview-model';
import { riskOf } from '../../common/playground-messages';

export function goldenRisks(t: ToolDefinition): Record<string, string> {
  const ann = (t.contract.annotations ?? undefined) as Parameters<typeof riskOf>[0];
  return { source: riskLevel(t).level, contract: assessRisk(t.contract).level, tree: riskOf(ann) };
}

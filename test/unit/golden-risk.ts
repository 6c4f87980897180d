/**
 * The risk level each surface shows for a tool, through each surface's own entry point: the language server's
 * riskLevel (what toolFindings answers: the hints as written plus what the name and handler say), the Contract Preview built
 * from the published contract alone, the Servers tree row and the playground's tool view (both from the annotations
 * a running server lists). The golden outputs record three of them per tool (the playground reads what the tree
 * reads; test/unit/risk.test.ts proves they agree).
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ToolDefinition } from '../../server/src/analysis/model';
import { riskLevel } from '../../server/src/rules/util/risk';
import { buildPreview } from '../../common/preview-model';
import type { RiskLevel } from '../../common/risk';
import { toolText } from '../../client/src/servers/treeModel';
import { toolView } from '../../client/src/playground/controller';

export interface SurfaceRisks {
  rules: RiskLevel;
  preview: RiskLevel;
  tree: RiskLevel;
  playground: RiskLevel;
}

/** The tool as a running server lists it (tools/list): its published contract. */
function listed(t: ToolDefinition): Tool {
  return { inputSchema: { type: 'object' }, ...t.contract, name: t.name.value ?? '' };
}

export function surfaceRisks(t: ToolDefinition): SurfaceRisks {
  const zero = { line: 0, character: 0 };
  const preview = buildPreview({
    tool: { name: t.name.value, language: t.language, framework: t.framework, uri: 'file:///t', range: { start: zero, end: zero }, contract: t.contract, unresolved: [], serverId: 's' },
    serverContracts: [t.contract],
    findings: [],
  });
  return { rules: riskLevel(t).level, preview: preview.risk.level, tree: toolText(listed(t)).risk.level, playground: toolView(listed(t)).risk.level };
}

export function goldenRisks(t: ToolDefinition): Record<string, string> {
  const r = surfaceRisks(t);
  return { source: r.rules, contract: r.preview, tree: r.tree };
}

import type { ToolFindingsResult } from '../../../common/protocol';
import type { FileAnalysis } from '../service';
import type { SpanMapper } from './spans';
import { fileToUri } from './paths';
import { riskLevel } from '../rules/util/risk';

/** The findings and risk level of one tool (`toolsmith/toolFindings`), for the preview. */
export function toolFindings(analysis: FileAnalysis, toolName: string | null, mapper: SpanMapper): ToolFindingsResult {
  const findings = analysis.findings
    .filter((f) => f.tool !== null && f.tool === toolName)
    .map((f) => ({
      ruleId: f.ruleId,
      severity: f.severity,
      message: f.message,
      uri: fileToUri(f.span.file),
      range: mapper.range(f.span),
      hasFix: f.fixes.length > 0,
    }));
  const tool = analysis.result.tools.find((t) => (t.name.value ?? null) === toolName);
  return tool ? { findings, risk: riskLevel(tool) } : { findings };
}

import type { ToolFinding } from '../../../common/protocol';
import type { FileAnalysis } from '../service';
import type { SpanMapper } from './spans';
import { fileToUri } from './paths';

/** The findings of one tool (`toolsmith/toolFindings`), for the preview's "open findings" list. */
export function toolFindings(analysis: FileAnalysis, toolName: string | null, mapper: SpanMapper): ToolFinding[] {
  return analysis.findings
    .filter((f) => f.tool !== null && f.tool === toolName)
    .map((f) => ({
      ruleId: f.ruleId,
      severity: f.severity,
      message: f.message,
      uri: fileToUri(f.span.file),
      range: mapper.range(f.span),
      hasFix: f.fixes.length > 0,
    }));
}

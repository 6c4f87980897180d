import type { ToolSummary } from '../../../common/protocol';
import type { FileAnalysis } from '../service';
import type { SpanMapper } from './spans';
import { fileToUri } from './paths';

/** The tools of one analysed file as the client sees them (`toolsmith/tools`, `toolsmith/workspaceTools`). */
export function toolSummaries(analysis: FileAnalysis, uri: string, mapper: SpanMapper): ToolSummary[] {
  return analysis.result.tools.map((t) => {
    const counts = { error: 0, warning: 0, info: 0 };
    for (const f of analysis.findings) {
      if (f.tool !== null && f.tool === t.name.value) counts[f.severity]++;
    }
    return {
      name: t.name.value,
      title: t.title?.value,
      language: t.language,
      framework: t.framework,
      frameworkVersion: t.frameworkVersion,
      uri,
      range: mapper.range(t.registration.span),
      nameRange: mapper.range(t.name.span),
      contract: t.contract,
      unresolved: t.unresolved.map((u) => ({ part: u.part, reason: u.reason, uri: fileToUri(u.span.file), range: mapper.range(u.span) })),
      serverId: t.server.id,
      findings: counts,
    };
  });
}

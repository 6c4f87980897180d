import type { PromptSummary, ResourceSummary, ToolSummary } from '../../../common/protocol';
import type { ToolDefinition } from '../analysis/model';
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
    return toolSummary(t, uri, mapper, counts);
  });
}

/** One tool as the client sees it; `uri` the document it is shown for (its file, or the entry's module). */
export function toolSummary(t: ToolDefinition, uri: string, mapper: SpanMapper, findings: ToolSummary['findings']): ToolSummary {
  const condition = t.registration.condition;
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
    ...(condition ? { condition: { text: condition.text, uri: fileToUri(condition.span.file), range: mapper.range(condition.span) } } : {}),
    findings,
  };
}

/** The prompts and resources of one analysed file, for the preview (`toolsmith/tools`); absent when there are none. */
export function surfaceSummaries(analysis: FileAnalysis, uri: string, mapper: SpanMapper): { prompts?: PromptSummary[]; resources?: ResourceSummary[] } {
  const unresolvedOf = (rows: { part: string; reason: string; span: { file: string; start: number; end: number } }[]) =>
    rows.map((u) => ({ part: u.part, reason: u.reason, uri: fileToUri(u.span.file), range: mapper.range(u.span) }));
  const out: { prompts?: PromptSummary[]; resources?: ResourceSummary[] } = {};
  const { prompts, resources } = analysis.result;
  if (prompts?.length)
    out.prompts = prompts.map((p) => ({ name: p.name.value, uri, range: mapper.range(p.registration.span), contract: p.contract, unresolved: unresolvedOf(p.unresolved), serverId: p.server.id }));
  if (resources?.length)
    out.resources = resources.map((r) => ({
      kind: r.kind,
      name: r.name.value,
      uri,
      range: mapper.range(r.registration.span),
      contract: r.contract,
      unresolved: unresolvedOf(r.unresolved),
      serverId: r.server.id,
    }));
  return out;
}

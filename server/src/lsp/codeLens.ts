import type { CodeLens } from 'vscode-languageserver';
import type { ToolCommandArgs } from '../../../common/protocol';
import type { FileAnalysis } from '../service';
import type { SpanMapper } from './spans';

export const PREVIEW_COMMAND = 'toolsmith.previewContract';
const PLAYGROUND_COMMAND = 'toolsmith.openPlayground';

/** Two lenses above each tool registration: preview its contract, run it in the playground. */
export function codeLenses(analysis: FileAnalysis, file: string, uri: string, mapper: SpanMapper): CodeLens[] {
  const lenses: CodeLens[] = [];
  for (const tool of analysis.result.tools) {
    if (tool.registration.span.file !== file) continue;
    const start = mapper.range(tool.registration.span).start;
    const range = { start, end: start };
    const args: ToolCommandArgs = { uri, toolName: tool.name.value ?? null };
    lenses.push({ range, command: { title: 'Preview contract', command: PREVIEW_COMMAND, arguments: [args] } });
    lenses.push({ range, command: { title: 'Run in playground', command: PLAYGROUND_COMMAND, arguments: [args] } });
  }
  return lenses;
}

import type { AnalysisResult, FileHost } from '../model';

/** Python front-end (real Python parser -> ToolDefinition[]). Placeholder until the front-end lands. */
export function analyzePython(_file: string, _text: string, _host: FileHost): AnalysisResult {
  return { tools: [], files: [] };
}

import type { AnalysisResult, FileHost } from '../model';

/** TypeScript front-end (TypeScript compiler API -> ToolDefinition[]). Placeholder until the front-end lands. */
export function analyzeTypeScript(_file: string, _text: string, _host: FileHost): AnalysisResult {
  return { tools: [], files: [] };
}

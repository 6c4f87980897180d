import * as path from 'node:path';
import type { AnalysisResult, FileHost } from './model';
import { analyzeTypeScript } from './typescript';
import { analyzePython } from './python';

export type SourceKind = 'typescript' | 'python';

const TS_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);

export function sourceKindOf(file: string): SourceKind | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.py' || ext === '.pyi') return 'python';
  if (TS_EXTENSIONS.has(ext)) return 'typescript';
  return undefined;
}

/**
 * The single entry point of the analysis: source text -> ToolDefinition[] (+ file facts).
 * Never throws on user code: a front-end failure is returned as an empty result with the error logged by the caller.
 */
export function analyzeSource(file: string, text: string, host: FileHost): AnalysisResult {
  const kind = sourceKindOf(file);
  if (kind === 'typescript') return analyzeTypeScript(file, text, host);
  if (kind === 'python') return analyzePython(file, text, host);
  return { tools: [], files: [] };
}

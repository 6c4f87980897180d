import * as path from 'node:path';
import type { AnalysisResult, FileHost } from './model';

// The front-ends are loaded on first use: the TypeScript one carries the whole TypeScript compiler and zod, which a
// Python-only run (or `toolsmith --version`) should not pay for at start-up.
type FrontEnd = (file: string, text: string, host: FileHost) => AnalysisResult;
let typescriptFrontEnd: typeof import('./typescript').analyzeTypeScript | undefined;
let pythonFrontEnd: FrontEnd | undefined;
function loadTypeScript(): typeof import('./typescript').analyzeTypeScript {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (typescriptFrontEnd ??= (require('./typescript') as typeof import('./typescript')).analyzeTypeScript);
}

/**
 * A TypeScript/JavaScript file as a server's entry: its whole module graph run (analysis/entry.ts). Through this
 * module, so the CLI loads the front-end as its own bundle on first use (esbuild.mjs), as for analyzeSource.
 */
export function analyzeTypeScriptEntry(file: string, text: string, host: FileHost): AnalysisResult {
  return loadTypeScript()(file, text, host, { wholeServer: true });
}
function loadPython(): FrontEnd {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (pythonFrontEnd ??= (require('./python') as typeof import('./python')).analyzePython);
}

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
  if (kind === 'typescript') return loadTypeScript()(file, text, host);
  // A byte order mark is no Python token: read as a blank line it keeps every offset and lets the module parse.
  if (kind === 'python') return loadPython()(file, text.charCodeAt(0) === 0xfeff ? `\n${text.slice(1)}` : text, host);
  return { tools: [], files: [] };
}

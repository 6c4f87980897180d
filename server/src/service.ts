import { analyzeSource } from './analysis/analyze';
import type { AnalysisResult, FileHost } from './analysis/model';
import { runRules } from './rules';
import type { Finding } from './rules/types';
import type { ToolsmithSettings } from '../../common/settings';

export interface FileAnalysis {
  file: string;
  result: AnalysisResult;
  findings: Finding[];
  /** Set when the front-end itself failed on this text (a bug of ours, never of the user's code). */
  internalError?: string;
}

/**
 * source -> front-end -> ToolDefinition[] -> rules. The one pipeline the language server and the CLI share.
 * Never throws: an internal failure yields an empty, honest result plus the error text for the log.
 */
export function analyzeFile(
  file: string,
  text: string,
  host: FileHost,
  settings: ToolsmithSettings,
  log: (message: string) => void = () => {},
): FileAnalysis {
  let result: AnalysisResult;
  try {
    result = analyzeSource(file, text, host);
  } catch (err) {
    const message = `analysis of ${file} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`;
    log(message);
    return { file, result: { tools: [], files: [] }, findings: [], internalError: message };
  }
  const findings = runRules(
    result,
    { settings, textOf: (f) => (f === file ? text : host.readFile(f)) },
    (ruleId, err) => log(`rule ${ruleId} failed on ${file}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`),
  );
  return { file, result, findings };
}

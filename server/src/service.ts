import { analyzeSource } from './analysis/analyze';
import type { AnalysisResult, FileHost } from './analysis/model';
import { runRules } from './rules';
import type { Finding } from './rules/types';
import type { ToolsmithSettings } from '../../common/settings';

export interface FileAnalysis {
  file: string;
  result: AnalysisResult;
  findings: Finding[];
  /**
   * Set when the analysis itself failed on this text: the front-end (then nothing was found) or a rule (the other
   * rules' findings are kept). A bug of ours, never of the user's code; the CLI exits 2 on it.
   */
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
  const ruleFailures: string[] = [];
  const findings = runRules(result, { settings, textOf: (f) => (f === file ? text : host.readFile(f)) }, (ruleId, err) => {
    const message = `rule ${ruleId} failed on ${file}: ${err instanceof Error ? err.stack ?? err.message : String(err)}`;
    ruleFailures.push(message);
    log(message);
  });
  return ruleFailures.length ? { file, result, findings, internalError: ruleFailures.join('\n') } : { file, result, findings };
}

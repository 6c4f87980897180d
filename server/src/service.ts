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
export function analyzeFile(file: string, text: string, host: FileHost, settings: ToolsmithSettings, log: (message: string) => void = () => {}): FileAnalysis {
  let result: AnalysisResult;
  try {
    result = analyzeSource(file, text, host);
  } catch (err) {
    const message = `analysis of ${file} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    log(message);
    return { file, result: { tools: [], files: [] }, findings: [], internalError: message };
  }
  const ruleFailures: string[] = [];
  const findings = runRules(result, { settings, textOf: (f) => (f === file ? text : host.readFile(f)) }, (ruleId, err) => {
    const message = `rule ${ruleId} failed on ${file}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    ruleFailures.push(message);
    log(message);
  });
  matchLineEndings(findings, (f) => (f === file ? text : host.readFile(f)));
  return ruleFailures.length ? { file, result, findings, internalError: ruleFailures.join('\n') } : { file, result, findings };
}

/** The line ending a text is written with: the first one it has (editors keep one per file), LF when it has none. */
export function lineEndingOf(text: string): '\n' | '\r\n' | '\r' {
  const i = text.search(/\r\n?|\n/);
  return i < 0 || text[i] === '\n' ? '\n' : text[i + 1] === '\n' ? '\r\n' : '\r';
}

/**
 * Rules write their fixes with \n; a fix inserting lines into a CRLF (or CR) file must not mix endings. Every edit's
 * new text takes the line ending of the file it edits.
 */
function matchLineEndings(findings: Finding[], textOf: (file: string) => string | undefined): void {
  const endings = new Map<string, string>();
  for (const finding of findings) {
    for (const fix of finding.fixes) {
      for (const edit of fix.edits) {
        if (!/[\r\n]/.test(edit.newText)) continue;
        let eol = endings.get(edit.span.file);
        if (eol === undefined) endings.set(edit.span.file, (eol = lineEndingOf(textOf(edit.span.file) ?? '')));
        if (eol !== '\n') edit.newText = edit.newText.replace(/\r\n|\r|\n/g, eol);
      }
    }
  }
}

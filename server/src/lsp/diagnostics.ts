import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { Finding } from '../rules/types';
import type { SpanMapper } from './spans';
import { ruleDocsUrl } from './docs';

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

/** What a diagnostic carries back to the server in code-action requests. */
export interface DiagnosticData {
  tool: string | null;
  fixes: number;
}

export function toDiagnostic(f: Finding, mapper: SpanMapper): Diagnostic {
  const data: DiagnosticData = { tool: f.tool, fixes: f.fixes.length };
  return {
    range: mapper.range(f.span),
    severity: SEVERITY[f.severity],
    source: 'toolsmith',
    code: f.ruleId,
    codeDescription: { href: ruleDocsUrl(f.ruleId) },
    message: f.message,
    data,
  };
}

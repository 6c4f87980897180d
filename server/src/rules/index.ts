import type { AnalysisResult } from '../analysis/model';
import type { Finding, Rule, RuleContext } from './types';
import { CATALOG_A } from './catalog-a';
import { CATALOG_B } from './catalog-b';

/** Every rule of the catalogue (RULES.md), one file each. */
export const RULES: Rule[] = [...CATALOG_A, ...CATALOG_B];

/**
 * Runs every enabled rule over an analysis result. A rule that throws is skipped for this file and reported
 * once through `onRuleError`; the others still run.
 */
export function runRules(result: AnalysisResult, ctx: RuleContext, onRuleError?: (ruleId: string, err: unknown) => void): Finding[] {
  const findings: Finding[] = [];
  for (const rule of RULES) {
    const setting = ctx.settings.rules[rule.id];
    if (setting === 'off') continue;
    const severity = setting ?? rule.defaultSeverity;
    try {
      for (const tool of result.tools) {
        if (!rule.languages.includes(tool.language) || !rule.checkTool) continue;
        for (const f of rule.checkTool(tool, ctx)) findings.push({ ...f, ruleId: rule.id, severity });
      }
    } catch (err) {
      onRuleError?.(rule.id, err);
    }
  }
  return findings;
}

import type { Rule, RuleFinding } from './types';
import { schemaLibraryOf, spell } from './util/schema-library';
import { finding, toolLabel } from './util/finding';

export const paramUntyped: Rule = {
  id: 'param-untyped',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'Python parameter without annotation; TS z.any() / z.unknown().',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    for (const p of tool.parameters) {
      if (!p.untyped) continue;
      const what = tool.language === 'typescript' ? `is declared with ${/\bunknown\(/.test(p.typeText ?? '') ? 'z.unknown()' : 'z.any()'}` : 'has no type annotation';
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} ${what}: its schema carries no type, so the model sends whatever it ` +
            'guesses (a string for a number, an object for a list) and nothing validates it. Give it a precise type' +
            (tool.language === 'typescript' ? ` (${spell(schemaLibraryOf(tool, ctx), { kind: 'types' })}).` : ' (str, int, Literal[...], a pydantic model).'),
        ),
      );
    }
    return out;
  },
};

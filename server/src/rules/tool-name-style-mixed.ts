import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';
import { nameStyle, nameTokens, toStyle, type NameStyle } from './util/names';
import { renameEdit } from './util/string-literals';

/** The casing of a name (for domain.verb names: of its segments). 'single'/'other' carry no style. */
function styleOf(name: string): NameStyle | undefined {
  const segments = name.split('.');
  for (const s of segments) {
    const st = nameStyle(s);
    if (st !== 'single' && st !== 'other') return st;
  }
  return undefined;
}

function restyle(name: string, style: NameStyle): string {
  return name
    .split('.')
    .map((s) => toStyle(nameTokens(s), style))
    .join('.');
}

export const toolNameStyleMixed: Rule = {
  id: 'tool-name-style-mixed',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'One server mixes snake_case, camelCase and kebab-case tool names.',
  checkServer(tools, _files, ctx) {
    const styled: { tool: ToolDefinition; style: NameStyle }[] = [];
    for (const tool of tools) {
      const style = tool.name.value ? styleOf(tool.name.value) : undefined;
      if (style) styled.push({ tool, style });
    }
    const counts = new Map<NameStyle, number>();
    for (const s of styled) counts.set(s.style, (counts.get(s.style) ?? 0) + 1);
    if (counts.size < 2) return [];
    // Majority style; a tie goes to the style of the first tool registered.
    const majority = [...counts].sort((a, b) => b[1] - a[1] || styled.findIndex((s) => s.style === a[0]) - styled.findIndex((s) => s.style === b[0]))[0][0];
    const out: RuleFinding[] = [];
    for (const { tool, style } of styled) {
      if (style === majority) continue;
      const name = tool.name.value!;
      const renamed = restyle(name, majority);
      const rename = renameEdit(ctx, tool.name.span, name, renamed);
      out.push(
        finding(
          tool,
          tool.name.span,
          `Tool name "${name}" is ${style} while most tools on this server are ${majority}: with mixed conventions the model ` +
            `misspells names ("${renamed}" vs "${name}") and calls tools that do not exist. Rename it "${renamed}".`,
          rename ? [{ title: `Rename to "${renamed}"`, edits: [rename.edit], safe: false }] : [],
        ),
      );
    }
    return out;
  },
};

import type { Fix, Rule, RuleFinding } from './types';
import { schemaLibraryOf, spell } from './util/schema-library';
import { finding, toolLabel } from './util/finding';
import { isCountLike } from './util/param-names';
import { replacePythonType } from './util/python-edits';
import { inputSchemaOf, schemaTypes } from './util/json-schema';
import { insertAt } from './util/source';
import { zodBase } from './util/zod';

export const paramNumberShouldBeInteger: Rule = {
  id: 'param-number-should-be-integer',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A count-like parameter typed number / float.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    const siblings = tool.parameters.map((q) => q.name);
    for (const p of tool.parameters) {
      if (!isCountLike(p.name, siblings) || !schemaTypes(p.schema, root).has('number')) continue;
      const fixes: Fix[] = [];
      if (tool.language === 'typescript') {
        const base = zodBase(ctx, p);
        if (base && base.kind === 'number' && !base.chain.includes('int')) {
          fixes.push({ title: 'Add .int()', edits: [insertAt(p.typeSpan!.file, base.end, '.int()')], safe: true });
        }
      } else {
        const e = replacePythonType(ctx, p, 'float', 'int');
        if (e) fixes.push({ title: 'Use int', edits: [e], safe: true });
      }
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} counts things but is typed as a decimal number: the model may send 2.5 ` +
            `and your code has to guess what that means. Declare it as an integer (${tool.language === 'typescript' ? spell(schemaLibraryOf(tool, ctx), { kind: 'integer' }) : 'int'}).`,
          fixes,
        ),
      );
    }
    return out;
  },
};

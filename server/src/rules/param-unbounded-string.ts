import type { Fix, Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { freeTextKind, stringMaximum } from './util/param-names';
import { addFieldKeywords } from './util/python-edits';
import { enumValues, hasKeyword, inputSchemaOf, mainType } from './util/json-schema';
import { insertAt } from './util/source';
import { zodBase } from './util/zod';
import { schemaLibraryOf, spell } from './util/schema-library';

export const paramUnboundedString: Rule = {
  id: 'param-unbounded-string',
  defaultSeverity: 'info',
  // Opt-in (named in toolsmith.rules): on the labelled real-world set 0 of 131 findings were right, even for strict —
  // queries, prompts and bodies have no natural size, and no model pads a sheet or user name.
  preset: 'opt-in',
  languages: ['typescript', 'python'],
  summary: 'A free-text string (query, text, name, body...) without a max length.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    for (const p of tool.parameters) {
      const kind = freeTextKind(p.name);
      if (!kind || mainType(p.schema, root) !== 'string' || enumValues(p, root)) continue;
      if (['maxLength', 'format', 'pattern'].some((k) => hasKeyword(p.schema, k, root))) continue;
      const max = stringMaximum(kind);
      const fixes: Fix[] = [];
      if (tool.language === 'typescript') {
        const base = zodBase(ctx, p);
        if (base && base.kind === 'string' && !base.chain.includes('max') && !base.chain.includes('length')) {
          fixes.push({ title: `Add .max(${max})`, edits: [insertAt(p.typeSpan!.file, base.end, `.max(${max})`)], safe: false });
        }
      } else {
        const edits = addFieldKeywords(ctx, p, `max_length=${max}`);
        if (edits) fixes.push({ title: `Add Field(max_length=${max})`, edits, safe: false });
      }
      const spelled = tool.language === 'typescript' ? spell(schemaLibraryOf(tool, ctx), { kind: 'maxLength', value: max }) : `Field(max_length=${max})`;
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} is free text with no maximum length: nothing stops the model from pasting ` +
            `a whole document into it, which costs tokens, slows the server and can fail downstream. Bound it, e.g. ${spelled}.`,
          fixes,
        ),
      );
    }
    return out;
  },
};

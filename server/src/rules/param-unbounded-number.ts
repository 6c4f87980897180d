import type { Fix, Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { countMaximum, countMinimum, isCountLike, statedBounds } from './util/param-names';
import { addFieldKeywords } from './util/python-edits';
import { inputSchemaOf, keywordValue, mainType, paramDescription, schemaTypes } from './util/json-schema';
import { insertAt } from './util/source';
import { zodBase } from './util/zod';
import { schemaLibraryOf, spellBounds } from './util/schema-library';

export const paramUnboundedNumber: Rule = {
  id: 'param-unbounded-number',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'A count-like number (limit, count, page, size, days, max_*) without min and max.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    const siblings = tool.parameters.map((q) => q.name);
    for (const p of tool.parameters) {
      const type = mainType(p.schema, root);
      if (!isCountLike(p.name, siblings) || (type !== 'number' && type !== 'integer')) continue;
      // zod 4's .int() publishes ±Number.MAX_SAFE_INTEGER as bounds: that is no bound for the model.
      const bound = (kw: string) => {
        const v = keywordValue(p.schema, kw, root);
        return typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER;
      };
      const hasMin = bound('minimum') || bound('exclusiveMinimum');
      const hasMax = bound('maximum') || bound('exclusiveMaximum');
      if (hasMin && hasMax) continue;
      // What the description documents wins over the guess: `le=100` on "up to 3600 seconds" rejects valid calls.
      const stated = statedBounds(paramDescription(p));
      const lo = stated.min ?? countMinimum(p.name);
      const hi = stated.max ?? countMaximum(p.name);
      const isInteger = !schemaTypes(p.schema, root).has('number');
      const fixes: Fix[] = [];
      let spelled: string;
      if (tool.language === 'typescript') {
        const base = zodBase(ctx, p);
        const parts: string[] = [];
        if (base && !isInteger && base.kind === 'number' && !base.chain.includes('int')) parts.push('.int()');
        if (!hasMin) parts.push(`.min(${lo})`);
        if (!hasMax) parts.push(`.max(${hi})`);
        const lib = schemaLibraryOf(tool, ctx);
        spelled = lib === 'zod' ? parts.join('') : spellBounds(lib, hasMin ? undefined : lo, hasMax ? undefined : hi, true);
        if (base && (base.kind === 'number' || base.kind === 'int')) {
          fixes.push({ title: `Add ${spelled}`, edits: [insertAt(p.typeSpan!.file, base.end, spelled)], safe: false });
        }
      } else {
        const kws = [...(hasMin ? [] : [`ge=${lo}`]), ...(hasMax ? [] : [`le=${hi}`])].join(', ');
        spelled = `Field(${kws})`;
        const edits = addFieldKeywords(ctx, p, kws);
        if (edits) fixes.push({ title: `Add ${spelled}`, edits, safe: false });
      }
      const missing = !hasMin && !hasMax ? 'no minimum and no maximum' : !hasMin ? 'no minimum' : 'no maximum';
      out.push(
        finding(
          tool,
          p.nameSpan,
          `Parameter "${p.name}" of ${toolLabel(tool)} is a count with ${missing}: the model may ask for 0, -1 or 100000 ` +
            `results, flooding its own context or your backend. Bound it, e.g. ${spelled}.`,
          fixes,
        ),
      );
    }
    return out;
  },
};

import type { Fix, Rule, RuleFinding } from './types';
import { finding, toolLabel } from './util/finding';
import { statedBounds } from './util/param-names';
import { addFieldKeywords } from './util/python-edits';
import { inputSchemaOf, keywordValue, mainType, paramDescription } from './util/json-schema';
import { insertAt } from './util/source';
import { zodBase } from './util/zod';

/**
 * A number whose description states its range ("between 1 and 100", "max 50", "up to 3600") while the schema has no
 * such bound: the model reads the prose, a client validating arguments reads the schema, and the handler gets 0 or
 * 100000 from whichever model skims. The fix writes exactly the stated bound, nothing guessed.
 */
export const paramRangeNotInSchema: Rule = {
  id: 'param-range-not-in-schema',
  defaultSeverity: 'info',
  languages: ['typescript', 'python'],
  summary: 'A number’s description states a range (between 1 and 100, max 50) that its schema does not carry.',
  checkTool(tool, ctx) {
    const out: RuleFinding[] = [];
    const root = inputSchemaOf(tool);
    for (const p of tool.parameters) {
      const type = mainType(p.schema, root);
      if (type !== 'number' && type !== 'integer') continue;
      const stated = statedBounds(paramDescription(p));
      if (stated.min !== undefined && stated.max !== undefined && stated.min > stated.max) continue;
      const bound = (kw: string) => {
        const v = keywordValue(p.schema, kw, root);
        return typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER;
      };
      const needMin = stated.min !== undefined && !bound('minimum') && !bound('exclusiveMinimum');
      const needMax = stated.max !== undefined && !bound('maximum') && !bound('exclusiveMaximum');
      if (!needMin && !needMax) continue;
      const fixes: Fix[] = [];
      let spelled: string;
      if (tool.language === 'typescript') {
        spelled = `${needMin ? `.min(${stated.min})` : ''}${needMax ? `.max(${stated.max})` : ''}`;
        const base = zodBase(ctx, p);
        if (base && (base.kind === 'number' || base.kind === 'int')) fixes.push({ title: `Add ${spelled}`, edits: [insertAt(p.typeSpan!.file, base.end, spelled)], safe: false });
      } else {
        const kws = [...(needMin ? [`ge=${stated.min}`] : []), ...(needMax ? [`le=${stated.max}`] : [])].join(', ');
        spelled = `Field(${kws})`;
        const edits = addFieldKeywords(ctx, p, kws);
        if (edits) fixes.push({ title: `Add ${spelled}`, edits, safe: false });
      }
      const range = needMin && needMax ? `${stated.min} to ${stated.max}` : needMin ? `at least ${stated.min}` : `at most ${stated.max}`;
      out.push(
        finding(
          tool,
          p.nameSpan,
          `The description of "${p.name}" (${toolLabel(tool)}) says ${range}, but its schema has no such bound: clients that validate arguments let ` +
            `any number through and a model that skims the prose sends 0 or 100000. Put the range in the schema, ${spelled}.`,
          fixes,
        ),
      );
    }
    return out;
  },
};

import type { ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext, RuleFinding } from './types';
import { finding } from './util/finding';
import { insertFirstProperty, isPureExpression, returnedObjectStart } from './util/object-edits';
import { insertAt, spanText } from './util/source';

export const structuredContentWithoutText: Rule = {
  id: 'structured-content-without-text',
  defaultSeverity: 'warning',
  languages: ['typescript'],
  summary: 'A result sets structuredContent without a text copy in content.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const out: RuleFinding[] = [];
    for (const r of tool.handler?.returns ?? []) {
      // A text block held in a variable, content passed through, an image: the model does not get an empty result,
      // and a JSON copy would duplicate the text or stringify an image.
      if (!r.hasStructuredContent || r.hasTextContent || r.hasOtherContent) continue;
      const fixes: Fix[] = [];
      const expr = spanText(ctx, r.structuredContentSpan);
      if (expr !== undefined) {
        const item = `{ type: "text", text: JSON.stringify(${expr.trim()}) }`;
        // Writing the expression twice is only harmless when evaluating it twice is.
        const safe = isPureExpression(expr);
        const content = spanText(ctx, r.contentArraySpan);
        if (r.contentArraySpan && content !== undefined && content.startsWith('[')) {
          const empty = content.slice(1, -1).trim() === '';
          fixes.push({ title: 'Add a text copy of structuredContent to content', edits: [insertAt(r.contentArraySpan.file, r.contentArraySpan.start + 1, empty ? item : `${item}, `)], safe });
        } else if (!(r.keys ?? []).includes('content') && returnedObjectStart(ctx, r) !== undefined) {
          const edit = insertFirstProperty(ctx, r.span.file, returnedObjectStart(ctx, r)!, `content: [${item}]`);
          if (edit) fixes.push({ title: 'Add a text copy of structuredContent to content', edits: [edit], safe });
        }
      }
      out.push(
        finding(
          tool,
          r.span, // the whole return: the fix adds its text copy there
          'This result sets structuredContent but content has no text item. Many clients only pass content to the model, ' +
            'so the model sees an empty result. Add a text copy: `content: [{ type: "text", text: JSON.stringify(result) }]`.',
          fixes,
        ),
      );
    }
    return out;
  },
};

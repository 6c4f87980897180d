import type { ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext } from './types';
import { at, insertFirstProperty, isPureExpression, returnedObjectStart, textOf, type Hit } from './util/b-edits';

export const structuredContentWithoutText: Rule = {
  id: 'structured-content-without-text',
  defaultSeverity: 'warning',
  languages: ['typescript'],
  summary: 'A result sets structuredContent without a text copy in content.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const out: Hit[] = [];
    for (const r of tool.handler?.returns ?? []) {
      if (!r.hasStructuredContent || r.hasTextContent) continue;
      const fixes: Fix[] = [];
      const expr = textOf(ctx, r.structuredContentSpan);
      if (expr !== undefined) {
        const item = `{ type: "text", text: JSON.stringify(${expr.trim()}) }`;
        // Writing the expression twice is only harmless when evaluating it twice is.
        const safe = isPureExpression(expr);
        const content = textOf(ctx, r.contentArraySpan);
        if (r.contentArraySpan && content !== undefined && content.startsWith('[')) {
          const empty = content.slice(1, -1).trim() === '';
          fixes.push({ title: 'Add a text copy of structuredContent to content', edits: [at(r.contentArraySpan.file, r.contentArraySpan.start + 1, empty ? item : `${item}, `)], safe });
        } else if (!(r.keys ?? []).includes('content') && returnedObjectStart(ctx, r) !== undefined) {
          const edit = insertFirstProperty(ctx, r.span.file, returnedObjectStart(ctx, r)!, `content: [${item}]`);
          if (edit) fixes.push({ title: 'Add a text copy of structuredContent to content', edits: [edit], safe });
        }
      }
      out.push({
        span: r.span, // the whole return: the fix adds its text copy there
        tool: tool.name.value ?? null,
        message:
          'This result sets structuredContent but content has no text item. Many clients only pass content to the model, ' +
          'so the model sees an empty result. Add a text copy: `content: [{ type: "text", text: JSON.stringify(result) }]`.',
        fixes,
      });
    }
    return out;
  },
};

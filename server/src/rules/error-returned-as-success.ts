import type { ToolDefinition } from '../analysis/model';
import type { Fix, Rule, RuleContext, RuleFinding } from './types';
import { finding } from './util/finding';
import { insertFirstProperty, returnedObjectStart } from './util/object-edits';
import { addPythonImports } from './util/python-imports';
import { replace, spanText } from './util/source';
import { FRAMEWORKS } from '../../../common/frameworks';

export const errorReturnedAsSuccess: Rule = {
  id: 'error-returned-as-success',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'An error is returned as a normal result (`{"error": ...}`, "Error: ...") without isError.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const out: RuleFinding[] = [];
    for (const r of tool.handler?.returns ?? []) {
      if (!r.looksLikeError || r.isError === true) continue;
      const fixes: Fix[] = [];
      if (tool.language === 'typescript') {
        const start = returnedObjectStart(ctx, r);
        const edit = start !== undefined ? insertFirstProperty(ctx, r.span.file, start, 'isError: true') : undefined;
        if (edit) fixes.push({ title: 'Mark this result as an error (isError: true)', edits: [edit], safe: true });
      } else {
        const module = FRAMEWORKS[tool.framework].errorModule;
        const stmt = spanText(ctx, r.span);
        // Without the front-end's valueSpan, the value is what follows `return` in the statement's own span.
        const value = spanText(ctx, r.valueSpan) ?? /^return\s+([\s\S]+?)\s*$/.exec(stmt ?? '')?.[1];
        const msg = spanText(ctx, r.errorMessageSpan) ?? (r.valueKind === 'string' && value !== undefined && !/^json\.dumps\(/.test(value) && !/^[{[]/.test(value) ? value : undefined);
        const text = ctx.textOf(r.span.file);
        if (module && text !== undefined && stmt !== undefined && /^return\b/.test(stmt) && msg !== undefined) {
          const edits = [replace(r.span, `raise ToolError(${msg.trim()})`), ...addPythonImports(r.span.file, text, [[module, 'ToolError']])];
          fixes.push({ title: 'Raise ToolError instead of returning the error', edits, safe: true });
        }
      }
      out.push(
        finding(
          tool,
          r.errorMessageSpan ?? r.span,
          'This returns an error as if it were a success: the client and the model get a normal result, so the model may ' +
            'report success to the user or build on a result that does not exist. ' +
            (tool.language === 'typescript'
              ? 'Return `{ isError: true, content: [{ type: "text", text: "<what went wrong and what to do>" }] }`.'
              : 'Raise `ToolError("<what went wrong and what to do>")`: the SDK turns it into a result marked isError with your message.'),
          fixes,
        ),
      );
    }
    return out;
  },
};

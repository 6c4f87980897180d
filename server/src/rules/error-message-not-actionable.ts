import type { ToolDefinition } from '../analysis/model';
import type { Rule, RuleFinding } from './types';
import { finding } from './util/finding';
import { spanText } from './util/source';
import { BUILTIN_EXCEPTIONS, isVagueErrorMessage } from './util/tool-errors';
import { FRAMEWORKS } from '../../../common/frameworks';

const advice = 'Say what was wrong and how to fix the call, e.g. "Order ORD-99 not found. Order ids look like ORD-1234; search with find_orders first."';

export const errorMessageNotActionable: Rule = {
  id: 'error-message-not-actionable',
  defaultSeverity: 'info',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'An error message gives the model no way forward ("Invalid", "Error", "500").',
  checkTool(tool: ToolDefinition, ctx) {
    const h = tool.handler;
    if (!h) return [];
    const out: RuleFinding[] = [];
    for (const r of h.returns) {
      if (r.isError !== true && !r.looksLikeError) continue;
      // `{"title": title, "summary": None, "error": summary}` (wikipedia-mcp get_summary): the message is the
      // variable `summary`, not one of the dict's keys; with no quote in it, no literal message was written.
      if (r.errorMessageSpan && !/["'`]/.test(spanText(ctx, r.errorMessageSpan) ?? '"')) continue;
      const vague = r.texts.find((t) => isVagueErrorMessage(t));
      if (vague === undefined || r.texts.some((t) => !isVagueErrorMessage(t))) continue;
      out.push(
        finding(tool, r.errorMessageSpan ?? r.span, `The error message "${vague.trim()}" gives the model no way forward: it cannot tell what to change, so it gives up or retries blindly. ${advice}`),
      );
    }
    const profile = FRAMEWORKS[tool.framework];
    for (const x of h.raises) {
      const name = x.exception.split('.').pop() ?? x.exception;
      // mcp 2.x shows the model only "Error executing tool <name>" for anything that is not a ToolError.
      if (profile.hidesExceptionText && BUILTIN_EXCEPTIONS.test(name) && x.message !== undefined) {
        out.push(
          finding(
            tool,
            x.span,
            `${profile.name} hides the text of a ${name}: the model only reads "Error executing tool ${tool.name.value ?? '<name>'}", so your message never reaches it. ` +
              `Raise \`ToolError(...)\` (from ${profile.errorModule}) for failures the model can correct. ${advice}`,
          ),
        );
        continue;
      }
      // `raise handle_iam_error(e)`: the "message" is the source of an argument, a variable, not text; with no
      // quote in the raise, no literal message was written.
      const code = x.message !== undefined && !/["'`]/.test(spanText(ctx, x.span) ?? '"');
      if (x.message !== undefined && !code && isVagueErrorMessage(x.message)) {
        out.push(finding(tool, x.span, `The error message "${x.message.trim()}" gives the model no way forward: it cannot tell what to change, so it gives up or retries blindly. ${advice}`));
      }
    }
    return out;
  },
};

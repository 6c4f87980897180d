import type { ToolDefinition } from '../analysis/model';
import type { Rule } from './types';
import { finding } from './util/finding';
import { BUILTIN_EXCEPTIONS } from './util/tool-errors';
import { FRAMEWORKS } from '../../../common/frameworks';

const WHAT: Record<string, string> = {
  stack: 'a stack trace',
  'stringified-error': 'the raw exception text',
  traceback: 'a Python traceback',
};

export const errorLeaksInternals: Rule = {
  id: 'error-leaks-internals',
  defaultSeverity: 'warning',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'Stack traces or raw exception text (String(err), JSON.stringify(err), traceback) are sent to the model.',
  checkTool(tool: ToolDefinition) {
    const h = tool.handler;
    if (!h) return [];
    const leaks = h.returns.flatMap((r) => r.leaks);
    for (const x of h.raises) {
      const name = x.exception.split('.').pop() ?? x.exception;
      // mcp 2.x replaces the text of anything but ToolError with a generic message: nothing leaks there.
      if (FRAMEWORKS[tool.framework].hidesExceptionText && BUILTIN_EXCEPTIONS.test(name)) continue;
      leaks.push(...(x.leaks ?? []));
    }
    return leaks.map((l) =>
      finding(
        tool,
        l.span,
        `This sends ${WHAT[l.kind] ?? 'error internals'} to the model: file paths, SQL, hostnames or secrets end up in the ` +
          'conversation (and in whatever the model repeats), and none of it tells the model how to recover. ' +
          'Log the details on the server and return a short message that says what to do next.',
      ),
    );
  },
};

import type { ErrorLeak, ToolDefinition } from '../analysis/model';
import type { Rule } from './types';
import { finding } from './util/finding';
import { paramDescription } from './util/json-schema';
import { nameTokens, snakeCase } from './util/names';
import { BUILTIN_EXCEPTIONS } from './util/tool-errors';
import { FRAMEWORKS } from '../../../common/frameworks';

const WHAT: Record<string, string> = {
  stack: 'a stack trace',
  'stringified-error': 'the raw exception text',
  traceback: 'a Python traceback',
};

const PROGRAM_PARAM = /^(sql|raw_sql|sql_query|query_sql|cypher|cypher_query|script|code|source_code|statement|expression|query)$/;
const RUN = new Set(['execute', 'exec', 'run', 'eval', 'evaluate']);
const QUERY_LANGUAGE = /\b(sql|cypher|graphql|sparql|gremlin|query language|statement)\b/i;

/**
 * The tool runs a program the model wrote (SQL, Cypher, code): the error of that program — a syntax error, an unknown
 * column — is the feedback the model needs to fix it. `query` counts only when its description or the tool's names
 * a query language ("The Cypher query to execute", "Execute a SQL query") or the tool is named for running it
 * (`execute_query`): a search query is not a program.
 */
function runsModelProgram(tool: ToolDefinition): boolean {
  const runs = nameTokens(tool.name.value ?? '').some((w) => RUN.has(w));
  return tool.parameters.some((p) => {
    const name = snakeCase(p.name);
    if (!PROGRAM_PARAM.test(name)) return false;
    if (name !== 'query') return true;
    return runs || QUERY_LANGUAGE.test(paramDescription(p) ?? '') || QUERY_LANGUAGE.test(tool.description?.value ?? '');
  });
}

/** A catch-all whose message says the error was not expected: not the program's error, whatever failed. */
function unexpected(l: ErrorLeak): boolean {
  return !!l.catchAll && /\b(unexpected|unhandled|internal)\b/i.test(l.text ?? '');
}

export const errorLeaksInternals: Rule = {
  id: 'error-leaks-internals',
  defaultSeverity: 'warning',
  preset: 'strict',
  languages: ['typescript', 'python'],
  summary: 'Stack traces or raw exception text (String(err), JSON.stringify(err), traceback) are sent to the model.',
  checkTool(tool: ToolDefinition) {
    const h = tool.handler;
    if (!h) return [];
    const leaks: ErrorLeak[] = h.returns.flatMap((r) => r.leaks);
    for (const x of h.raises) {
      const name = x.exception.split('.').pop() ?? x.exception;
      // mcp 2.x replaces the text of anything but ToolError with a generic message: nothing leaks there.
      if (FRAMEWORKS[tool.framework].hidesExceptionText && BUILTIN_EXCEPTIONS.test(name)) continue;
      leaks.push(...(x.leaks ?? []));
    }
    const program = runsModelProgram(tool);
    return (
      leaks
        // The text of the project's own exceptions is a message its author wrote; the error of the model's own
        // query is what the model needs to correct it — not what a catch-all the author calls unexpected gets
        // (mcp-clickhouse: `except Exception as e: raise RuntimeError(f"Unexpected error during query execution:
        // {str(e)}")`, after the query's own errors were handled): the connection's host and credentials errors.
        // A traceback or a stack is never either.
        .filter((l) => l.kind !== 'stringified-error' || (!l.ownException && (!program || unexpected(l))))
        .map((l) =>
          finding(
            tool,
            l.span,
            `This sends ${WHAT[l.kind] ?? 'error internals'} to the model: file paths, SQL, hostnames or secrets end up in the ` +
              'conversation (and in whatever the model repeats), and none of it tells the model how to recover. ' +
              'Log the details on the server and return a short message that says what to do next.',
          ),
        )
    );
  },
};

import type { ToolDefinition } from '../analysis/model';
import type { Rule } from './types';
import { finding, toolSpan } from './util/finding';
import { nameTokens, snakeCase } from './util/names';

const RUN = new Set(['execute', 'exec', 'run', 'eval', 'evaluate', 'raw', 'invoke']);
const PAYLOAD = new Set([
  'sql',
  'query',
  'queries',
  'command',
  'commands',
  'cmd',
  'shell',
  'bash',
  'sh',
  'code',
  'script',
  'python',
  'js',
  'javascript',
  'statement',
  'expression',
  'powershell',
  'terminal',
]);
const ALONE = new Set(['sql', 'shell', 'bash', 'eval', 'exec', 'execute', 'terminal', 'python', 'run_code', 'repl']);
const RAW_PARAM = /^(sql|raw_sql|sql_query|query_sql|command|cmd|shell_command|command_line|script|code|source_code|python_code|js_code|statement|bash)$/;

/** A tool linked to an MCP App's view: `_meta.ui` (or the legacy `"ui/resourceUri"` key) in its contract. */
function isAppTool(tool: ToolDefinition): boolean {
  const meta = tool.contract._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) && (typeof (meta as Record<string, unknown>).ui === 'object' || 'ui/resourceUri' in meta);
}

export const genericExecuteTool: Rule = {
  id: 'generic-execute-tool',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'A tool that takes raw SQL, shell or code (execute_query, run_sql, exec_command).',
  checkTool(tool: ToolDefinition) {
    const name = tool.name.value ?? '';
    const words = nameTokens(name);
    const byName = (words.length === 1 && ALONE.has(words[0])) || (words.some((w) => RUN.has(w)) && words.some((w) => PAYLOAD.has(w)));
    const rawParam = tool.parameters.find((p) => RAW_PARAM.test(snakeCase(p.name)));
    if (!byName && !rawParam) return [];
    // An MCP App tool (`_meta.ui`) whose handler reads none of its input runs none of it: the code is a payload for
    // the app's view, which the host renders (show_threejs_scene's scene code).
    if (!byName && tool.handler?.ignoresArguments && isAppTool(tool)) return [];
    const what = rawParam
      ? `takes raw ${/sql|statement/.test(snakeCase(rawParam.name)) ? 'SQL' : /code|script|expression/.test(snakeCase(rawParam.name)) ? 'code' : 'commands'} in \`${rawParam.name}\``
      : 'runs whatever it is given';
    return [
      finding(
        tool,
        rawParam && !byName ? rawParam.nameSpan : toolSpan(tool),
        `${name || 'This tool'} ${what}. The model has to write a whole program for each task (and gets it wrong more often), you cannot tell ` +
          'reads from writes or declare honest annotations, and one injected instruction can do anything the server can. ' +
          'Offer narrow tools for the tasks users need (find_orders(customer_id), cancel_order(order_id)); if you must keep it, make it read-only and allow-listed.',
      ),
    ];
  },
};

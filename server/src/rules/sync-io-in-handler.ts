import type { CallFact, ToolDefinition } from '../analysis/model';
import type { Edit, Fix, Rule, RuleContext } from './types';
import { finding } from './util/finding';
import { addPythonImports } from './util/python-imports';
import { insertAt, replace, spanText } from './util/source';
import { FRAMEWORKS } from '../../../common/frameworks';

/** Python calls that block the calling thread on the network, a subprocess or a timer. */
const PY_BLOCKING =
  /^(requests\.\w+|requests\.Session|httpx\.(get|post|put|patch|delete|head|options|request|stream|Client)|urllib\.request\.urlopen|urlopen|urllib3\.\w+|time\.sleep|subprocess\.(run|call|check_call|check_output|getoutput|getstatusoutput)|os\.system|socket\.create_connection|smtplib\.SMTP(_SSL)?|psycopg2?\.connect|pymysql\.connect|sqlite3\.connect)$/;

const isBlocking = (tool: ToolDefinition, c: CallFact): boolean => !c.awaited && (tool.language === 'python' ? PY_BLOCKING.test(c.callee) : /Sync$/.test(c.callee.split('.').pop() ?? ''));

/** `time.sleep(x)` -> `await asyncio.sleep(x)`; anything else runs in a thread: `await asyncio.to_thread(lambda: call)`. */
function asyncCall(callText: string): string {
  if (/^time\.sleep\(/.test(callText)) return `await asyncio.sleep(${callText.slice('time.sleep('.length)}`;
  return `await asyncio.to_thread(lambda: ${callText})`;
}

function pythonFix(tool: ToolDefinition, blocking: CallFact[], ctx: RuleContext, makeAsync: boolean): Fix | undefined {
  const h = tool.handler!;
  const sorted = [...blocking].sort((a, b) => a.span.start - b.span.start);
  for (let i = 1; i < sorted.length; i++) if (sorted[i].span.start < sorted[i - 1].span.end) return undefined; // nested calls
  const text = ctx.textOf(h.span.file);
  if (text === undefined) return undefined;
  const edits: Edit[] = [];
  if (makeAsync) {
    const fnText = spanText(ctx, h.span);
    const m = fnText === undefined ? null : /(^|\n)([ \t]*)def\s/.exec(fnText);
    if (!m) return undefined;
    edits.push(insertAt(h.span.file, h.span.start + m.index + m[1].length + m[2].length, 'async '));
  }
  for (const c of sorted) {
    const callText = spanText(ctx, c.span);
    if (callText === undefined) return undefined;
    edits.push(replace(c.span, asyncCall(callText)));
  }
  edits.push(...addPythonImports(h.span.file, text, [['asyncio']]));
  return {
    title: makeAsync ? 'Make it async def (blocking calls move off the event loop)' : 'Run the blocking calls off the event loop (asyncio)',
    edits,
    safe: false,
  };
}

export const syncIoInHandler: Rule = {
  id: 'sync-io-in-handler',
  defaultSeverity: 'warning',
  languages: ['typescript', 'python'],
  summary: 'Blocking network / process / sleep calls in a handler that block every other caller.',
  checkTool(tool: ToolDefinition, ctx: RuleContext) {
    const h = tool.handler;
    if (!h) return [];
    const blocking = h.calls.filter((c) => isBlocking(tool, c));
    if (blocking.length === 0) return [];
    if (tool.language === 'typescript') {
      return blocking.map((c) =>
        finding(
          tool,
          c.span,
          `${c.callee} blocks Node's only thread: while it runs, the server answers no other request, not even a cancellation. ` +
            `Use the promise API instead (\`await fs.promises.readFile(...)\`, \`await execFile(...)\` from node:child_process/promises).`,
        ),
      );
    }
    if (!h.isAsync && !FRAMEWORKS[tool.framework].syncToolsBlockEventLoop) {
      // mcp 2.x and FastMCP run a sync tool in a worker thread: it does not block other callers.
      return [];
    }
    const fix = pythonFix(tool, blocking, ctx, !h.isAsync);
    const why = h.isAsync
      ? 'runs on the event loop inside an async def: while it waits, the server answers no other request'
      : 'runs on the event loop: mcp 1.x (mcp.server.fastmcp) calls a sync tool directly, so while it waits the server answers no other request';
    const instead = h.isAsync
      ? 'Use an async client (`httpx.AsyncClient`, `await asyncio.sleep`) or `await asyncio.to_thread(...)`.'
      : 'Make the tool `async def` with an async client (`httpx.AsyncClient`, `await asyncio.sleep`), or `await asyncio.to_thread(...)`.';
    // One fix rewrites every blocking call of the handler; offer it on each finding.
    return blocking.map((c) => finding(tool, c.span, `${c.callee} ${why}: every other caller waits. ${instead}`, fix ? [fix] : []));
  },
};

/**
 * Language-server latency while typing: didChange -> publishDiagnostics through the real bundled server over stdio,
 * in a generated 2,000-line TypeScript file that registers 80 tools. Target: p95 <= 30 ms.
 *
 * The debounce is set to 0 (initializationOptions.diagnosticsDelayMs) so the figure is the server's own work:
 * in the editor the default 150 ms debounce comes on top, by design, while keys keep coming.
 *
 *   node --import tsx bench/lsp-latency.ts [--keys 300] [--interval 60] [--python]
 * --python types into a docstring of a generated Python server of the same size instead.
 */
import * as path from 'node:path';
import ts from 'typescript';
import { parser as pythonParser } from '@lezer/python';
import { generatePythonServer } from './py-analysis';
import { LspClient, fileUri } from '../test/protocol/harness';

export interface LspLatencyResult {
  lines: number;
  tools: number;
  keystrokes: number;
  /** Versions that got their own diagnostics (the others were superseded by a newer keystroke, as designed). */
  published: number;
  superseded: number;
  intervalMs: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Open -> first diagnostics (cold analysis of the whole file). */
  openMs: number;
  /** Diagnostics in the file at the end (the file is deliberately not clean). */
  diagnostics: number;
  language: 'typescript' | 'python';
  /** Median of a plain parse (`ts.createSourceFile`, or @lezer/python for Python) of the same file, measured in this process during the run (machines here are noisy: compare ratios). */
  parseMedianMs: number;
  /** p50 latency / plain parse median. */
  p50OverParse: number;
}

const VERBS = ['search', 'get', 'list', 'create', 'update', 'delete', 'send', 'close', 'archive', 'export'];
const OBJECTS = ['tickets', 'invoice', 'customer', 'report', 'note', 'order', 'document', 'profile', 'payment', 'event'];

/** One tool in 25 lines; every fourth has flaws so rules have findings (and fixes) to compute. */
function tool(i: number): string {
  const name = `${VERBS[i % VERBS.length]}_${OBJECTS[Math.floor(i / VERBS.length) % OBJECTS.length]}_${i}`;
  const flawed = i % 4 === 0;
  return `
server.registerTool(
  '${name}',
  {
    title: 'Tool ${i}',
    description: ${flawed ? "'Does things.'" : `'Find ${OBJECTS[i % OBJECTS.length]} records that match a query. Use when the user asks about existing records. Returns matching ids.'`},
    inputSchema: {
      query: z.string()${flawed ? '' : ".max(200).describe('Free-text terms to match')"},
      limit: z.number()${flawed ? '' : ".int().min(1).max(50).describe('Maximum number of results')"},
      status: z.enum(['open', 'closed', 'pending']).optional().describe('Only records in this state'),
    },
    annotations: { readOnlyHint: ${i % 3 === 0 ? 'false' : 'true'}, openWorldHint: false },
  },
  async ({ query, limit, status }) => {
    const rows = await db.find({ query, limit, status });
    if (rows.length === 0) {
      return { content: [{ type: 'text', text: 'No ${name} results for this query. Try broader terms.' }] };
    }
    return {
      content: [{ type: 'text', text: JSON.stringify(rows) }],
    };
  },
);
`;
}

export function generateServer(tools = 80, targetLines = 2000): string {
  const head = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

declare const db: { find(q: unknown): Promise<unknown[]> };

const server = new McpServer({ name: 'bench', version: '1.0.0' });
`;
  let text = head + Array.from({ length: tools }, (_, i) => tool(i)).join('');
  const lines = text.split('\n').length;
  // Pad with ordinary helper code (not tools) to reach the line count.
  const pad: string[] = [];
  for (let i = 0; lines + pad.length < targetLines; i++) pad.push(`export const helper${i} = (x: number): number => x * ${i} + 1;`);
  text += pad.join('\n') + '\n';
  return text;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function measureLspLatency(opts: { keystrokes?: number; intervalMs?: number; tools?: number; lines?: number; language?: 'typescript' | 'python' } = {}): Promise<LspLatencyResult> {
  const keystrokes = opts.keystrokes ?? 300;
  const intervalMs = opts.intervalMs ?? 60;
  const python = opts.language === 'python';
  const text = python ? generatePythonServer(opts.tools ?? 80, opts.lines ?? 2000) : generateServer(opts.tools ?? 80, opts.lines ?? 2000);
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const uri = fileUri(path.join(process.cwd(), 'bench-generated', python ? 'server.py' : 'server.ts'));
    const opened = performance.now();
    await client.open(uri, text, python ? 'python' : 'typescript');
    await client.diagnosticsFor(uri, 1, 60_000);
    const openMs = performance.now() - opened;
    // Type into the description of a tool in the middle of the file (Python: its docstring), one character per keystroke.
    const doc = client.documents.get(uri)!;
    const anchor = python
      ? text.indexOf('"""Search things', text.indexOf(`def tool_${Math.floor((opts.tools ?? 80) / 2)}(`)) + '"""Search'.length
      : text.indexOf("description: 'Find", text.indexOf("'search_note_40'")) + "description: 'Find".length;
    let position = doc.positionAt(anchor);
    const sentAt = new Map<number, number>();
    const parses: number[] = [];
    const typed = ' quickly and precisely';
    for (let k = 0; k < keystrokes; k++) {
      const ch = typed[k % typed.length];
      // The baseline, interleaved with the keystrokes so both see the same machine load. Parsed before the keystroke
      // is sent, not after: this process timestamps the server's answers, and a parse while one is on its way (~30 ms
      // every fifth keystroke) made that keystroke's latency the parse's, a fifth of the samples, so the p95.
      if (k % 5 === 0) {
        const t0 = performance.now();
        if (python) pythonParser.parse(client.text(uri));
        else ts.createSourceFile('baseline.ts', client.text(uri), ts.ScriptTarget.Latest, true);
        parses.push(performance.now() - t0);
      }
      const version = await client.change(uri, [{ range: { start: position, end: position }, text: ch }]);
      sentAt.set(version, performance.now());
      position = { line: position.line, character: position.character + 1 };
      await new Promise((r) => setTimeout(r, intervalMs));
    }
    const last = client.documents.get(uri)!.version;
    const final = await client.diagnosticsFor(uri, last, 60_000);
    const latencies: number[] = [];
    for (const e of client.diagnosticsEvents(uri)) {
      const v = e.params.version;
      if (v === undefined || !sentAt.has(v)) continue;
      latencies.push(e.at - sentAt.get(v)!);
    }
    latencies.sort((a, b) => a - b);
    return {
      language: python ? 'python' : 'typescript',
      lines: text.split('\n').length - 1,
      tools: opts.tools ?? 80,
      keystrokes,
      published: latencies.length,
      superseded: keystrokes - latencies.length,
      intervalMs,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      maxMs: latencies.at(-1) ?? NaN,
      openMs,
      diagnostics: final.diagnostics.length,
      parseMedianMs: percentile(
        [...parses].sort((a, b) => a - b),
        50,
      ),
      p50OverParse:
        percentile(latencies, 50) /
        percentile(
          [...parses].sort((a, b) => a - b),
          50,
        ),
    };
  } finally {
    await client.stop();
  }
}

if (require.main === module) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const language = process.argv.includes('--python') ? 'python' : 'typescript';
  void measureLspLatency({ keystrokes: arg('--keys'), intervalMs: arg('--interval'), language }).then((r) => {
    const f = (n: number) => n.toFixed(1);
    console.log(`lsp latency (${r.language}): ${r.lines}-line file, ${r.tools} tools, ${r.keystrokes} keystrokes every ${r.intervalMs} ms`);
    console.log(`  didChange -> publishDiagnostics: p50 ${f(r.p50Ms)} ms, p95 ${f(r.p95Ms)} ms, max ${f(r.maxMs)} ms (${r.published} published, ${r.superseded} superseded)`);
    console.log(`  open -> first diagnostics: ${f(r.openMs)} ms; ${r.diagnostics} diagnostics in the file`);
    console.log(`  plain parse of the same file (same run): median ${f(r.parseMedianMs)} ms; p50 latency / parse = ${r.p50OverParse.toFixed(2)}`);
    console.log(`  target p95 <= 30 ms: ${r.p95Ms <= 30 ? 'met' : 'NOT met'}`);
    process.exitCode = 0;
  });
}

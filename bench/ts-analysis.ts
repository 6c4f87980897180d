/**
 * Benchmark (not a timed test): TypeScript front-end on a generated 5,000-line server with 200 tools, against the
 * TypeScript compiler's own createSourceFile on the same text. Medians of one process; the ratio is the figure.
 *   node --import tsx bench/ts-analysis.ts [--json]
 */
import * as path from 'node:path';
import * as ts from 'typescript';
import { analyzeTypeScript, clearSchemaCache } from '../server/src/analysis/typescript';
import type { FileHost } from '../server/src/analysis/model';
import { z } from 'zod';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';

/** `sdk`: the SDK the server is written for, 1.x (`@modelcontextprotocol/sdk`) or v2 (`@modelcontextprotocol/server`). */
export function generateServer(tools = 200, targetLines = 5000, sdk: 'v1' | 'v2' = 'v1'): string {
  const head = [
    ...(sdk === 'v2'
      ? ['import { McpServer } from "@modelcontextprotocol/server";', 'import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";']
      : ['import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";', 'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";']),
    'import { z } from "zod";',
    '',
    'const server = new McpServer({ name: "bench", version: "1.0.0" });',
    'const Limit = z.number().int().min(1).max(100).default(20).describe("Maximum number of results");',
    '',
  ];
  const perTool = Math.floor((targetLines - head.length - 2) / tools);
  const body: string[] = [];
  for (let i = 0; i < tools; i++) {
    const lines = [
      `server.registerTool(`,
      `  "search_items_${i}",`,
      `  {`,
      `    title: "Search items ${i}",`,
      `    description: "Search the items of catalogue ${i} by text. Use when the user asks for products. Returns ids and names.",`,
      `    inputSchema: {`,
      `      query: z.string().min(1).max(${200 + i}).describe("Free text to search for in catalogue ${i}"),`,
      `      limit: Limit,`,
      `      sort: z.enum(["relevance", "price", "date"]).default("relevance").describe("Sort order"),`,
      `      filters: z.object({ minPrice: z.number().nonnegative().optional(), tags: z.array(z.string()).max(${10 + i}).optional() }).optional(),`,
      `    },`,
      `    outputSchema: { items: z.array(z.object({ id: z.string(), name: z.string() })) },`,
      `    annotations: { readOnlyHint: true, openWorldHint: false },`,
      `  },`,
      `  async ({ query, limit }) => {`,
      `    const rows = await fetch("https://example.com/search?q=" + encodeURIComponent(query) + "&limit=" + limit);`,
      `    if (!rows.ok) {`,
      `      return { content: [{ type: "text", text: "Search failed: try a shorter query." }], isError: true };`,
      `    }`,
      `    const items = (await rows.json()) as { id: string; name: string }[];`,
      `    return { content: [{ type: "text", text: JSON.stringify(items) }], structuredContent: { items } };`,
      `  },`,
      `);`,
    ];
    while (lines.length < perTool) lines.splice(lines.length - 3, 0, `    // padding line ${lines.length} of tool ${i}`);
    body.push(...lines);
  }
  return [...head, ...body, '', 'server.connect(new StdioServerTransport());', ''].join('\n');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * cold: every analysis starts with an empty schema cache (first open of a file);
 * warm: the file was analysed before and one line changed (what the language server does on each keystroke).
 */
export function runBench(runs = 15, mode: 'cold' | 'warm' = 'cold'): { mode: string; lines: number; tools: number; parseMs: number; analysisMs: number; ratio: number } {
  const base = generateServer();
  const file = path.resolve(__dirname, '../test/fixtures/ts/__bench__.ts');
  const host: FileHost = { readFile: () => undefined, fileExists: () => false };
  const parse: number[] = [];
  const analysis: number[] = [];
  let tools = 0;
  for (let i = 0; i < runs + 3; i++) {
    // A different text each run: neither side may hit a cache.
    const text = base + `// run ${i}\n`;
    const t0 = performance.now();
    ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    if (mode === 'cold') clearSchemaCache();
    const t1 = performance.now();
    const r = analyzeTypeScript(file, text + ' ', host);
    const t2 = performance.now();
    tools = r.tools.length;
    if (i >= 3) {
      parse.push(t1 - t0);
      analysis.push(t2 - t1);
    }
  }
  const parseMs = median(parse);
  const analysisMs = median(analysis);
  return { mode, lines: base.split('\n').length, tools, parseMs, analysisMs, ratio: analysisMs / parseMs };
}

/**
 * The floor of a cold analysis of `generateServer()`'s file under issue 3's own terms: its schemas rebuilt as real zod
 * objects and converted by the SDK's converter, with nothing else (no parse, no walk, no rules). The 200 input schemas
 * differ; the output schema is the same text in every tool, so (like the analysis's cache) it is built once.
 */
export function zodFloor(runs = 15): { parseMs: number; buildMs: number; convertMs: number; zodMs: number; ratio: number; convertRatio: number } {
  const text = generateServer();
  const convert = (schema: z.ZodType) => toJsonSchemaCompat(schema, { strictUnions: true, pipeStrategy: 'input' });
  const parse: number[] = [];
  const build: number[] = [];
  const conv: number[] = [];
  for (let r = 0; r < runs + 3; r++) {
    let t0 = performance.now();
    ts.createSourceFile('/bench.ts', text + `// run ${r}\n`, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const p = performance.now() - t0;
    t0 = performance.now();
    const Limit = z.number().int().min(1).max(100).default(20).describe('Maximum number of results');
    const schemas: z.ZodType[] = [];
    for (let i = 0; i < 200; i++) {
      schemas.push(
        z.object({
          query: z
            .string()
            .min(1)
            .max(200 + i)
            .describe(`Free text to search for in catalogue ${i}`),
          limit: Limit,
          sort: z.enum(['relevance', 'price', 'date']).default('relevance').describe('Sort order'),
          filters: z
            .object({
              minPrice: z.number().nonnegative().optional(),
              tags: z
                .array(z.string())
                .max(10 + i)
                .optional(),
            })
            .optional(),
        }),
      );
    }
    schemas.push(z.object({ items: z.array(z.object({ id: z.string(), name: z.string() })) }));
    const b = performance.now() - t0;
    t0 = performance.now();
    for (const s of schemas) convert(s);
    const c = performance.now() - t0;
    if (r >= 3) {
      parse.push(p);
      build.push(b);
      conv.push(c);
    }
  }
  const parseMs = median(parse);
  const buildMs = median(build);
  const convertMs = median(conv);
  return { parseMs, buildMs, convertMs, zodMs: buildMs + convertMs, ratio: (buildMs + convertMs) / parseMs, convertRatio: convertMs / parseMs };
}

if (require.main === module && !process.env.TOOLSMITH_BENCH_IMPORTED) {
  for (const mode of ['cold', 'warm'] as const) {
    const r = runBench(15, mode);
    if (process.argv.includes('--json')) console.log(JSON.stringify(r));
    else
      console.log(
        `ts-analysis (${mode}): ${r.lines} lines, ${r.tools} tools — createSourceFile ${r.parseMs.toFixed(1)} ms, full analysis ${r.analysisMs.toFixed(1)} ms (median), ratio ${r.ratio.toFixed(2)}x`,
      );
  }
  const f = zodFloor();
  console.log(
    `zod floor: createSourceFile ${f.parseMs.toFixed(1)} ms, zod build ${f.buildMs.toFixed(1)} ms + SDK conversion ${f.convertMs.toFixed(1)} ms, ratio ${f.ratio.toFixed(2)}x (conversion alone ${f.convertRatio.toFixed(2)}x)`,
  );
}

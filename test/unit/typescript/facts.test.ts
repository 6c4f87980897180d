/**
 * The optional facts rules B read to place findings and build quick fixes (model.ts "Optional (rules B)"):
 * returned value / object / structuredContent / content / error message spans, the structuredContent shape,
 * annotation value spans, the input shape literal, thrown errors. Then, through the one pipeline
 * (service.analyzeFile), that the quick fixes depending on them are offered and produce valid code.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as ts from 'typescript';
import { analyzeFile } from '../../../server/src/service';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import type { ReturnFact, Span } from '../../../server/src/analysis/model';
import { HEAD, ROOT, analyze, memoryHost } from './helpers';

test('returns: value, object start, structuredContent, content array and error message spans', () => {
  const src =
    HEAD +
    `server.registerTool("get_order", { inputSchema: { id: z.string() } }, async ({ id }) => {
  const summary = { id, total: 42 };
  if (id === "") return { error: "id is empty" };
  if (id === "x") return { content: [{ type: "text", text: "Error: not found" }] };
  if (id === "y") return { isError: true, content: [{ type: "text", text: "Order " + id + " is archived; use get_archive." }] };
  if (id === "z") return { content: [{ type: "text", text: JSON.stringify({ error: "gone" }) }] };
  if (id === "s") return "Error: " + id;
  return { content: [], structuredContent: summary };
});
server.registerTool("short", {}, async () => ({ structuredContent: { ok: true } }));
server.registerTool("shorthand", {}, async () => { const structuredContent = { n: 1 }; return { structuredContent }; });\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const [empty, notFound, archived, stringified, str, ok] = tool('get_order').handler!.returns;
  assert.equal(textOf(empty.valueSpan), '{ error: "id is empty" }');
  assert.equal(src[empty.objectStartOffset! - 1], '{');
  assert.equal(textOf(empty.errorMessageSpan), '"id is empty"');
  assert.equal(textOf(notFound.errorMessageSpan), '"Error: not found"');
  assert.equal(textOf(notFound.contentArraySpan), '[{ type: "text", text: "Error: not found" }]');
  assert.equal(textOf(archived.errorMessageSpan), '"Order " + id + " is archived; use get_archive."', 'isError: true -> its text is the message');
  assert.equal(textOf(stringified.errorMessageSpan), '"gone"');
  assert.equal(str.valueKind, 'string');
  assert.equal(textOf(str.errorMessageSpan), '"Error: " + id');
  assert.equal(textOf(ok.structuredContentSpan), 'summary');
  assert.equal(textOf(ok.contentArraySpan), '[]');
  assert.equal(ok.errorMessageSpan, undefined, 'a success has no error message');
  const short = tool('short').handler!.returns[0];
  assert.equal(textOf(short.valueSpan), '({ structuredContent: { ok: true } })');
  assert.equal(src.slice(short.objectStartOffset! - 1, short.objectStartOffset! + 20), '{ structuredContent: ');
  assert.equal(textOf(short.structuredContentSpan), '{ ok: true }');
  assert.equal(short.contentArraySpan, undefined);
  assert.equal(textOf(tool('shorthand').handler!.returns[0].structuredContentSpan), 'structuredContent');
});

const shapeOf = (r: ReturnFact) => r.structuredShape?.map((p) => `${p.name}:${p.kind}${p.optional ? '?' : ''}`).join(' ');

test('structuredShape: the JSON type of each top-level property, from literals, locals, annotations and the arguments', () => {
  const src =
    HEAD +
    `interface Row { id: string; price: number; tags?: string[] }
interface Page extends Row { next: string | undefined }
type Stats = { count: number; ratio: number | null };
const VERSION = "1.2";
server.registerTool("search", {
  inputSchema: { query: z.string(), limit: z.number().int().default(10), exact: z.boolean().optional(), kinds: z.array(z.string()).optional() },
}, async ({ query, limit, exact, kinds: k }) => {
  const rows = (await fetch("https://x").then((r) => r.json())) as Row[];
  const first: Row = rows[0];
  const stats: Stats = { count: rows.length, ratio: null };
  return {
    content: [],
    structuredContent: {
      query, limit, exact, k,
      version: VERSION,
      total: rows.length,
      label: \`\${query}!\`,
      found: rows.length > 0,
      rows,
      ids: rows.map((r) => r.id),
      first,
      nothing: null,
      when: new Date(),
      raw: await fetch("https://y"),
      maybe: exact ? query : undefined,
      avg: stats.count / 2,
      count: stats.count,
    },
  };
});
server.registerTool("typed", {}, async () => {
  const page = {} as Page;
  return { content: [], structuredContent: page };
});
server.registerTool("args", { inputSchema: { a: z.string(), n: z.number().optional() } }, async (args) => ({ content: [], structuredContent: { a: args.a, n: args.n, ...{ extra: 1 } } }));
server.registerTool("opaque", {}, async () => {
  const data = await fetch("https://z");
  return { content: [], structuredContent: { ...data, more: 1 } };
});
server.registerTool("opaque2", {}, async () => ({ content: [], structuredContent: await (await fetch("https://z")).json() }));\n`;
  const { tool } = analyze({ 'main.ts': src });
  assert.equal(
    shapeOf(tool('search').handler!.returns[0]),
    'query:string limit:integer exact:boolean? k:array? version:string total:number label:string found:boolean rows:array ids:array first:object ' +
      'nothing:null when:unknown raw:unknown maybe:string? avg:number count:number',
  );
  assert.equal(shapeOf(tool('typed').handler!.returns[0]), 'id:string price:number tags:array? next:string?');
  assert.equal(shapeOf(tool('args').handler!.returns[0]), 'a:string n:number? extra:number');
  assert.equal(tool('opaque').handler!.returns[0].structuredShape, undefined, 'a spread of unknown properties: no shape rather than a partial one');
  assert.equal(tool('opaque2').handler!.returns[0].structuredShape, undefined);
});

test('annotation entries carry the span of their value alone', () => {
  const src = HEAD + `server.registerTool("t", { annotations: { readOnlyHint: "true", title: "T" } }, async () => ({ content: [] }));\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const [ro, title] = tool('t').annotations!.entries;
  assert.equal(textOf(ro.valueSpan), '"true"');
  assert.equal(textOf(title.valueSpan), '"T"');
  assert.equal(textOf(ro.span), 'readOnlyHint: "true"');
});

test('inputShapeSpan: the object literal a new input property goes into, across consts, files and zod wrappers', () => {
  const files = {
    'main.ts':
      HEAD +
      `import { SHARED } from "./shapes.js";
const Local = z.object({ b: z.number() }).describe("Local").strict();
server.registerTool("inline", { inputSchema: { a: z.string() } }, async () => ({ content: [] }));
server.registerTool("local", { inputSchema: Local }, async () => ({ content: [] }));
server.registerTool("shared", { inputSchema: SHARED }, async () => ({ content: [] }));
server.registerTool("extended", { inputSchema: Local.extend({ c: z.boolean() }) }, async () => ({ content: [] }));
server.registerTool("union", { inputSchema: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]) }, async () => ({ content: [] }));
server.registerTool("none", {}, async () => ({ content: [] }));\n`,
    'shapes.ts': `import { z } from "zod";\nexport const SHARED = { s: z.string() };\n`,
  };
  const { tool, textOf } = analyze(files);
  assert.equal(textOf(tool('inline').inputShapeSpan), '{ a: z.string() }');
  assert.equal(textOf(tool('local').inputShapeSpan), '{ b: z.number() }');
  const shared = tool('shared').inputShapeSpan!;
  assert.equal(shared.file, path.join(ROOT, 'shapes.ts'));
  assert.equal(textOf(shared), '{ s: z.string() }');
  assert.equal(textOf(tool('extended').inputShapeSpan), '{ c: z.boolean() }');
  assert.equal(tool('union').inputShapeSpan, undefined, 'not an object schema: nowhere to add a property');
  assert.equal(tool('none').inputShapeSpan, undefined);
});

test('thrown errors: the SDK sends error.message to the model, so the message and leaks are facts', () => {
  const src =
    HEAD +
    `import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js";
server.registerTool("t", { inputSchema: { id: z.string() } }, async ({ id }) => {
  if (!id) throw new Error("Invalid");
  if (id === "a") throw new McpError(ErrorCode.InvalidParams, \`Unknown id \${id}: ids look like ORD-1\`);
  try {
    throw new Error("caught right below");
  } catch (err) {
    if (id === "b") throw new Error(\`failed: \${(err as Error).stack}\`);
    throw new Error(\`failed: \${err}\`);
  }
  [1].forEach(() => { throw new Error("inside a callback"); });
});\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const raises = tool('t').handler!.raises;
  assert.deepEqual(
    raises.map((r) => [r.exception, r.message]),
    [
      ['Error', 'Invalid'],
      ['McpError', 'Unknown id \u2026: ids look like ORD-1'],
      ['Error', 'failed: \u2026'],
      ['Error', 'failed: \u2026'],
    ],
  );
  assert.equal(textOf(raises[0].span), 'throw new Error("Invalid");');
  assert.deepEqual(
    raises[2].leaks?.map((l) => [l.kind, textOf(l.span)]),
    [['stack', '(err as Error).stack']],
  );
  assert.deepEqual(
    raises[3].leaks?.map((l) => [l.kind, textOf(l.span)]),
    [['stringified-error', 'err']],
  );
  assert.equal(raises[0].leaks, undefined);
});

// ---- through the pipeline: the quick fixes that need these facts are offered ---------------------------------

function findings(src: string) {
  const file = path.join(ROOT, 'main.ts');
  // Every rule (strict preset): these tests read each rule's findings and fixes, whichever preset it is in.
  const a = analyzeFile(file, src, memoryHost({ 'main.ts': src }), { ...DEFAULT_SETTINGS, preset: 'strict' });
  assert.equal(a.internalError, undefined);
  return a.findings;
}
function applyEdits(src: string, edits: { span: Span; newText: string }[]): string {
  let out = src;
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start)) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}
function parses(src: string): boolean {
  const sf = ts.createSourceFile('x.ts', src, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return ((sf as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics ?? []).length === 0;
}

test('fixes offered: outputSchema from the returned shape, the text copy of structuredContent, a boolean hint', () => {
  const src =
    HEAD +
    `server.registerTool("get_total", { description: "Reads the total of one order. Use when the user asks how much an order costs. Returns the total.", inputSchema: { orderId: z.string().describe("Order id, e.g. ORD-1") }, annotations: { readOnlyHint: "true" } }, async ({ orderId }) => {
  const summary = { orderId, total: 42 };
  return { structuredContent: summary };
});\n`;
  const fs1 = findings(src);
  const out = fs1.find((f) => f.ruleId === 'output-schema-missing');
  const fix = out?.fixes.find((f) => /outputSchema/.test(f.title));
  assert.ok(fix, 'output-schema-missing offers "Add outputSchema from the returned shape"');
  const withSchema = applyEdits(src, fix.edits);
  assert.match(withSchema, /outputSchema: \{ orderId: z\.string\(\), total: z\.number\(\) \}/);
  assert.ok(parses(withSchema));
  assert.ok(!findings(withSchema).some((f) => f.ruleId === 'output-schema-missing'));

  const text = fs1.find((f) => f.ruleId === 'structured-content-without-text');
  const copy = text?.fixes.find((f) => /text copy/.test(f.title));
  assert.ok(copy, 'structured-content-without-text offers "Add a text copy"');
  const withCopy = applyEdits(src, copy.edits);
  assert.match(withCopy, /return \{ content: \[\{ type: "text", text: JSON\.stringify\(summary\) \}\], structuredContent: summary \}/);
  assert.ok(parses(withCopy));
  assert.ok(!findings(withCopy).some((f) => f.ruleId === 'structured-content-without-text'));

  const hint = fs1.find((f) => f.ruleId === 'annotation-incoherent');
  const flip = hint?.fixes.find((f) => /boolean true/.test(f.title));
  assert.ok(flip, 'a "true" string hint is rewritten in place as the boolean');
  assert.match(applyEdits(src, flip.edits), /annotations: \{ readOnlyHint: true \}/);
});

test('template literals and concatenations in returned texts keep their static parts, "…" for each run-time part', () => {
  const src =
    HEAD +
    `server.registerTool("get_ticket", { description: "Reads one support ticket by id. Use when the user gives a ticket id. Returns its status.", inputSchema: { id: z.string().describe("Ticket id, e.g. T-12") } }, async ({ id }) => {
  if (id.length > 9) return { isError: true, content: [{ type: "text", text: \`Ticket \${id} not found: check the id with search_tickets\` }] };
  if (id === "0") return { isError: true, content: [{ type: "text", text: "Ticket " + id + " is closed; reopen it with reopen_ticket first." }] };
  if (id === "1") return { isError: true, content: [{ type: "text", text: \`Failed: \${id}\` }] };
  return { content: [{ type: "text", text: \`Ticket \${id}: \${"open"}\` }] };
});\n`;
  const { tool } = analyze({ 'main.ts': src });
  const texts = tool('get_ticket').handler!.returns.map((r) => r.texts);
  assert.deepEqual(texts, [
    ['Ticket \u2026 not found: check the id with search_tickets'],
    ['Ticket \u2026 is closed; reopen it with reopen_ticket first.'],
    ['Failed: \u2026'],
    ['Ticket \u2026: open'],
  ]);
  const vague = findings(src).filter((f) => f.ruleId === 'error-message-not-actionable');
  assert.deepEqual(
    vague.map((f) => src.slice(f.span.start, f.span.end)),
    ['`Failed: ${id}`'],
    'only the message with no way forward is reported, on the message itself',
  );
});

test('ignoresArguments: a handler with no parameter never reads the input; generic-execute-tool then spares an app tool', () => {
  const src =
    HEAD +
    `server.registerTool("show_scene", { description: "Render a scene the view runs.", inputSchema: { code: z.string() }, _meta: { ui: { resourceUri: "ui://scene" } } }, async () => ({ content: [] }));
server.registerTool("stub_sql", { description: "Not an app tool: still reported.", inputSchema: { sql: z.string() } }, async () => ({ content: [] }));
server.registerTool("run_snippet", { description: "Run a snippet.", inputSchema: { code: z.string() } }, async ({ code }) => ({ content: [{ type: "text", text: eval(code) }] }));\n`;
  const { tool } = analyze({ 'main.ts': src });
  assert.equal(tool('show_scene').handler?.ignoresArguments, true);
  assert.equal(tool('run_snippet').handler?.ignoresArguments, undefined);
  const file = path.join(ROOT, 'main.ts');
  const findings = analyzeFile(file, src, memoryHost({ 'main.ts': src }), DEFAULT_SETTINGS).findings.filter((f) => f.ruleId === 'generic-execute-tool');
  assert.deepEqual(
    findings.map((f) => f.tool),
    ['stub_sql', 'run_snippet'],
  );
});

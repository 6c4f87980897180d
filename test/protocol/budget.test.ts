/**
 * One huge open document must not block the others: a 4 MB single-line document (minified or generated code) took
 * the server ~30 s during which every request for every document waited. The server analyses an open document only
 * up to the size the file host reads (1 MiB); a larger one gets one diagnostic saying why, and a line in the log.
 * Under that cap, a pathological file is analysed off the main thread (server/src/lsp/analysisPool.ts) within a time
 * budget: the other documents keep being answered, and the stopped one gets one diagnostic naming the setting.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { LspClient, fileUri, tempDir } from './harness';

const SMALL = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "small", version: "1.0.0" });

server.registerTool("get_ticket", {
  description: "Read one ticket by its id. Use when the user names a ticket. Returns its status and title.",
  inputSchema: { ticket_id: z.string().max(64).describe("Ticket identifier") },
  annotations: { readOnlyHint: true, openWorldHint: false },
}, async ({ ticket_id }) => ({ content: [{ type: "text", text: ticket_id }] }));
`;

/** ~4 MB on one line: many registrations, as a bundler would emit them. */
function hugeOneLine(): string {
  const one = `server.registerTool("t_N", { description: "Read one item by its id. Use when the user names an item.", inputSchema: { id: z.string().describe("Item id") } }, async ({ id }) => ({ content: [{ type: "text", text: id }] }));`;
  const parts = ['import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"; import { z } from "zod"; const server = new McpServer({ name: "huge", version: "1.0.0" });'];
  let length = parts[0].length;
  for (let i = 0; length < 4_000_000; i++) {
    parts.push(one.replace('t_N', `t_${i}`));
    length += parts[parts.length - 1].length + 1;
  }
  return parts.join(' ');
}

/** A diagnostic's message as text (LSP 3.18 allows markup). */
const messageText = (m: string | { value: string }): string => (typeof m === 'string' ? m : m.value);

test('a 4 MB single-line document does not block another document: its hover and diagnostics answer in bounded time', { timeout: 120_000 }, async () => {
  const dir = tempDir();
  const client = await LspClient.start({ initializationOptions: { workspaceScan: false, diagnosticsDelayMs: 0 } });
  try {
    const hugeUri = fileUri(`${dir}/bundle.ts`);
    const smallUri = fileUri(`${dir}/small.ts`);
    const huge = hugeOneLine();
    assert.ok(huge.length >= 4_000_000 && !huge.includes('\n'));
    await client.open(hugeUri, huge);
    const started = performance.now();
    const smallDoc = await client.open(smallUri, SMALL);
    const hover = await client.hover(smallUri, smallDoc.positionAt(SMALL.indexOf('get_ticket') + 2));
    const smallDiagnostics = await client.diagnosticsFor(smallUri, 1, 20_000);
    const elapsed = performance.now() - started;
    assert.ok(hover !== null, 'the small document answers its hover');
    assert.ok(smallDiagnostics.version === 1);
    assert.ok(elapsed < 5_000, `the small document waited ${Math.round(elapsed)} ms behind the huge one`);
    // The huge one says why it has no findings.
    const hugeDiagnostics = await client.diagnosticsFor(hugeUri, 1, 20_000);
    assert.equal(hugeDiagnostics.diagnostics.length, 1);
    assert.match(messageText(hugeDiagnostics.diagnostics[0].message), /not analysed: .*MiB.*limit/i);
    assert.ok(
      client.logs().some((l) => /bundle\.ts.*not analysed/.test(l)),
      `a log line names the file:\n${client.logs().join('\n')}`,
    );
    // Typing in it stays cheap, and a smaller version is analysed again.
    const cut = huge.slice(0, huge.indexOf('server.registerTool("t_3"'));
    const v = await client.change(hugeUri, cut);
    const after = await client.diagnosticsFor(hugeUri, v, 20_000);
    assert.ok(!after.diagnostics.some((d) => /not analysed/.test(messageText(d.message))));
    assert.ok((await client.tools(hugeUri)).tools.length === 3);
  } finally {
    await client.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A pathological file under the size cap: 11,000 short registrations (~960 KB), 3-4 s of analysis on a quiet machine
 * (the front-end and the rules per tool), far over the 1 s budget the test sets on any machine.
 */
function manyTools(count: number): string {
  const lines = ['import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";', 'import { z } from "zod";', 'const server = new McpServer({ name: "many", version: "1.0.0" });'];
  for (let i = 0; i < count; i++) lines.push(`server.tool("t${i}",{id:z.string()},async({id})=>({content:[{type:"text",text:id}]}));`);
  return lines.join('\n') + '\n';
}

test('time budget: a long analysis runs off the main thread; another document answers within ~1 s, the long one is stopped with one diagnostic', { timeout: 120_000 }, async () => {
  const dir = tempDir();
  const settings = { analysis: { timeBudgetSeconds: 1 } };
  const client = await LspClient.start({ configuration: settings, initializationOptions: { workspaceScan: false, diagnosticsDelayMs: 0, settings } });
  try {
    const heavyUri = fileUri(`${dir}/generated.ts`);
    const smallUri = fileUri(`${dir}/small.ts`);
    const heavy = manyTools(11_000);
    assert.ok(heavy.length < 1_000_000, 'under the size cap: analysed, not skipped');
    // Warm, as in an editor that has been open a few seconds: both analysis workers have loaded the front-ends.
    await client.open(smallUri, SMALL);
    await client.diagnosticsFor(smallUri, 1, 30_000);
    await client.waitFor(() => client.logs().filter((l) => /analysis worker ready/.test(l)).length >= 2, 'two warm analysis workers', 30_000);
    await client.open(heavyUri, heavy);
    await new Promise((r) => setTimeout(r, 200)); // the heavy analysis is under way
    const started = performance.now();
    const v = await client.change(smallUri, SMALL.replace('Read one ticket', 'Read a single ticket'));
    const smallDiagnostics = await client.diagnosticsFor(smallUri, v, 20_000);
    const diagnosticsMs = performance.now() - started;
    const hoverStarted = performance.now();
    const hover = await client.hover(smallUri, client.documents.get(smallUri)!.positionAt(SMALL.indexOf('get_ticket') + 2));
    const hoverMs = performance.now() - hoverStarted;
    assert.ok(hover !== null, `the small document answers its hover\n${client.logs().join('\n')}`);
    assert.equal(smallDiagnostics.version, v);
    console.log(`while the heavy document is analysed: small document's diagnostics after ${Math.round(diagnosticsMs)} ms, hover ${Math.round(hoverMs)} ms`);
    assert.ok(diagnosticsMs < 1_500, `the small document's diagnostics waited ${Math.round(diagnosticsMs)} ms behind the heavy one\n${client.logs().join('\n')}`);
    assert.ok(hoverMs < 1_000, `the hover waited ${Math.round(hoverMs)} ms`);
    // The heavy one: stopped at the budget, one diagnostic naming the setting.
    const heavyDiagnostics = await client.diagnosticsFor(heavyUri, 1, 20_000);
    assert.equal(heavyDiagnostics.diagnostics.length, 1, JSON.stringify(heavyDiagnostics.diagnostics.slice(0, 3)));
    assert.match(messageText(heavyDiagnostics.diagnostics[0].message), /analysis stopped after 1(\.\d)? s: .*toolsmith\.analysis\.timeBudgetSeconds/);
    assert.ok(
      client.logs().some((l) => /generated\.ts.*stopped after/.test(l)),
      `a log line names the file:\n${client.logs().join('\n')}`,
    );
    // The server kept serving: the small document still answers; a smaller version of the heavy one is analysed.
    assert.ok((await client.tools(smallUri)).tools.length === 1);
    const cut = heavy.slice(0, heavy.indexOf('server.tool("t3",'));
    const v2 = await client.change(heavyUri, cut);
    const after = await client.diagnosticsFor(heavyUri, v2, 20_000);
    assert.ok(!after.diagnostics.some((d) => /analysis stopped/.test(messageText(d.message))));
    assert.equal((await client.tools(heavyUri)).tools.length, 3);
  } finally {
    await client.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Language-server memory across 10,000 edits. The server runs under a 200 MB heap cap (as a leak would meet it in a
 * long editing session) and the author types into a tool's inputSchema: each keystroke is a new schema text. The
 * server must be alive and answering at the end, and its heap after a full GC (read through the inspector) must not
 * have grown with the edit count. Before the fix the converted-schema cache was bounded by entry count (5,000) and
 * not by size: ~80 KB per keystroke here, out of memory after ~2,000 edits.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { LspClient, fileUri, tempDir } from './harness';
import * as fs from 'node:fs';
import * as path from 'node:path';

const EDITS = Number(process.env.MEMORY_EDITS ?? 10_000);
/** Heap growth allowed between the warm-up sample and the end (a leak of this workload grows ~80 KB per edit). */
const MAX_GROWTH_MB = 40;

/** A tool whose inputSchema holds one long description (~36 KB): the schema text is what the cache is keyed by. */
function longSchemaServer(): string {
  const long = Array.from({ length: 400 }, (_, i) => `Value ${i} is accepted when the record was created by an administrator of the account.`).join(' ');
  return `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

const server = new McpServer({ name: "records", version: "1.0.0" });

server.registerTool("update_record", {
  description: "Update one record by its id. Use when the user asks to change fields of a record. Returns the record.",
  inputSchema: { record_id: z.string().describe("Record id"), mode: z.string().describe("${long}") },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}, async ({ record_id }) => ({ content: [{ type: "text", text: record_id }] }));
`;
}

/**
 * The server's heaps in MB after a full garbage collection, asked through its inspector (a child node with
 * WebSocket: global from Node 22, behind --experimental-websocket in Node 20): the main thread's, and each analysis
 * worker's (server/src/lsp/analysisPool.ts; reached through the inspector's NodeWorker domain), where the analysis
 * and its caches live.
 */
async function heapsAfterGcMB(inspectorUrl: string): Promise<{ main: number; workers: number[] }> {
  const script = `
const ws = new WebSocket(process.argv[1]);
let id = 0;
const pending = new Map();
const sessions = [];
const call = (method, params = {}) => new Promise((resolve) => { pending.set(++id, resolve); ws.send(JSON.stringify({ id, method, params })); });
const inWorker = (sessionId, method, params = {}) => new Promise((resolve) => {
  pending.set(++id, resolve);
  ws.send(JSON.stringify({ id: ++id, method: 'NodeWorker.sendMessageToWorker', params: { sessionId, message: JSON.stringify({ id: id - 1, method, params }) } }));
});
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.method === 'NodeWorker.attachedToWorker') sessions.push(m.params.sessionId);
  else if (m.method === 'NodeWorker.receivedMessageFromWorker') {
    const r = JSON.parse(m.params.message);
    if (pending.has(r.id)) pending.get(r.id)(r.result);
  } else if (pending.has(m.id)) pending.get(m.id)(m.result);
};
ws.onerror = (e) => { console.error('inspector: ' + (e.message ?? e.type)); process.exit(1); };
ws.onopen = async () => {
  await call('NodeWorker.enable', { waitForDebuggerOnStart: false });
  await new Promise((r) => setTimeout(r, 500));
  await call('HeapProfiler.collectGarbage');
  const r = await call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
  const workers = [];
  for (const s of sessions) {
    await inWorker(s, 'HeapProfiler.collectGarbage');
    const w = await inWorker(s, 'Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
    workers.push(w.result.value);
  }
  await call('NodeWorker.disable');
  console.log(JSON.stringify({ main: r.result.value, workers }));
  ws.close();
};`;
  const flags = Number(process.versions.node.split('.')[0]) < 22 ? ['--experimental-websocket', '--no-warnings'] : [];
  const child = spawn(process.execPath, [...flags, '-e', script, inspectorUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  let heaps: { main: number; workers: number[] } | undefined;
  try {
    heaps = JSON.parse(out.trim()) as { main: number; workers: number[] };
  } catch {
    heaps = undefined;
  }
  const valid = heaps && heaps.main > 0 && heaps.workers.every((w) => Number.isFinite(w) && w > 0);
  if (code !== 0 || !heaps || !valid) throw new Error(`could not read the server's heaps through its inspector (exit ${code}): ${out}${err}`);
  return { main: heaps.main / 1048576, workers: heaps.workers.map((w) => w / 1048576) };
}

const totalMB = (h: { main: number; workers: number[] }) => h.main + h.workers.reduce((a, b) => a + b, 0);
const describe = (h: { main: number; workers: number[] }) => `${totalMB(h).toFixed(1)} MB (main ${h.main.toFixed(1)}, workers ${h.workers.map((w) => w.toFixed(1)).join(' + ')})`;

test(`language server: ${EDITS} edits into a tool's schema under a 200 MB heap cap; alive, answering, heap bounded`, { timeout: 900_000 }, async () => {
  const dir = tempDir();
  const client = await LspClient.start({ nodeArgs: ['--max-old-space-size=200', '--inspect=127.0.0.1:0'], initializationOptions: { workspaceScan: false, diagnosticsDelayMs: 0 } });
  try {
    // A request in flight when the server dies never settles: every wait also ends when it exits.
    const exited = new Promise<never>((_, reject) => client.process.once('exit', (code, signal) => reject(new Error(`the server exited (${code ?? signal})\n${client.stderr.slice(-2000)}`))));
    exited.catch(() => undefined);
    const orExit = <T>(p: Promise<T>): Promise<T> => Promise.race([p, exited]);
    await client.waitFor(() => /ws:\/\/\S+/.test(client.stderr), 'the inspector URL on stderr');
    const inspectorUrl = /ws:\/\/\S+/.exec(client.stderr)![0];
    const file = path.join(dir, 'records.ts');
    const text = longSchemaServer();
    fs.writeFileSync(file, text);
    const uri = fileUri(file);
    const doc = await client.open(uri, text);
    await client.diagnosticsFor(uri, 1, 60_000);
    // Typing at the start of the "Record id" description: each keystroke makes a schema text never seen before.
    const at = doc.positionAt(text.indexOf('Record id'));
    const WARM_UP = Math.min(1000, EDITS / 2);
    let warmHeap = { main: 0, workers: [] as number[] };
    let version = 1;
    const started = Date.now();
    for (let i = 1; i <= EDITS; i++) {
      const position = { line: at.line, character: at.character + ((i - 1) % 200) };
      // 200 characters typed, then the line is put back in one edit: the document stays the same size.
      const change = i % 200 === 0 ? { range: { start: at, end: position }, text: '' } : { range: { start: position, end: position }, text: String.fromCharCode(97 + (i % 26)) };
      version = await client.change(uri, [change]);
      // A hover analyses the version it sees (the editor asks for hovers and lenses while typing): every edit is analysed.
      const hover = client.hover(uri, at);
      if (i % 20 === 0) await orExit(hover).catch((err: Error) => assert.fail(`after ${i} edits: ${err.message}`));
      else hover.catch(() => undefined);
      if (i === WARM_UP) warmHeap = await orExit(heapsAfterGcMB(inspectorUrl));
    }
    const diagnostics = await orExit(client.diagnosticsFor(uri, version, 60_000));
    const endHeap = await heapsAfterGcMB(inspectorUrl);
    console.log(`${EDITS} edits in ${((Date.now() - started) / 1000).toFixed(0)} s; heaps after GC ${describe(warmHeap)} at edit ${WARM_UP}, ${describe(endHeap)} at the end`);
    // The analysis runs in the workers: a heap reading without them would not see a leak there.
    assert.ok(warmHeap.workers.length >= 1 && endHeap.workers.length >= 1, 'the analysis workers were measured');
    assert.ok(client.alive, `the server exited\n${client.stderr.slice(-2000)}`);
    assert.equal(diagnostics.version, version);
    const tools = await orExit(client.tools(uri));
    assert.deepEqual(
      tools.tools.map((t) => t.name),
      ['update_record'],
    );
    const growth = totalMB(endHeap) - totalMB(warmHeap);
    assert.ok(growth < MAX_GROWTH_MB, `heaps grew ${growth.toFixed(1)} MB between edit ${WARM_UP} and edit ${EDITS} (allowed ${MAX_GROWTH_MB})`);
  } finally {
    await client.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

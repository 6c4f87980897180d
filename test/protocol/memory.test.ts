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
 * The server's heap in MB after a full garbage collection, asked through its inspector (a child node with
 * WebSocket: global from Node 22, behind --experimental-websocket in Node 20).
 */
async function heapAfterGcMB(inspectorUrl: string): Promise<number> {
  const script = `
const ws = new WebSocket(process.argv[1]);
let id = 0;
const pending = new Map();
const call = (method, params = {}) => new Promise((resolve) => { pending.set(++id, resolve); ws.send(JSON.stringify({ id, method, params })); });
ws.onmessage = (e) => { const m = JSON.parse(e.data); if (pending.has(m.id)) pending.get(m.id)(m.result); };
ws.onerror = (e) => { console.error('inspector: ' + (e.message ?? e.type)); process.exit(1); };
ws.onopen = async () => {
  await call('HeapProfiler.collectGarbage');
  const r = await call('Runtime.evaluate', { expression: 'process.memoryUsage().heapUsed', returnByValue: true });
  console.log(r.result.value);
  ws.close();
};`;
  const flags = Number(process.versions.node.split('.')[0]) < 22 ? ['--experimental-websocket', '--no-warnings'] : [];
  const child = spawn(process.execPath, [...flags, '-e', script, inspectorUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const bytes = Number(out.trim());
  if (code !== 0 || !Number.isFinite(bytes) || bytes <= 0) throw new Error(`could not read the server's heap through its inspector (exit ${code}): ${out}${err}`);
  return bytes / 1048576;
}

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
    let warmHeap = 0;
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
      if (i === WARM_UP) warmHeap = await orExit(heapAfterGcMB(inspectorUrl));
    }
    const diagnostics = await orExit(client.diagnosticsFor(uri, version, 60_000));
    const endHeap = await heapAfterGcMB(inspectorUrl);
    console.log(`${EDITS} edits in ${((Date.now() - started) / 1000).toFixed(0)} s; heap after GC ${warmHeap.toFixed(1)} MB at edit ${WARM_UP}, ${endHeap.toFixed(1)} MB at the end`);
    assert.ok(client.alive, `the server exited\n${client.stderr.slice(-2000)}`);
    assert.equal(diagnostics.version, version);
    const tools = await orExit(client.tools(uri));
    assert.deepEqual(
      tools.tools.map((t) => t.name),
      ['update_record'],
    );
    assert.ok(endHeap - warmHeap < MAX_GROWTH_MB, `heap grew ${(endHeap - warmHeap).toFixed(1)} MB between edit ${WARM_UP} and edit ${EDITS} (allowed ${MAX_GROWTH_MB})`);
  } finally {
    await client.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

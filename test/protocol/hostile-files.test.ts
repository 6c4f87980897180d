/**
 * Files no editor would open must not hang or crash the language server (issue 17): a FIFO named x.ts (it hung the
 * server for good, through the workspace scan, a watched-file event or toolsmith/tools) and a symlink x.ts ->
 * /dev/zero (read until out of memory). The server reads regular files only (lstat), up to a size cap, and keeps
 * serving the other documents.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { FileChangeType } from 'vscode-languageserver-protocol';
import { LspClient, fileUri, tempDir } from './harness';

const SMALL = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "small", version: "1.0.0" });
server.registerTool("get_ticket", {
  description: "Read one ticket by its id. Use when the user names a ticket. Returns its status and title.",
  inputSchema: { ticket_id: z.string().max(64).describe("Ticket identifier") },
}, async ({ ticket_id }) => ({ content: [{ type: "text", text: ticket_id }] }));
`;

test('a FIFO and a symlink to /dev/zero named .ts: the scan, watched-file events and toolsmith/tools answer at once; the server keeps serving', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const fifo = path.join(dir, 'pipe.ts');
  const zero = path.join(dir, 'zero.ts');
  execFileSync('mkfifo', [fifo]);
  fs.symlinkSync('/dev/zero', zero);
  fs.writeFileSync(path.join(dir, 'server.ts'), SMALL);
  const client = await LspClient.start({ workspaceFolders: [dir], initializationOptions: { diagnosticsDelayMs: 0 } });
  try {
    const scanned = await client.scanned(20_000);
    assert.equal(scanned.toolFiles, 1, 'the regular file is scanned; the FIFO and the device are not read');
    await client.watchedFilesChanged([
      { uri: fileUri(fifo), type: FileChangeType.Created },
      { uri: fileUri(zero), type: FileChangeType.Changed },
    ]);
    const started = performance.now();
    assert.deepEqual((await client.tools(fileUri(fifo))).tools, []);
    assert.deepEqual((await client.tools(fileUri(zero))).tools, []);
    assert.ok(performance.now() - started < 5_000, `toolsmith/tools took ${Math.round(performance.now() - started)} ms`);
    // Still serving: an open document gets its diagnostics and its tools.
    const uri = fileUri(path.join(dir, 'other.ts'));
    await client.open(uri, SMALL.replace('get_ticket', 'get_order'));
    await client.diagnosticsFor(uri, 1, 20_000);
    assert.deepEqual(
      (await client.tools(uri)).tools.map((t) => t.name),
      ['get_order'],
    );
    assert.ok(client.alive);
  } finally {
    await client.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

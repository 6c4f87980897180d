/**
 * Workspace trust in the language server: the workspace's own SDK and zod (here copies that leave a marker file when
 * loaded) are loaded only by the analysis workers, only once the client said the workspace is trusted (initialization
 * options, or the toolsmith/workspaceTrust notification VS Code's onDidGrantWorkspaceTrust sends) — never on the main
 * thread, which analyses the closed files of the workspace scan.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LspClient, fileUri, tempDir } from './harness';
import { WorkspaceTrustNotification } from '../../common/protocol';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function workspace(): { dir: string; file: string; marker: string } {
  const dir = tempDir('toolsmith-trust-');
  dirs.push(dir);
  const marker = path.join(dir, 'workspace-code-ran');
  const trap = `require('fs').appendFileSync(${JSON.stringify(marker)}, __filename + '\\n'); throw new Error('workspace code ran');\n`;
  const sdk = path.join(dir, 'node_modules/@modelcontextprotocol/sdk');
  fs.mkdirSync(path.join(sdk, 'dist/cjs/server'), { recursive: true });
  fs.writeFileSync(path.join(sdk, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '1.32.2', main: 'index.js' }));
  for (const f of ['index.js', 'dist/cjs/server/zod-compat.js', 'dist/cjs/server/zod-json-schema-compat.js']) fs.writeFileSync(path.join(sdk, f), trap);
  fs.mkdirSync(path.join(dir, 'node_modules/zod'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'node_modules/zod/package.json'), JSON.stringify({ name: 'zod', version: '4.0.17', main: 'index.js' }));
  fs.writeFileSync(path.join(dir, 'node_modules/zod/index.js'), trap);
  const file = path.join(dir, 'server.ts');
  fs.writeFileSync(
    file,
    `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\nconst server = new McpServer({ name: "s", version: "1" });\nserver.registerTool("find_notes", { description: "Find notes by text. Use when the user asks about notes.", inputSchema: { q: z.string().describe("Words") } }, async () => ({ content: [] }));\n`,
  );
  return { dir, file, marker };
}

async function eventually(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('untrusted: no workspace code runs, open or scanned; the trust notification switches the workers only', async () => {
  const ws = workspace();
  const client = await LspClient.start({ workspaceFolders: [ws.dir], initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: true } });
  try {
    await client.scanned();
    const uri = fileUri(ws.file);
    await client.openFile(ws.file);
    await client.diagnosticsFor(uri, 1);
    assert.equal(fs.existsSync(ws.marker), false, 'an untrusted language server ran workspace code');
    const tools = await client.tools(uri);
    assert.equal(tools.tools.length, 1, 'the tool is still analysed with the bundled copies');
    await client.connection.sendNotification(WorkspaceTrustNotification, { trusted: true });
    await eventually(() => fs.existsSync(ws.marker), 'the open document analysed again with the workspace copies');
  } finally {
    await client.stop();
  }
});

test('trusted from the start: the scan on the main thread still loads nothing; the open document in a worker does', async () => {
  const ws = workspace();
  const client = await LspClient.start({ workspaceFolders: [ws.dir], initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: true, workspaceTrusted: true } });
  try {
    const scanned = await client.scanned();
    assert.ok(scanned, 'the scan finished');
    assert.equal(fs.existsSync(ws.marker), false, 'the main thread (workspace scan) ran workspace code');
    await client.openFile(ws.file);
    await eventually(() => fs.existsSync(ws.marker), 'the worker loaded the workspace copies');
  } finally {
    await client.stop();
  }
});

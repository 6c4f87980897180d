/**
 * Workspace trust in the language server: the workspace's own SDK and zod (here copies that leave a marker file when
 * loaded) are loaded only by the analysis workers, only once the client said the workspace is trusted (initialization
 * options, or the toolsmith/workspaceTrust notification VS Code's onDidGrantWorkspaceTrust sends) — never on the main
 * thread, which analyses the closed files of the workspace scan.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { LspClient, fileUri, tempDir } from './harness';
import { WorkspaceTrustNotification } from '../../common/protocol';
import { trappedWorkspace } from '../util/trapped-workspace';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function workspace(): { dir: string; file: string; marker: string } {
  const dir = tempDir('toolsmith-trust-');
  dirs.push(dir);
  return trappedWorkspace(
    dir,
    'server.registerTool("find_notes", { description: "Find notes by text. Use when the user asks about notes.", inputSchema: { q: z.string().describe("Words") } }, async () => ({ content: [] }));',
  );
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

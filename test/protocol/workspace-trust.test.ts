/**
 * Workspace trust in the language server: the workspace's own SDK and schema libraries (here copies that leave a
 * marker file, naming the thread, when loaded) are loaded only by the analysis workers, only once the client said the
 * workspace is trusted (initialization options, or the toolsmith/workspaceTrust notification VS Code's
 * onDidGrantWorkspaceTrust sends) — never on the main thread, which analyses the closed files of the workspace scan
 * with the bundled copies and, in a trusted workspace, has a worker convert them again with the workspace's.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { LspClient, fileUri, tempDir } from './harness';
import { WorkspaceTrustNotification } from '../../common/protocol';
import { trappedWorkspace, trappedWorkspaceV2 } from '../util/trapped-workspace';

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

function workspaceV2(): { dir: string; file: string; marker: string } {
  const dir = tempDir('toolsmith-trust-v2-');
  dirs.push(dir);
  return trappedWorkspaceV2(
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

/** The threads that loaded workspace code, per marker line. */
function loaders(marker: string): string[] {
  return fs.existsSync(marker)
    ? [
        ...new Set(
          fs
            .readFileSync(marker, 'utf8')
            .trim()
            .split('\n')
            .map((l) => l.split(' ')[0]),
        ),
      ]
    : [];
}

/** The unresolved reasons of the workspace's tools, as the tools view reads them. */
async function toolReasons(client: LspClient): Promise<string> {
  return (await client.workspaceTools()).tools.flatMap((t) => t.unresolved.map((u) => u.reason)).join('\n');
}

for (const [line, make] of [
  ['1.x', workspace],
  ['v2', workspaceV2],
] as const) {
  test(`${line}, trusted from the start: the scan loads nothing on the main thread; a worker converts the closed file again, and the open document`, async () => {
    const ws = make();
    const client = await LspClient.start({ workspaceFolders: [ws.dir], initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: true, workspaceTrusted: true } });
    try {
      const scanned = await client.scanned();
      assert.ok(scanned.tools > 0, 'the scan found the tools');
      // The closed file: converted on the main thread with the bundled copies (saying so), then by a worker.
      await eventually(() => loaders(ws.marker).includes('worker'), 'a worker loaded the workspace copies for the closed file');
      let reasons = '';
      const end = Date.now() + 15_000;
      while (!/could not be loaded \(workspace code ran\)/.test((reasons = await toolReasons(client))) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      assert.match(reasons, /could not be loaded \(workspace code ran\)/, "the worker's answer did not replace the main thread's");
      assert.doesNotMatch(reasons, /main thread/);
      // Opened: a worker analyses it (its copies' failure cached or loaded again there), never the main thread.
      const uri = fileUri(ws.file);
      await client.openFile(ws.file);
      await client.diagnosticsFor(uri, 1);
      assert.match((await client.tools(uri)).tools.flatMap((t) => t.unresolved.map((u) => u.reason)).join('\n'), /could not be loaded \(workspace code ran\)/);
      assert.deepEqual(loaders(ws.marker), ['worker'], 'the main thread ran workspace code');
    } finally {
      await client.stop();
    }
  });
}

test('trusted, analysed on the main thread: the closed file says which copies converted it and why', async () => {
  const ws = workspaceV2();
  // No workers' answer can arrive: the time budget stops each of them at once, so what shows is the main thread's.
  const client = await LspClient.start({
    workspaceFolders: [ws.dir],
    initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: true, workspaceTrusted: true, settings: { analysis: { timeBudgetSeconds: 0.001 } } },
  });
  try {
    await client.scanned();
    assert.match(await toolReasons(client), /converted with the bundled schema libraries because this closed file was analysed on the language server's main thread/);
    assert.ok(!loaders(ws.marker).includes('main'), 'the main thread ran workspace code');
  } finally {
    await client.stop();
  }
});

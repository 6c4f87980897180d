/**
 * Code lenses and workspace/codeLens/refresh, as VS Code uses them.
 *
 * VS Code asks for a document's lenses on a debounced timer that every refresh restarts and that a focus change
 * cancels (editor/contrib/codelens codelensController.ts: onDidBlurEditorText -> scheduler.cancel()). A server that
 * refreshes after every analysis keeps postponing the first request until the user has clicked elsewhere, and the file
 * then shows no lens (the rules e2e lost it about one run in three). So: the first request is answered right, even
 * before the first analysis; no refresh follows while the editor holds the current lenses; a refresh is sent only
 * when the editor has not asked for the current lenses a while after an analysis, a bounded number of times.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LspClient, fileUri, tempDir, sleep } from './harness';
import { LENS_RETRY_DELAYS_MS } from '../../server/src/lsp/lensSync';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const HEAD = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nconst server = new McpServer({ name: "x", version: "1.0.0" });\n';
const tool = (name: string) => `server.registerTool("${name}", { description: "Find tickets by text. Use when the user asks about tickets. Returns ids." }, async () => ({ content: [] }));\n`;

/** How long the server leaves the editor to ask on its own before its first refresh. */
const FIRST_DELAY = LENS_RETRY_DELAYS_MS[0];

async function start(codeLensRefresh = true): Promise<{ client: LspClient; uri: string }> {
  const dir = tempDir();
  dirs.push(dir);
  const client = await LspClient.start({ codeLensRefresh, initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  return { client, uri: fileUri(path.join(dir, 'server.ts')) };
}

function refreshes(client: LspClient): number[] {
  return client.events.flatMap((e) => (e.kind === 'codeLensRefresh' ? [e.at] : []));
}

function lensSummary(lenses: Awaited<ReturnType<LspClient['codeLens']>>): string[] {
  return (lenses ?? []).map((l) => `${l.range.start.line} ${l.command?.title} ${(l.command?.arguments?.[0] as { toolName: string }).toolName}`);
}

test('code lens: a request sent right after didOpen, before the first analysis is published, gets the lenses', async () => {
  const { client, uri } = await start();
  try {
    // didOpen and codeLens leave in the same tick, as VS Code sends them when the provider registers on an open file.
    void client.open(uri, HEAD + tool('search_tickets'));
    const lenses = await client.codeLens(uri);
    const publishedBefore = client.diagnosticsEvents(uri).length;
    assert.deepEqual(lensSummary(lenses), ['2 Preview contract search_tickets', '2 Run in playground search_tickets']);
    assert.equal(publishedBefore, 0, 'answered before the first diagnostics were published (the race this test is about)');
    await client.diagnosticsFor(uri, 1);
    // The editor holds the current lenses: nothing to refresh (a refresh would only postpone its next request).
    await sleep(FIRST_DELAY + 500);
    assert.deepEqual(refreshes(client), [], 'no refresh while the editor holds the current lenses');
  } finally {
    await client.stop();
  }
});

test('code lens: typing with the editor asking after each edit (as VS Code does) sends no refresh', async () => {
  const { client, uri } = await start();
  try {
    await client.open(uri, HEAD + tool('search_tickets'));
    assert.equal((await client.codeLens(uri))?.length, 2);
    await client.diagnosticsFor(uri, 1);
    for (const name of ['close_ticket', 'add_note']) {
      const version = await client.change(uri, [{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: tool(name) }]);
      await client.codeLens(uri);
      await client.diagnosticsFor(uri, version);
    }
    assert.deepEqual(
      lensSummary(await client.codeLens(uri)).filter((l) => l.includes('Preview')),
      ['2 Preview contract add_note', '3 Preview contract close_ticket', '4 Preview contract search_tickets'],
    );
    await sleep(FIRST_DELAY + 500);
    assert.deepEqual(refreshes(client), []);
  } finally {
    await client.stop();
  }
});

test('code lens: an editor that dropped its request is asked to refresh once it had time to ask, and then stops', async () => {
  const { client, uri } = await start();
  try {
    await client.open(uri, HEAD + tool('search_tickets'));
    await client.diagnosticsFor(uri, 1);
    const published = client.diagnosticsEvents(uri)[0].at;
    await client.waitFor(() => refreshes(client).length >= 1, 'a code lens refresh: the editor never asked for the lenses', FIRST_DELAY + 5_000);
    const first = refreshes(client)[0];
    assert.ok(first - published >= FIRST_DELAY - 100, `the editor had ${FIRST_DELAY} ms to ask on its own (refresh came ${Math.round(first - published)} ms after the publish)`);
    // The editor asks, as VS Code does on a refresh: the lenses are in step, no further refresh.
    assert.equal((await client.codeLens(uri))?.length, 2);
    await sleep(LENS_RETRY_DELAYS_MS[1] + 500);
    assert.equal(refreshes(client).length, 1, 'one refresh was enough');

    // The tools change while the editor shows the old lenses (a tool added, the editor does not ask): refreshed.
    const version = await client.change(uri, [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: tool('close_ticket') }]);
    await client.diagnosticsFor(uri, version);
    await client.waitFor(() => refreshes(client).length >= 2, 'a code lens refresh after a tool was added', FIRST_DELAY + 5_000);
    assert.equal((await client.codeLens(uri))?.length, 4);
  } finally {
    await client.stop();
  }
});

test('code lens: a document no editor asks lenses for gets a bounded number of refreshes', { timeout: 30_000 }, async () => {
  const { client, uri } = await start();
  try {
    await client.open(uri, HEAD + tool('search_tickets'));
    await client.diagnosticsFor(uri, 1);
    const all = LENS_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    await sleep(all + 1_500);
    assert.equal(refreshes(client).length, LENS_RETRY_DELAYS_MS.length, `one refresh per retry (${LENS_RETRY_DELAYS_MS.join(', ')} ms), then none`);
    const gaps = refreshes(client)
      .map((at, i, a) => (i === 0 ? 0 : at - a[i - 1]))
      .slice(1);
    gaps.forEach((gap, i) => assert.ok(gap >= LENS_RETRY_DELAYS_MS[i + 1] - 100, `retry ${i + 2} waited ${Math.round(gap)} ms`));
  } finally {
    await client.stop();
  }
});

test('code lens: no refresh request to a client that does not support it', async () => {
  const { client, uri } = await start(false);
  try {
    await client.open(uri, HEAD + tool('search_tickets'));
    await client.diagnosticsFor(uri, 1);
    await sleep(FIRST_DELAY + 500);
    assert.deepEqual(refreshes(client), []);
    assert.equal((await client.codeLens(uri))?.length, 2);
  } finally {
    await client.stop();
  }
});

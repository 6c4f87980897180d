/**
 * toolsmith/toolsChanged: sent when a document's tools change (names, contracts, what could not be resolved), not on
 * a keystroke that leaves every contract as it was. The preview and the playground re-read the tools on it.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LspClient, fileUri, tempDir } from './harness';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const HEAD = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\nconst server = new McpServer({ name: "x", version: "1.0.0" });\n';
// Four tools: enough for the incremental path (a keystroke inside one tool re-analyses that tool only).
const tool = (name: string) =>
  `server.registerTool("${name}", { description: "Find ${name} by text. Use when the user asks about ${name}. Returns ids.", inputSchema: { q: z.string().describe("Words to look for") } }, async ({ q }) => {\n  return { content: [{ type: "text", text: "${name} " + q }] };\n});\n`;
const NAMES = ['tickets', 'notes', 'users', 'teams'];

test('toolsChanged: on open, on a contract edit and a removed tool; not on an edit that leaves the contracts as they were', async () => {
  const dir = tempDir();
  dirs.push(dir);
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const uri = fileUri(path.join(dir, 'server.ts'));
    const changes = () => client.events.filter((e) => e.kind === 'toolsChanged' && e.uri === uri).length;
    // The notification follows the diagnostics of the same analysis: wait for it, then check none more came. A
    // notification that should not have been sent shows at the next of these checks.
    const expectChanges = async (n: number, what: string) => {
      await client.waitFor(() => changes() >= n, what);
      assert.equal(changes(), n, what);
    };
    let text = HEAD + NAMES.map(tool).join('');
    await client.open(uri, text);
    await client.diagnosticsFor(uri, 1);
    await expectChanges(1, 'the tools appeared');

    const edit = async (next: string) => {
      assert.notEqual(next, text, 'the edit changes the text');
      text = next;
      await client.diagnosticsFor(uri, await client.change(uri, next));
    };
    // Typing in a handler body: the contracts are the same.
    await edit(text.replace('text: "notes " + q', 'text: "notes: " + q'));
    await edit(text.replace('text: "notes: " + q', 'text: "notes:: " + q'));
    assert.equal(changes(), 1, 'no notification for an edit in a handler body');
    // Whitespace outside the tools: analysed again, every contract equal.
    await edit(text.replace('const server', '\n\nconst server'));
    assert.equal(changes(), 1, 'no notification for a blank line');

    await edit(text.replace('Find notes by text.', 'Find notes by their text.'));
    await expectChanges(2, 'a description edit changes the contract');
    await edit(
      text.replace(
        'describe("Words to look for") } }, async ({ q }) => {\n  return { content: [{ type: "text", text: "users',
        'describe("Words to find") } }, async ({ q }) => {\n  return { content: [{ type: "text", text: "users',
      ),
    );
    await expectChanges(3, 'a parameter description edit changes the contract');
    await edit(text.replace(tool('teams'), ''));
    await expectChanges(4, 'a removed tool');
    assert.deepEqual(
      (await client.tools(uri)).tools.map((t) => t.name),
      ['tickets', 'notes', 'users'],
    );
  } finally {
    await client.stop();
  }
});

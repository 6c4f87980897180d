import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyse } from './harness';

test('tool-name-vague never proposes the same vague name back', () => {
  const file = '/tmp/toolsmith-vague.ts';
  const text = [
    'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
    'import { z } from "zod";',
    'const server = new McpServer({ name: "x", version: "1.0.0" });',
    'server.registerTool("get_item", { description: "Gets an item by its id. Use when the user names an item. Returns the item.", inputSchema: { itemId: z.string().max(40).describe("Item id") } }, async () => ({ content: [] }));',
    '',
  ].join('\n');
  const { findings } = analyse(file, text);
  const vague = findings.find((f) => f.ruleId === 'tool-name-vague');
  assert.ok(vague, 'get_item is flagged as vague');
  assert.doesNotMatch(vague.message, /for example "get_item"/);
  assert.equal(
    vague.fixes.some((f) => f.title === 'Rename to "get_item"'),
    false,
  );
});

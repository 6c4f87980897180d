/**
 * Prompt registrations in the TypeScript front-end: what is recognised as a prompt, where its parts are written, and
 * what stays unresolved (the live prompts/list of both SDK lines is test/fidelity/prompts.test.ts).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze } from './helpers';

const V1 = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\nconst server = new McpServer({ name: "p", version: "1.0.0" });\n`;
const V2 = `import { McpServer } from "@modelcontextprotocol/server";\nimport * as z from "zod";\nconst server = new McpServer({ name: "p", version: "1.0.0" });\n`;
const pkg = (name: string, version: string) => JSON.stringify({ name, version });

test('prompts: registered in run order, through helpers, with argument spans; browser prompt() is no prompt', () => {
  const main =
    V1 +
    `import { registerMore } from "./more";\n` +
    `server.registerPrompt("first", { description: "First.", argsSchema: { topic: z.string() } }, () => ({ messages: [] }));\n` +
    `registerMore(server);\n` +
    `server.registerTool("ask", { description: "Asks." }, async () => ({ content: [{ type: "text", text: String(window.prompt("Name?", "x")) }] }));\n`;
  const more = `import { z } from "zod";\nexport function registerMore(s) {\n  s.prompt("second", "Second.", () => ({ messages: [] }));\n}\n`;
  const { result, textOf } = analyze({ 'main.ts': main, 'more.ts': more, 'node_modules/@modelcontextprotocol/sdk/package.json': pkg('@modelcontextprotocol/sdk', '1.32.2') });
  const prompts = result.prompts ?? [];
  assert.deepEqual(
    prompts.map((p) => p.name.value),
    ['first', 'second'],
  );
  assert.equal(textOf(prompts[0].arguments?.[0].span), 'topic: z.string()');
  assert.equal(prompts[1].registration.kind, 'prompt');
  assert.deepEqual(prompts[1].contract, { name: 'second', description: 'Second.' });
});

test('prompts: what cannot be known or published is unresolved, with the reason', () => {
  const v1 = analyze({
    'main.ts':
      V1 +
      `server.registerPrompt("built", { description: "Built.", argsSchema: shapeFrom() }, () => ({ messages: [] }));\n` +
      `server.registerPrompt("wrapped", { description: "Wrapped.", argsSchema: z.object({ a: z.string() }) }, () => ({ messages: [] }));\n`,
    'node_modules/@modelcontextprotocol/sdk/package.json': pkg('@modelcontextprotocol/sdk', '1.32.2'),
  }).result.prompts!;
  assert.deepEqual(v1[0].contract, { name: 'built', description: 'Built.' });
  assert.equal(v1[0].unresolved[0].part, 'argsSchema');
  assert.match(v1[1].unresolved[0].reason, /1\.x must be a raw shape/);
  const v2 = analyze({
    'main.ts': V2 + `server.prompt("old", "Old overload.", () => ({ messages: [] }));\n`,
    'node_modules/@modelcontextprotocol/server/package.json': pkg('@modelcontextprotocol/server', '2.4.0'),
  }).result.prompts!;
  assert.match(v2[0].unresolved.find((u) => u.part === 'prompt')?.reason ?? '', /no McpServer\.prompt\(\) method \(removed in v2\)/);
});

test('prompts: a file without prompts has no prompts key (tools-only results are unchanged)', () => {
  const { result } = analyze({ 'main.ts': V1 + `server.registerTool("t", { description: "T." }, async () => ({ content: [] }));\n` });
  assert.equal('prompts' in result, false);
});

/**
 * The TypeScript SDK's low-level `Server`: tools are what `setRequestHandler(ListToolsRequestSchema, ...)` returns
 * (as the reference servers github, slack, brave-search, postgres are written). Checked live on the corpus
 * (test/fidelity/real-world.test.ts); here the forms, on small sources.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze } from './helpers';

const LOW_HEAD = `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema, CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "low", version: "1.0.0" }, { capabilities: { tools: {} } });
`;

test('low-level Server: an inline tools array of JSON Schema literals is published as written', () => {
  const src =
    LOW_HEAD +
    `server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: "query", description: "Run " + "SQL", inputSchema: { type: "object", properties: { sql: { type: "string", description: "the query" } }, required: ["sql"] } }],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [] }));
`;
  const { result, tool, textOf } = analyze({ 'main.ts': src });
  assert.equal(result.tools.length, 1, 'the CallTool handler registers nothing');
  const t = tool('query');
  assert.deepEqual(t.contract, { name: 'query', description: 'Run SQL', inputSchema: { type: 'object', properties: { sql: { type: 'string', description: 'the query' } }, required: ['sql'] } });
  assert.deepEqual(t.unresolved, []);
  assert.equal(textOf(t.name.span), '"query"');
  assert.deepEqual(
    t.parameters.map((p) => [p.name, p.required, p.description?.value]),
    [['sql', true, 'the query']],
  );
});

test('low-level Server: tools from consts, an imported const, a spread, in a class method, and `return { tools }`', () => {
  const defs = `export const SEARCH = { name: "search", description: "Search", inputSchema: { type: "object", properties: { q: { type: "string" } } } };
export const MORE = [{ name: "b", inputSchema: { type: "object" } }];\n`;
  const src =
    LOW_HEAD +
    `import { SEARCH, MORE } from "./defs.js";
const LOCAL = { name: "a", description: "A", inputSchema: { type: "object", properties: {} } };
class App {
  constructor() { this.server = server; }
  setup() {
    this.server.setRequestHandler(ListToolsRequestSchema, async () => {
      const tools = [LOCAL, SEARCH, ...MORE];
      return { tools };
    });
  }
}
`;
  const { result } = analyze({ 'main.ts': src, 'defs.ts': defs });
  assert.deepEqual(
    result.tools.map((t) => t.contract),
    [
      { name: 'a', description: 'A', inputSchema: { type: 'object', properties: {} } },
      { name: 'search', description: 'Search', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: 'b', inputSchema: { type: 'object' } },
    ],
  );
  assert.ok(result.tools.every((t) => t.unresolved.length === 0));
});

test('low-level Server: zodToJsonSchema(schema) runs zod-to-json-schema as the server does', () => {
  const src =
    LOW_HEAD +
    `import { z } from "zod/v3";
import { zodToJsonSchema } from "zod-to-json-schema";
const GetIssue = z.object({ owner: z.string().describe("Repository owner"), issue_number: z.number().int().optional() });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "get_issue", inputSchema: zodToJsonSchema(GetIssue) }] }));
`;
  const { tool } = analyze({ 'main.ts': src });
  assert.deepEqual(tool('get_issue').contract, {
    name: 'get_issue',
    inputSchema: {
      type: 'object',
      properties: { owner: { type: 'string', description: 'Repository owner' }, issue_number: { type: 'integer' } },
      required: ['owner'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
  });
});

test('low-level Server: a list built at run time, or several returns, is one tool unresolved with the reason', () => {
  const src =
    LOW_HEAD +
    `server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: loadTools() }));
const other = new Server({ name: "o", version: "1" });
other.setRequestHandler(ListToolsRequestSchema, async () => {
  if (process.env.X) return { tools: [] };
  return { tools: [{ name: "x", inputSchema: { type: "object" } }] };
});
const third = new Server({ name: "t", version: "1" });
third.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "ok", description: process.env.D, inputSchema: { type: "object" } }] }));
`;
  const { result, tool } = analyze({ 'main.ts': src });
  const [dynamic, conditional] = result.tools;
  assert.equal(dynamic.name.value, undefined);
  assert.match(dynamic.unresolved[0].reason, /tools list is not static: .*loadTools|not an allow-listed/);
  assert.equal(conditional.name.value, undefined);
  assert.match(conditional.unresolved[0].reason, /returns in 2 places/);
  const ok = tool('ok');
  assert.deepEqual(ok.contract, { name: 'ok', inputSchema: { type: 'object' } }, 'the unresolved description is not published as absent');
  assert.deepEqual(
    ok.unresolved.map((u) => u.part),
    ['description'],
  );
  assert.equal(ok.description?.value, undefined);
  assert.ok(ok.description?.unresolved);
});

test('z.enum(Object.keys(map)) over a const map is evaluated', () => {
  const src = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "demo", version: "1.0.0" });
const executors = { javascript: "node", python: "python3" };
server.registerTool("run", { inputSchema: { language: z.enum(Object.keys(executors)) } }, async () => ({ content: [] }));
`;
  const { tool } = analyze({ 'main.ts': src });
  const t = tool('run');
  assert.deepEqual(t.unresolved, []);
  assert.deepEqual((t.contract.inputSchema as { properties: Record<string, unknown> }).properties.language, { type: 'string', enum: ['javascript', 'python'] });
});

test('experimental.tasks.registerToolTask: a tool of that server, published with its task execution mode', () => {
  const src = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "demo", version: "1.0.0" });
server.experimental.tasks.registerToolTask("research", { description: "Long research", inputSchema: { topic: z.string() } }, { createTask: async () => ({}) });
server.experimental.tasks.registerToolTask("maybe", { execution: { taskSupport: "optional" } }, { createTask: async () => ({}) });
server.registerTool("plain", {}, async () => ({ content: [] }));
`;
  const { result, tool } = analyze({ 'main.ts': src });
  assert.equal(new Set(result.tools.map((t) => t.server.id)).size, 1, 'registered on `server`, not on a server named `server.experimental.tasks`');
  assert.deepEqual(tool('research').contract.execution, { taskSupport: 'required' });
  assert.deepEqual(tool('research').unresolved, []);
  assert.deepEqual((tool('research').contract.inputSchema as { required?: string[] }).required, ['topic']);
  assert.deepEqual(tool('maybe').contract.execution, { taskSupport: 'optional' });
  assert.deepEqual(tool('plain').contract.execution, { taskSupport: 'forbidden' });
});

test('tools registered in a loop over a constant array (for-of and forEach), each with its own schema', () => {
  const src = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "demo", version: "1.0.0" });
const TOOLS = [
  { name: "get_user", description: "Get a user", shape: { id: z.string() } },
  { name: "get_team", description: "Get a team", shape: { team: z.number() } },
];
for (const t of TOOLS) {
  const description = t.description + ".";
  server.registerTool(t.name, { description, inputSchema: t.shape }, async () => ({ content: [] }));
}
["ping", "pong"].forEach((name) => server.registerTool(name, { description: "Say " + name }, async () => ({ content: [] })));
`;
  const { result } = analyze({ 'main.ts': src });
  assert.deepEqual(
    result.tools.map((t) => [t.contract.name, t.contract.description, Object.keys((t.contract.inputSchema as { properties: object }).properties)]),
    [
      ['get_user', 'Get a user.', ['id']],
      ['get_team', 'Get a team.', ['team']],
      ['ping', 'Say ping', []],
      ['pong', 'Say pong', []],
    ],
  );
  assert.ok(result.tools.every((t) => t.unresolved.length === 0));
});

test('a loop over a list that is not static stays one tool whose name is unresolved', () => {
  const src = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "demo", version: "1.0.0" });
for (const t of loadTools()) server.registerTool(t.name, { description: "x" }, async () => ({ content: [] }));
`;
  const { result } = analyze({ 'main.ts': src });
  assert.equal(result.tools.length, 1);
  assert.equal(result.tools[0].name.value, undefined);
  assert.ok(result.tools[0].unresolved.some((u) => u.part === 'name'));
});

/**
 * Registration forms of published servers (issue 13) that the fixtures under test/fixtures/ts cannot be written in
 * (compiled CommonJS, `__awaiter`), and what stays unresolved, with its reason, instead of being guessed. Each form
 * is proven live on a corpus package too (test/fidelity/real-world.test.ts, docs/real-world-corpus.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze, HEAD } from './helpers';

const OK = 'async () => ({ content: [] })';

test('compiled CommonJS: interop-wrapped requires, exports.x, Object.defineProperty re-exports, (0, f)(x), zod_1.z', () => {
  const files = {
    'main.js': `"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) { return (mod && mod.__esModule) ? mod : { "default": mod }; };
Object.defineProperty(exports, "__esModule", { value: true });
const mcp_js_1 = require("@modelcontextprotocol/sdk/server/mcp.js");
const api_1 = __importDefault(require("./api.js"));
const server = new mcp_js_1.McpServer({ name: "cjs", version: "1.0.0" });
api_1.default.registerTools(server);
`,
    'api.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const zod_1 = require("zod");
const types_1 = require("./types.js");
const utils_1 = require("./utils.js");
function registerTools(server) {
    server.registerTool("jira_get", { description: (0, utils_1.describe)("GET"), inputSchema: types_1.GetArgs }, async () => ({ content: [] }));
    server.registerTool("jira_put", { inputSchema: types_1.PutArgs }, async () => ({ content: [] }));
}
exports.default = { registerTools };
`,
    'types.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PutArgs = exports.GetArgs = exports.Path = void 0;
const zod_1 = require("zod");
exports.Path = zod_1.z.string().describe("The API path");
exports.GetArgs = zod_1.z.object({ path: exports.Path });
exports.PutArgs = exports.GetArgs.extend({ body: zod_1.z.record(zod_1.z.string(), zod_1.z.unknown()) });
`,
    'utils.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.describe = void 0;
const describe = (method) => "Send a " + method + " request";
exports.describe = describe;
`,
  };
  const { tool } = analyze(files, 'main.js');
  const get = tool('jira_get');
  assert.deepEqual(get.unresolved, []);
  assert.equal(get.contract.description, 'Send a GET request');
  assert.deepEqual((get.contract.inputSchema as { properties: unknown }).properties, { path: { type: 'string', description: 'The API path' } });
  assert.deepEqual(Object.keys((tool('jira_put').contract.inputSchema as { properties: object }).properties), ['path', 'body']);
});

test('compiled CommonJS: Object.values of a module whose exports are re-exported getters, in the order they were written', () => {
  const files = {
    'server.js': `"use strict";
const index_js_1 = require("@modelcontextprotocol/sdk/server/index.js");
const types_js_1 = require("@modelcontextprotocol/sdk/types.js");
const Charts = __importStar(require("./charts"));
const server = new index_js_1.Server({ name: "charts", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(types_js_1.ListToolsRequestSchema, () => __awaiter(this, void 0, void 0, function* () {
    return ({ tools: Object.values(Charts).map((c) => c.tool) });
}));
`,
    'charts/index.js': `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pie = exports.bar = void 0;
var bar_1 = require("./bar.js");
Object.defineProperty(exports, "bar", { enumerable: true, get: function () { return bar_1.bar; } });
var pie_1 = require("./pie.js");
Object.defineProperty(exports, "pie", { enumerable: true, get: function () { return pie_1.pie; } });
`,
    'charts/bar.js': `"use strict";
exports.bar = void 0;
exports.bar = { tool: { name: "generate_bar_chart", inputSchema: { type: "object" } } };
`,
    'charts/pie.js': `"use strict";
exports.pie = { tool: { name: "generate_pie_chart", inputSchema: { type: "object" } } };
`,
  };
  const { result } = analyze(files, 'server.js');
  // `.map((c) => c.tool)`: the callback's one expression evaluated on each chart (alternatives.ts); always listed.
  assert.deepEqual(
    result.tools.map((t) => [t.name.value, t.unresolved.length, t.registration.condition]),
    [
      ['generate_bar_chart', 0, undefined],
      ['generate_pie_chart', 0, undefined],
    ],
  );
  // The module object itself: its getters read, keys in the order the CommonJS output created them.
  const direct = { ...files, 'server.js': files['server.js'].replace('Object.values(Charts).map((c) => c.tool)', 'Object.values(Charts)') };
  direct['charts/bar.js'] = direct['charts/bar.js'].replace(
    '{ tool: { name: "generate_bar_chart", inputSchema: { type: "object" } } }',
    '{ name: "generate_bar_chart", inputSchema: { type: "object" } }',
  );
  direct['charts/pie.js'] = direct['charts/pie.js'].replace(
    '{ tool: { name: "generate_pie_chart", inputSchema: { type: "object" } } }',
    '{ name: "generate_pie_chart", inputSchema: { type: "object" } }',
  );
  const { result: r2 } = analyze(direct, 'server.js');
  assert.deepEqual(
    r2.tools.map((t) => [t.name.value, t.unresolved]),
    [
      ['generate_bar_chart', []],
      ['generate_pie_chart', []],
    ],
  );
});

test('a low-level list handler compiled with __awaiter is read through the generator it wraps', () => {
  const src = `const { Server } = require("@modelcontextprotocol/sdk/server/index.js");
const { ListToolsRequestSchema } = require("@modelcontextprotocol/sdk/types.js");
const server = new Server({ name: "x", version: "1" }, { capabilities: { tools: {} } });
const tool = { name: "generate_mermaid_diagram", inputSchema: { type: "object", properties: { mermaid: { type: "string" } } } };
server.setRequestHandler(ListToolsRequestSchema, () => __awaiter(this, void 0, void 0, function* () {
    return ({ tools: [tool] });
}));
`;
  const { tool } = analyze({ 'main.js': src }, 'main.js');
  assert.deepEqual(tool('generate_mermaid_diagram').unresolved, []);
});

test("an McpServer whose tools/list handler the code replaces: its tools are unresolved, with the replacing call's span", () => {
  const viaSetRequestHandler =
    HEAD +
    `import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
server.registerTool("search", { description: "Search." }, ${OK});
function enforceDialect(mcpServer: McpServer) {
  const listTools = (mcpServer.server as any)._requestHandlers.get("tools/list");
  mcpServer.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => ({ tools: [] }));
}
enforceDialect(server);
`;
  const viaPrivateMap =
    HEAD +
    `server.registerTool("ask", { description: "Ask." }, ${OK});
function rewrite(inner: any) {
  const handlers = inner._requestHandlers;
  handlers.set("tools/list", async () => ({ tools: [] }));
}
rewrite(server.server);
`;
  for (const [src, name, call] of [
    [viaSetRequestHandler, 'search', 'mcpServer.server.setRequestHandler('],
    [viaPrivateMap, 'ask', 'handlers.set('],
  ] as const) {
    const { result, tool, textOf } = analyze({ 'main.ts': src });
    assert.equal(result.tools.length, 1, 'the replacing handler is not a low-level server of its own');
    const u = tool(name).unresolved.find((x) => x.part === 'contract');
    assert.ok(u, `${name}: the contract is unresolved`);
    assert.match(u.reason, /replaces the SDK's tools\/list handler/);
    assert.ok(textOf(u.span).startsWith(call), textOf(u.span));
  }
  // A handler set on a low-level Server of its own is that server's list, as before.
  const { tool } = analyze({
    'main.ts': `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "low", version: "1" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "only", inputSchema: { type: "object" } }] }));
`,
  });
  assert.deepEqual(tool('only').unresolved, []);
});

test('a list chosen by the environment is both branches under their condition; one changed after its declaration is unresolved with the reason', () => {
  const LOW = `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "low", version: "1" }, { capabilities: { tools: {} } });
const allTools = [{ name: "get", inputSchema: { type: "object" } }, { name: "delete", inputSchema: { type: "object" } }];
const readonlyTools = [allTools[0]];
`;
  const env = analyze({ 'main.ts': LOW + `server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: process.env.READONLY === "1" ? readonlyTools : allTools }));\n` });
  // The full list (the else branch) in its order; `get` is in both branches, so always listed.
  assert.deepEqual(
    env.result.tools.map((t) => [t.name.value, t.unresolved.length, t.registration.condition?.text]),
    [
      ['get', 0, undefined],
      ['delete', 0, '!(process.env.READONLY === "1")'],
    ],
  );
  const spliced = analyze({ 'main.ts': LOW + `function drop() { allTools.splice(1, 1); }\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: allTools }));\n` });
  const reason = spliced.result.tools[0].unresolved[0].reason;
  assert.match(reason, /`allTools` is changed after its declaration \(line 6: `allTools.splice\(1, 1\)`\)/);
  const pushed = analyze({
    'main.ts': LOW + `allTools.push({ name: "put", inputSchema: { type: "object" } });\nserver.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: allTools }));\n`,
  });
  assert.deepEqual(
    pushed.result.tools.map((t) => t.name.value),
    ['get', 'delete', 'put'],
  );
});

test('a wrapper that may change what the handler returns is not read through', () => {
  const src = `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "low", version: "1" }, { capabilities: { tools: {} } });
const withExtra = (handler: () => Promise<{ tools: object[] }>) => async () => {
  const result = await handler();
  result.tools.push({ name: "hidden", inputSchema: { type: "object" } });
  return result;
};
server.setRequestHandler(ListToolsRequestSchema, withExtra(async () => ({ tools: [{ name: "shown", inputSchema: { type: "object" } }] })));
`;
  const { result } = analyze({ 'main.ts': src });
  assert.deepEqual(
    result.tools.map((t) => [t.name.value, t.unresolved.map((u) => u.part)]),
    [[undefined, ['tools']]],
  );
});

test('helpers called once per tool get each call its own arguments; an unbound argument says which call it was', () => {
  const src =
    HEAD +
    `function setup(prefix: string, extra: string) {
  const tool = (name: string, description: string, shape: Record<string, any>) => server.registerTool(prefix + name, { description, inputSchema: shape }, ${OK});
  tool("list", "List them.", {});
  tool("get", "Get one.", { id: z.string() });
  tool(extra, "Other.", {});
}
setup("item_", process.argv[2]);
`;
  const { result, tool } = analyze({ 'main.ts': src });
  assert.deepEqual(
    result.tools.map((t) => t.name.value),
    ['item_list', 'item_get', undefined],
  );
  assert.deepEqual((tool('item_get').contract.inputSchema as { properties: unknown }).properties, { id: { type: 'string' } });
  assert.match(result.tools[2].unresolved[0].reason, /`extra`, a parameter of function `setup`, is `process\.argv\[2\]` at its call/);
});

test('a class whose constructor sets its fields under a condition is not read as if it had run', () => {
  const src =
    HEAD +
    `class Tool {
  name: string;
  constructor(readonly verbose: boolean) {
    if (verbose) this.name = "loud";
    else this.name = "quiet";
  }
  install(s: McpServer) { s.registerTool(this.name, { description: "A tool." }, ${OK}); }
}
class Plain {
  name = "plain";
  constructor(private readonly label: string) {}
  install(s: McpServer) { s.registerTool(this.name, { description: this.label }, ${OK}); }
}
new Tool(true).install(server);
new Plain("A plain tool.").install(server);
`;
  const { result, tool } = analyze({ 'main.ts': src });
  assert.match(result.tools[0].unresolved[0].reason, /the constructor of `Tool` sets its fields under run-time conditions/);
  assert.deepEqual(tool('plain').unresolved, []);
  assert.equal(tool('plain').contract.description, 'A plain tool.');
});

test('a module loaded with a dynamic import() registers through the function it exports', () => {
  const files = {
    'main.ts':
      HEAD +
      `async function main() {
  const tools = await import("./tools.js");
  tools.registerAll(server);
  const { registerExtra } = await import("./extra.js");
}
main();
`,
    'tools.ts': `import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export function registerAll(server: McpServer) {
  server.registerTool("from_dynamic_import", { description: "Registered through a dynamic import." }, async () => ({ content: [] }));
}
`,
    'extra.ts': `export function registerExtra() {}\n`,
  };
  const { tool } = analyze(files);
  assert.deepEqual(tool('from_dynamic_import').unresolved, []);
  assert.equal(tool('from_dynamic_import').server.variable, 'server');
});

test('in a loop, a branch on a condition known for the element runs alone: one registration per element', () => {
  const src =
    HEAD +
    `const TOOLS = [
  { name: "read_logs", description: "Read the logs.", annotations: { readOnlyHint: true } },
  { name: "rerun_job", description: "Rerun a job." },
];
TOOLS.forEach((tool) => {
  const annotations = tool.annotations;
  if (annotations) server.tool(tool.name, tool.description, {}, annotations, ${OK});
  else server.tool(tool.name, tool.description, {}, ${OK});
});
`;
  const { result, tool } = analyze({ 'main.ts': src });
  assert.deepEqual(
    result.tools.map((t) => t.name.value),
    ['read_logs', 'rerun_job'],
  );
  assert.deepEqual(tool('read_logs').contract.annotations, { readOnlyHint: true });
  assert.equal(tool('rerun_job').contract.annotations, undefined);
});

/**
 * A low-level tools list chosen by configuration (alternatives.ts): every tool any branch can hold, each under the
 * condition it is listed with, as written. Proven live on mcp-server-kubernetes (ternary + filter) and
 * @antv/mcp-server-chart (memoised helper + map) in the corpus; here each shape on a small source.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze } from './helpers';

const LOW_HEAD = `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "low", version: "1.0.0" }, { capabilities: { tools: {} } });
const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
`;

test('a ternary on an environment flag and a filter with a run-time predicate: the full list first, then each tool under its condition', () => {
  const src =
    LOW_HEAD +
    `const readOnly = process.env.READ_ONLY === "true";
const allowed = process.env.ALLOWED?.split(",");
const isAllowed = (name: string) => { if (allowed) return allowed.includes(name); return true; };
const GET = tool("get");
const LIST = tool("list");
const readonlyTools = [GET, LIST, tool("audit")];
const allTools = [tool("delete"), GET, LIST];
server.setRequestHandler(ListToolsRequestSchema, async () => {
  const base = readOnly ? readonlyTools : allTools;
  const tools = base.filter((t) => isAllowed(t.name));
  return { tools };
});
`;
  const { result, textOf } = analyze({ 'main.ts': src });
  assert.deepEqual(
    result.tools.map((t) => [t.name.value, t.registration.condition?.text]),
    [
      ['delete', '!readOnly && isAllowed(t.name)'],
      ['get', 'isAllowed(t.name)'],
      ['list', 'isAllowed(t.name)'],
      ['audit', 'readOnly && isAllowed(t.name)'],
    ],
  );
  for (const t of result.tools) assert.deepEqual(t.unresolved, [], `${t.name.value} is read whole`);
  assert.equal(textOf(result.tools[0].registration.condition?.span), 'readOnly', 'the span is where the first condition is written');
  assert.equal(textOf(result.tools[1].registration.condition?.span), 'isAllowed(t.name)');
});

test('a memoised helper choosing between a namespace of tools and its filter, mapped to the tools: each listed unless disabled', () => {
  const charts = `export { area } from "./area";\nexport { bar } from "./bar";\n`;
  const area = `export const area = { schema: 1, tool: { name: "area", description: "Area", inputSchema: { type: "object" } } };\n`;
  const bar = `export const bar = { schema: 2, tool: { name: "bar", inputSchema: { type: "object" } } };\n`;
  const src =
    LOW_HEAD +
    `import * as Charts from "./charts/index.js";
const disabledOf = () => (process.env.DISABLED ?? "").split(",");
let cache: any = null;
function enabledCharts() {
  if (cache) return cache;
  const disabled = disabledOf();
  const all = Object.values(Charts);
  cache = disabled.length === 0 ? all : all.filter((c) => !disabled.includes(c.tool.name));
  return cache;
}
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: enabledCharts().map((c) => c.tool) }));
`;
  const { result } = analyze({ 'main.ts': src, 'charts/index.ts': charts, 'charts/area.ts': area, 'charts/bar.ts': bar });
  assert.deepEqual(
    result.tools.map((t) => [t.contract, t.registration.condition?.text]),
    [
      [{ name: 'area', description: 'Area', inputSchema: { type: 'object' } }, 'disabled.length === 0 || !disabled.includes(c.tool.name)'],
      [{ name: 'bar', inputSchema: { type: 'object' } }, 'disabled.length === 0 || !disabled.includes(c.tool.name)'],
    ],
  );
});

test('a condition or predicate known statically decides: one branch, entries dropped, no condition', () => {
  const src =
    LOW_HEAD +
    `const MODE = "full";
const A = [tool("a"), tool("b")];
const extra = process.env.EXTRA === "1";
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...(MODE === "full" ? A : []).filter((t) => t.name !== "b"), ...(extra ? [tool("x")] : [])] }));
`;
  const { result } = analyze({ 'main.ts': src });
  assert.deepEqual(
    result.tools.map((t) => [t.name.value, t.registration.condition?.text]),
    [
      ['a', undefined],
      ['x', 'extra'],
    ],
  );
});

test('a branch that cannot be read, or a memo assigned elsewhere, stays one unresolved tools row', () => {
  const src =
    LOW_HEAD +
    `declare function loadTools(): any[];
const STATIC = [tool("s")];
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: process.env.X ? loadTools() : STATIC }));
const other = new Server({ name: "o", version: "1" });
let cache: any = null;
export function reset(list: any) { cache = list; }
function current() { if (cache) return cache; cache = process.env.Y ? STATIC : []; return cache; }
other.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: current() }));
`;
  const { result } = analyze({ 'main.ts': src });
  assert.equal(result.tools.length, 2);
  for (const t of result.tools) {
    assert.equal(t.name.value, undefined);
    assert.deepEqual(
      t.unresolved.map((u) => u.part),
      ['tools'],
    );
  }
  assert.match(result.tools[0].unresolved[0].reason, /process\.env\.X/);
});

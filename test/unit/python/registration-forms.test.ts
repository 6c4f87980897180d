/**
 * The registration forms real servers use beyond `@mcp.tool` on a module-level server (issue 13): what each form
 * resolves to, and that the forms Toolsmith sees but cannot resolve still yield tools that say what is unresolved.
 * The exact contracts are proven live by the fidelity fixtures (sdk_call_forms, sdk_param_server, ...).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import type { FileHost } from '../../../server/src/analysis/model';

/** A workspace of in-memory files under /ws. */
function workspace(files: Record<string, string>): FileHost {
  const all = new Map(Object.entries(files).map(([f, t]) => [`/ws/${f}`, t]));
  return { readFile: (f) => all.get(f), fileExists: (f) => all.has(f) };
}

function analyze(files: Record<string, string>, entry: string) {
  return analyzePython(`/ws/${entry}`, files[entry], workspace(files));
}

const REGISTER = ['def register(server):', '    @server.tool()', '    def ping() -> str:', '        """Ping."""', '        return "pong"', ''].join('\n');

test('a server parameter nobody passes in here: the tool is listed, its contract unresolved and the reason names the parameter', () => {
  const { tools } = analyze({ 'tools.py': REGISTER }, 'tools.py');
  assert.deepEqual(
    tools.map((t) => t.name.value),
    ['ping'],
  );
  const [u] = tools[0].unresolved;
  assert.equal(u.part, 'contract');
  assert.match(u.reason, /parameter server of register\(\), untyped/);
});

test('a server parameter annotated with the server class is exact from its own module', () => {
  const text = `from fastmcp import FastMCP\n\n${REGISTER.replace('def register(server):', 'def register(server: FastMCP):')}`;
  const { tools } = analyze({ 'tools.py': text }, 'tools.py');
  assert.equal(tools[0].framework, 'fastmcp');
  assert.deepEqual(tools[0].unresolved, []);
});

test("the entry passing its server to a function of another module gets that function's tools, on its own server, exact", () => {
  const entry = 'from mcp.server import MCPServer\nfrom tools import register\n\nmcp = MCPServer("x")\nregister(mcp)\n';
  const { tools, files } = analyze({ 'main.py': entry, 'tools.py': REGISTER }, 'main.py');
  assert.deepEqual(
    tools.map((t) => [t.name.value, t.server.id, t.unresolved.length]),
    [['ping', '/ws/main.py#mcp', 0]],
  );
  assert.deepEqual(files[0].dependencies, ['/ws/tools.py']);
});

test('a server imported from another module brings the tools registered there; an import cycle ends', () => {
  const app = 'from mcp.server import MCPServer\nfrom main import extra\n\nmcp = MCPServer("app")\n\n@mcp.tool()\ndef status() -> str:\n    """Status."""\n    return "ok"\n';
  const entry = 'from app import mcp\n\ndef extra() -> None:\n    pass\n\n@mcp.tool()\ndef greet(name: str) -> str:\n    """Greet."""\n    return name\n';
  const { tools, files } = analyze({ 'main.py': entry, 'app.py': app }, 'main.py');
  assert.deepEqual(
    tools.map((t) => [t.name.value, t.server.id]),
    [
      ['status', '/ws/app.py#mcp'],
      ['greet', '/ws/app.py#mcp'],
    ],
  );
  assert.equal(files[0].framework, 'mcp');
});

test('a name not defined in the workspace is not taken for a server (no tool is guessed)', () => {
  const entry = 'from somewhere_else import mcp\n\n@mcp.tool()\ndef greet(name: str) -> str:\n    return name\n';
  assert.deepEqual(analyze({ 'main.py': entry }, 'main.py').tools, []);
});

test('low-level Server: a list_tools result that is not Tool(...) literals is one tool whose parts are unresolved', () => {
  const text = [
    'from mcp.server.lowlevel import Server',
    'from mcp.types import Tool',
    'server = Server("x")',
    'TOOLS = []',
    '@server.list_tools()',
    'async def list_tools() -> list[Tool]:',
    '    return TOOLS',
    '',
  ].join('\n');
  const [tool, ...rest] = analyze({ 'srv.py': text }, 'srv.py').tools;
  assert.equal(rest.length, 0);
  assert.equal(tool.name.value, undefined);
  assert.deepEqual(
    tool.unresolved.map((u) => u.part),
    ['tool'],
  );
  assert.match(tool.unresolved[0].reason, /TOOLS is not a Tool\(\.\.\.\) literal/);
});

test('low-level Server: a Tool(...) whose name is not a literal keeps its literal parts and says the name is unresolved', () => {
  const text = [
    'from mcp.server.lowlevel import Server',
    'from mcp.types import Tool',
    'server = Server("x")',
    'NAME = make_name()',
    '@server.list_tools()',
    'async def list_tools() -> list[Tool]:',
    '    return [Tool(name=NAME, description="Do it.", inputSchema={"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]})]',
    '',
  ].join('\n');
  const [tool] = analyze({ 'srv.py': text }, 'srv.py').tools;
  assert.equal(tool.name.value, undefined);
  assert.ok(tool.name.unresolved);
  assert.deepEqual(
    tool.unresolved.map((u) => u.part),
    ['name'],
  );
  assert.deepEqual(tool.contract, { description: 'Do it.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } });
  assert.deepEqual(
    tool.parameters.map((p) => [p.name, p.required]),
    [['q', true]],
  );
});

test('the decorator called by hand on an imported function reads the function in its own module', () => {
  const entry = 'from mcp.server import MCPServer\nfrom helpers import count\n\nmcp = MCPServer("x")\nmcp.tool(name="count_words")(count)\n';
  const helpers = 'def count(text: str) -> int:\n    """Count words."""\n    return 0\n';
  const [tool] = analyze({ 'main.py': entry, 'helpers.py': helpers }, 'main.py').tools;
  assert.equal(tool.name.value, 'count_words');
  assert.equal(tool.file, '/ws/main.py');
  assert.equal(tool.handler?.span.file, '/ws/helpers.py');
  assert.equal(tool.contract.description, 'Count words.');
});

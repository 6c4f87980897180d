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

const FACTORY = [
  'from typing import Any',
  'from fastmcp import FastMCP',
  'from pydantic import BaseModel',
  '',
  'class Hit(BaseModel):',
  '    title: str',
  '',
  'def schema_of(model):',
  '    return model.model_json_schema()',
  '',
  'def create() -> FastMCP:',
  '    server = FastMCP("x")',
  '',
  '    def register_tool(name: str, output_schema: dict[str, Any], prefix: str = "wiki"):',
  '        def decorator(func):',
  '            server.tool(func, name=name, output_schema=output_schema)',
  '            server.tool(func, name=f"{prefix}_{name}")',
  '            return func',
  '        return decorator',
  '',
  '    @register_tool("search", schema_of(Hit))',
  '    def search(query: str) -> dict:',
  '        """Search."""',
  '        return {}',
  '    return server',
  '',
].join('\n');

test("a decorator factory: each inner server.tool(func, ...) is a tool of the decorated def, read with the factory's parameters bound to the decorator's arguments", () => {
  const { tools } = analyze({ 'srv.py': FACTORY }, 'srv.py');
  // The inner `server.tool(func, ...)` calls are read at the decorated def, not reported once more as unnamed tools.
  assert.deepEqual(
    tools.map((t) => [t.name.value, t.server.variable, t.unresolved.length]),
    [
      ['search', 'server', 0],
      ['wiki_search', 'server', 0],
    ],
  );
  assert.deepEqual(tools[0].contract.outputSchema, { type: 'object', properties: { title: { type: 'string', title: 'Title' } }, required: ['title'], title: 'Hit' });
  assert.deepEqual(tools[1].contract.outputSchema, { type: 'object', additionalProperties: true }, 'the second call gives no output_schema: the one of `-> dict`');
  // `server.add_tool(Tool.from_function(func, name=...))` inside the factory reads from_function's options.
  const fromFunction = analyze({ 'srv.py': FACTORY.replace('server.tool(func, name=f"{prefix}_{name}")', 'server.add_tool(Tool.from_function(func, name=f"{prefix}_{name}"))') }, 'srv.py').tools;
  assert.deepEqual(
    fromFunction.map((t) => [t.name.value, t.unresolved.length]),
    [
      ['search', 0],
      ['wiki_search', 0],
    ],
  );
  // Fixes must not edit the decorator's arguments as if they were the framework's options.
  assert.equal(tools[0].registration.kind, 'add_tool');
  assert.equal(tools[0].registration.configSpan, undefined);
});

test('a decorator factory whose argument is not a constant: that part is unresolved, the rest of the tool resolves', () => {
  const text = FACTORY.replace('@register_tool("search", schema_of(Hit))', '@register_tool(make_name(), schema_of(Hit))');
  const { tools } = analyze({ 'srv.py': text }, 'srv.py');
  assert.deepEqual(
    tools.map((t) => [t.name.value, t.unresolved.map((u) => u.part)]),
    [
      [undefined, ['name']],
      [undefined, ['name']],
    ],
  );
  assert.equal(tools[0].contract.name, undefined);
  assert.equal(tools[0].contract.description, 'Search.');
});

test('a registry class whose decorator methods chain to one that registers a wrapped function and rewrites the tool afterwards: listed, titled, unresolved with each reason', () => {
  const registry = [
    'from mcp.server import MCPServer',
    'from mcp.types import ToolAnnotations',
    '',
    'READ_ONLY = ToolAnnotations(read_only_hint=True)',
    '',
    'class Registry:',
    '    def __init__(self, server: MCPServer) -> None:',
    '        self.server = server',
    '',
    '    def reader(self, title: str):',
    '        return self._register(title, READ_ONLY)',
    '',
    '    def _register(self, title: str, annotations: ToolAnnotations):',
    '        def decorate(function):',
    '            self.server.tool(title=title, description="Fixed.", annotations=annotations)(wrap(function))',
    '            slim(self.server.get_tool(function.__name__).parameters)',
    '            return function',
    '        return decorate',
    '',
  ].join('\n');
  const tools =
    'from registry import Registry\n\ndef register(tools: Registry) -> None:\n    @tools.reader("Read a cell")\n    def read_cell(cell: str) -> str:\n        """Read."""\n        return cell\n';
  const [tool, ...rest] = analyze({ 'tools.py': tools, 'registry.py': registry }, 'tools.py').tools;
  assert.equal(rest.length, 0);
  assert.equal(tool.name.value, 'read_cell');
  assert.equal(tool.title?.value, 'Read a cell');
  assert.deepEqual(tool.contract.annotations, { readOnlyHint: true });
  assert.equal(tool.contract.description, 'Fixed.');
  const reasons = tool.unresolved.filter((u) => u.part === 'contract').map((u) => u.reason);
  assert.equal(reasons.length, 3, reasons.join('\n'));
  assert.match(reasons[0], /self\.server, a server Toolsmith does not see constructed/);
  assert.match(reasons[1], /registered through `wrap\(function\)`/);
  assert.match(reasons[2], /also runs `slim\(self\.server\.get_tool/);
});

test('an unresolved description= leaves the contract without a description (not the docstring)', () => {
  const text = 'from mcp.server import MCPServer\n\nmcp = MCPServer("x")\n\n@mcp.tool(description=describe())\ndef ping() -> str:\n    """Ping."""\n    return "pong"\n';
  const [tool] = analyze({ 'srv.py': text }, 'srv.py').tools;
  assert.equal(tool.contract.description, undefined);
  assert.deepEqual(
    tool.unresolved.map((u) => u.part),
    ['description'],
  );
});

test("a bound method of a module-level instance of another module's class is the function; @wraps(other) hands it other's signature and docstring", () => {
  const catalog = [
    'from functools import wraps',
    '',
    'class Catalog:',
    '    def tables(self, database: str) -> str:',
    '        """List the tables."""',
    '        return database',
    '',
    '    @wraps(tables)',
    '    async def tables_async(self, *args, **kwargs) -> str:',
    '        return self.tables(*args, **kwargs)',
    '',
    '    def count(self, table: str, exact: bool = False) -> int:',
    '        """Count rows."""',
    '        return 0',
    '',
  ].join('\n');
  const entry = [
    'from fastmcp import FastMCP',
    'from fastmcp.tools import Tool',
    'from catalog import Catalog',
    '',
    'catalog = Catalog()',
    'tables_async = catalog.tables_async',
    'mcp = FastMCP("x")',
    'mcp.add_tool(Tool.from_function(tables_async, name="list_tables"))',
    'mcp.add_tool(Tool.from_function(catalog.count))',
    '',
  ].join('\n');
  const { tools } = analyze({ 'main.py': entry, 'catalog.py': catalog }, 'main.py');
  assert.deepEqual(
    tools.map((t) => [t.name.value, t.contract.description, t.parameters.map((p) => p.name), t.unresolved.length]),
    [
      ['list_tables', 'List the tables.', ['database'], 0],
      ['count', 'Count rows.', ['table', 'exact'], 0],
    ],
  );
  // A method of an instance whose class is not found stays listed with what is unresolved.
  const unknown = analyze({ 'main.py': entry.replace('catalog = Catalog()', 'catalog = make_catalog()'), 'catalog.py': catalog }, 'main.py').tools;
  assert.deepEqual(
    unknown.map((t) => [t.name.value, t.unresolved[0]?.part]),
    [
      ['list_tables', 'tool'],
      [undefined, 'tool'],
    ],
  );
});

test('a registration under an `if`, in an `elif`/`else`, or after an early `return`: the tool keeps its contract and says the guard it is listed under', () => {
  // The shapes of mcp-clickhouse 0.7.0 (`if os.getenv("CLICKHOUSE_ENABLED", "true").lower() == "true":` around three
  // add_tool calls; `if not get_chdb_config().enabled: return` before the chDB tool), written small.
  const text = [
    'import os',
    'from mcp.server.fastmcp import FastMCP',
    'mcp = FastMCP("g")',
    'def always() -> str:',
    '    """Always listed."""',
    '    return ""',
    'mcp.add_tool(always)',
    'if os.getenv("ENABLED", "true") == "true":',
    '    @mcp.tool()',
    '    def enabled() -> str:',
    '        """Listed when enabled."""',
    '        return ""',
    'elif beta:',
    '    @mcp.tool()',
    '    def beta_only() -> str:',
    '        """Beta."""',
    '        return ""',
    'else:',
    '    @mcp.tool()',
    '    def fallback() -> str:',
    '        """Otherwise."""',
    '        return ""',
    'def register_extra():',
    '    if not config().extra:',
    '        return',
    '    if client is None:',
    '        raise RuntimeError("no client")',
    '    @mcp.tool()',
    '    def extra() -> str:',
    '        """Extra."""',
    '        return ""',
    'register_extra()',
    '',
  ].join('\n');
  const { tools } = analyze({ 'server.py': text, 'pyproject.toml': '[project]\nname = "g"\ndependencies = ["mcp==1.30.0"]\n' }, 'server.py');
  const guards = Object.fromEntries(tools.map((t) => [t.name.value, t.registration.condition?.text]));
  assert.deepEqual(guards, {
    always: undefined,
    enabled: 'os.getenv("ENABLED", "true") == "true"',
    beta_only: 'not (os.getenv("ENABLED", "true") == "true") and beta',
    fallback: 'not (os.getenv("ENABLED", "true") == "true") and not beta',
    extra: 'config().extra and client is not None',
  });
  const extra = tools.find((t) => t.name.value === 'extra')!;
  assert.equal(text.slice(extra.registration.condition!.span.start, extra.registration.condition!.span.end), 'client is None', 'the span is the innermost guard as written');
  assert.ok(
    tools.every((t) => t.unresolved.length === 0 && t.contract.name === t.name.value),
    'a guard changes whether the tool is listed, not its contract',
  );
});

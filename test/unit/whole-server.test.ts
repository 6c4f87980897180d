/**
 * A whole server from its entry (issue 13): `analyzeEntry` follows the entry's module graph the way the runtime runs
 * it and predicts every registration on the servers those modules construct, in order. One small workspace per
 * import form; what cannot be followed is a `module` row with its reason. Proven on published packages by the
 * real-world corpus (test/fidelity/real-world.test.ts predicts each package from its start file).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeEntry, type EntryAnalysis } from '../../server/src/analysis/entry';
import { consoleScriptEntry, declaredEntries } from '../../server/src/analysis/entries';
import type { FileHost } from '../../server/src/analysis/model';

/** In-memory files under /ws; folders are listable (a namespace package is a folder without __init__.py). */
function workspace(files: Record<string, string>): FileHost {
  const all = new Map(Object.entries(files).map(([f, t]) => [`/ws/${f}`, t]));
  const dirs = new Set<string>();
  for (const f of all.keys()) for (let d = path.dirname(f); d !== '/'; d = path.dirname(d)) dirs.add(d);
  return {
    readFile: (f) => all.get(f),
    fileExists: (f) => all.has(f),
    listDir: (d) => (dirs.has(d) ? [...all.keys(), ...dirs].filter((f) => path.dirname(f) === d).map((f) => path.basename(f)) : undefined),
  };
}

function entry(files: Record<string, string>, file: string): EntryAnalysis {
  const host = workspace(files);
  return analyzeEntry(`/ws/${file}`, host.readFile(`/ws/${file}`)!, host);
}

const names = (a: EntryAnalysis) => a.result.tools.map((t) => t.name.value);
const unfollowed = (a: EntryAnalysis) => a.result.graph.unfollowed.map((u) => `${path.basename(u.span.file)}: ${u.reason}`);

const SDK = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";`;
const SERVER_TS = `${SDK}\nexport const server = new McpServer({ name: "demo", version: "1.0.0" });\n`;
const tool = (name: string, on = 'server') => `${on}.registerTool("${name}", { description: "${name} it" }, async () => ({ content: [] }));\n`;
const toolModule = (name: string) => `import { server } from "../server.js";\n${tool(name)}`;

test('TS: side-effect imports register on the imported server, in import order; the server is named and constructed', () => {
  const a = entry(
    {
      'src/index.ts': `import { server } from "./server.js";\nimport "./tools/b.js";\nimport "./tools/a.js";\n${tool('first')}await server.connect(transport);\n`,
      'src/server.ts': SERVER_TS,
      'src/tools/a.ts': toolModule('a'),
      'src/tools/b.ts': toolModule('b'),
    },
    'src/index.ts',
  );
  assert.deepEqual(names(a), ['b', 'a', 'first']);
  assert.equal(a.servers.length, 1);
  assert.equal(a.servers[0].name, 'demo');
  assert.equal(a.servers[0].constructed, true);
  assert.deepEqual(a.servers[0].tools, [0, 1, 2]);
  assert.equal(a.servers[0].span.file, '/ws/src/server.ts');
  assert.deepEqual(unfollowed(a), []);
});

test('TS: a bin script importing the built entry, re-exports and `export *` run their modules', () => {
  const a = entry(
    {
      'bin/cli.js': `#!/usr/bin/env node\nimport "../dist/index.js";\n`,
      'dist/index.js': `export * from "./tools.js";\nexport { x } from "./more.js";\n`,
      'dist/server.js': SERVER_TS,
      'dist/tools.js': `import { server } from "./server.js";\n${tool('listed')}`,
      'dist/more.js': `import { server } from "./server.js";\nexport const x = 1;\n${tool('more')}`,
    },
    'bin/cli.js',
  );
  assert.deepEqual(names(a), ['listed', 'more']);
  assert.deepEqual(
    a.result.graph.modules.map((m) => path.relative('/ws', m)),
    ['bin/cli.js', 'dist/index.js', 'dist/tools.js', 'dist/server.js', 'dist/more.js'],
  );
});

test('TS: `await import("...")` with a literal inside a function runs the module; a computed specifier is a module row', () => {
  const a = entry(
    {
      'index.js': `async function run(kind) {\n  switch (kind) {\n    case "stdio": await import("./stdio.js"); break;\n    default: await import(\`./\${kind}.js\`);\n  }\n}\nawait run(process.argv[2]);\n`,
      'stdio.js': `${SDK}\nconst server = new McpServer({ name: "dyn", version: "1" });\n${tool('dynamic')}`,
    },
    'index.js',
  );
  assert.deepEqual(names(a), ['dynamic']);
  assert.equal(a.servers[0].name, 'dyn');
  assert.deepEqual(unfollowed(a), ['index.js: import() with a computed specifier (`./${kind}.js`): the modules it loads are not followed, their tools are not in this prediction']);
});

test('TS: CommonJS require() of a literal runs the module; a relative module that is not there is a module row (a JSON file is not)', () => {
  const a = entry(
    {
      'main.cjs': `const { McpServer } = require("@modelcontextprotocol/sdk/server/mcp.js");\nconst pkg = require("./package.json");\nconst server = new McpServer({ name: "cjs", version: pkg.version });\nrequire("./tools.cjs")(server);\nrequire("./gone.cjs");\n`,
      'tools.cjs': `module.exports = function register(server) {\n  ${tool('required')}};\n`,
      'package.json': '{"version": "1.0.0"}',
    },
    'main.cjs',
  );
  assert.ok(a.result.graph.modules.includes('/ws/tools.cjs'), 'the required module ran');
  assert.deepEqual(unfollowed(a), ['main.cjs: the module ./gone.cjs is not found next to main.cjs: its tools, if any, are not in this prediction']);
});

test('TS: a server built in a callback the entry hands on (a CLI action, a per-connection factory) is predicted whole', () => {
  const a = entry(
    {
      'cli.ts': `import { program } from "commander";\nimport { start } from "./server.js";\nprogram.action(async (o) => { await start(o.transport); });\nprogram.parse();\n`,
      'server.ts': `${SDK}\nimport { registerAll } from "./tools.js";\nexport function build() {\n  const server = new McpServer({ name: "cb", version: "1" });\n  registerAll(server);\n  return server;\n}\nexport async function start(t: string) {\n  await serveStdio(() => build());\n}\n`,
      'tools.ts': `export function registerAll(server) {\n  ${tool('one')}  ${tool('two')}}\n`,
    },
    'cli.ts',
  );
  assert.deepEqual(names(a), ['one', 'two']);
  assert.equal(a.servers.length, 1);
  assert.equal(a.servers[0].name, 'cb');
  assert.equal(a.servers[0].constructed, true, 'the helper parameter is bound to the constructed server');
});

test('TS: a factory imported and handed to a start-up function as an argument, called through its parameter, is followed', () => {
  // The MCP Apps examples' dist/index.js (server-system-monitor 2.0.3): `import { createServer } from "./server.js"`,
  // `startStdioServer(createServer)` -> `createServer2().connect(...)`; also an arrow function handed on.
  const a = entry(
    {
      'index.ts': `import { createServer } from "./server.js";\nasync function startStdioServer(createServer2) {\n  await createServer2().connect(transport);\n}\nasync function startHttp(make) {\n  const s = make();\n}\nasync function main() {\n  if (process.argv.includes("--stdio")) await startStdioServer(createServer);\n  else await startHttp(() => createServer());\n}\nmain().catch(() => process.exit(1));\n`,
      'server.ts': `${SDK}\nexport function createServer() {\n  const server = new McpServer({ name: "apps", version: "1" });\n  ${tool('get-system-info')}  return server;\n}\n`,
    },
    'index.ts',
  );
  assert.deepEqual(names(a), ['get-system-info']);
  assert.equal(a.servers.length, 1);
  assert.equal(a.servers[0].name, 'apps');
});

test('TS: a server built with a framework Toolsmith does not read (npm fastmcp, @mastra/mcp) is a `tools` row naming it, not an empty prediction', () => {
  const a = entry(
    {
      'server.ts': `import { FastMCP } from "fastmcp";\nimport { z } from "zod";\nconst server = new FastMCP({ name: "Addition", version: "1.0.0" });\nserver.addTool({ name: "add", description: "Add two numbers", parameters: z.object({ a: z.number(), b: z.number() }), execute: async (args) => String(args.a + args.b) });\nserver.start({ transportType: "stdio" });\n`,
      'mastra.ts': `import { MCPServer } from "@mastra/mcp/server";\nexport const m = new MCPServer({ name: "m", version: "1", tools: {} });\n`,
      'main.ts': `import "./server.js";\nimport "./mastra.js";\nimport "./server.js";\n`,
    },
    'main.ts',
  );
  assert.deepEqual(names(a), []);
  assert.deepEqual(
    a.result.graph.unfollowed.map((u) => [u.part, path.basename(u.span.file), u.reason.split(' builds')[0]]),
    [
      ['tools', 'server.ts', '`fastmcp` (npm)'],
      ['tools', 'mastra.ts', '`@mastra/mcp` (npm)'],
    ],
    'one row per framework, where it is imported',
  );
  // The official SDK and zod are packages too, and say nothing.
  assert.deepEqual(entry({ 'ok.ts': `${SERVER_TS}${tool('one')}` }, 'ok.ts').result.graph.unfollowed, []);
});

test('TS: a file registering on a parameter nobody passes from it keeps its tools, in a group that says it is not constructed', () => {
  const a = entry({ 'tools/echo.ts': `export function registerEcho(server) {\n  ${tool('echo')}}\n` }, 'tools/echo.ts');
  assert.deepEqual(names(a), ['echo']);
  assert.equal(a.servers[0].constructed, false);
  assert.equal(a.servers[0].variable, 'server');
});

const FASTMCP = 'from mcp.server.mcpserver import MCPServer\n';
const pyTool = (name: string) => `@mcp.tool()\ndef ${name}() -> str:\n    """${name} it."""\n    return "${name}"\n\n`;

test('Python: `from . import tools` runs where it stands: tools registered before, in, and after the import, in that order', () => {
  const a = entry(
    {
      'app/__init__.py': '',
      'app/server.py': `${FASTMCP}\nmcp = MCPServer("py")\n\n${pyTool('before')}from . import tools  # noqa: E402\n\n${pyTool('after')}if __name__ == "__main__":\n    mcp.run()\n`,
      'app/tools.py': `from .server import mcp\n\n${pyTool('inside')}`,
    },
    'app/server.py',
  );
  assert.deepEqual(names(a), ['before', 'inside', 'after']);
  assert.equal(a.servers.length, 1);
  assert.equal(a.servers[0].name, 'py');
  assert.deepEqual(a.servers[0].tools, [0, 1, 2]);
});

test('Python: __main__.py runs its package first; a module imported twice runs once; a third-party import is not followed', () => {
  const a = entry(
    {
      'pkg/__init__.py': 'from .server import main\n',
      'pkg/__main__.py': 'import requests\nfrom pkg import main\nfrom . import server\n\nmain()\n',
      'pkg/server.py': `${FASTMCP}\nfrom . import tools\nmcp = MCPServer("m")\n\ndef main():\n    from . import tools as again\n    mcp.run()\n`,
      'pkg/tools.py': `from .server import mcp\n\n${pyTool('once')}`,
    },
    'pkg/__main__.py',
  );
  assert.deepEqual(names(a), ['once']);
  assert.deepEqual(
    a.result.graph.modules.map((m) => path.relative('/ws', m)),
    ['pkg/__init__.py', 'pkg/server.py', 'pkg/tools.py', 'pkg/__main__.py'],
  );
  assert.deepEqual(unfollowed(a), []);
});

test('Python: importlib.import_module of a literal is followed, of a computed name is a module row; a missing own module is one too', () => {
  const a = entry(
    {
      'proj/pyproject.toml': '[project]\nname = "proj"\n',
      'proj/main.py': `import importlib\n${FASTMCP}\nmcp = MCPServer("i")\nimportlib.import_module("plugins.fixed")\nfor name in ["x"]:\n    importlib.import_module(f"plugins.{name}")\nfrom plugins import gone\n`,
      'proj/plugins/fixed.py': `from main import mcp\n\n${pyTool('fixed')}`,
    },
    'proj/main.py',
  );
  assert.deepEqual(names(a), ['fixed']);
  assert.deepEqual(unfollowed(a), [
    'main.py: importlib.import_module() with a computed module name (f"plugins.{name}"): the modules it loads are not followed, their tools are not in this prediction',
  ]);
  const missing = entry({ 'p/__init__.py': '', 'p/server.py': `${FASTMCP}from .nowhere import helper\nmcp = MCPServer("x")\n` }, 'p/server.py');
  assert.deepEqual(unfollowed(missing), ['server.py: the module .nowhere is not found in the project: its tools, if any, are not in this prediction']);
});

test('Python: a namespace package (no __init__.py) is importable; its submodules named in `from ns import sub` run', () => {
  const a = entry(
    {
      'app/__init__.py': '',
      'app/server.py': `${FASTMCP}mcp = MCPServer("ns")\nfrom app.extra import more\n`,
      'app/extra/more.py': `from app.server import mcp\n\n${pyTool('more')}`,
    },
    'app/server.py',
  );
  assert.deepEqual(names(a), ['more']);
  assert.deepEqual(unfollowed(a), []);
});

test('entries: package.json bin (built file -> its source), main, and pyproject [project.scripts]; a console script of an installed distribution', () => {
  const host = workspace({
    'pkg/package.json': JSON.stringify({ name: 'x', bin: { x: 'dist/cli.js' }, main: 'dist/index.js' }),
    'pkg/src/cli.ts': '',
    'pkg/dist/index.js': '',
    'py/pyproject.toml': '[project]\nname = "py"\n\n[project.scripts]\npy-server = "py_server.cli:main"\nother = "py_server.missing:main"\n',
    'py/src/py_server/__init__.py': '',
    'py/src/py_server/cli.py': '',
    'venv/site-packages/demo-1.0.dist-info/entry_points.txt': '[console_scripts]\ndemo-mcp = demo.server:run\n',
    'venv/site-packages/demo/server.py': '',
  });
  assert.deepEqual(declaredEntries(host, '/ws/pkg'), {
    entries: [
      { file: '/ws/pkg/src/cli.ts', declaredBy: 'package.json bin "x"' },
      { file: '/ws/pkg/dist/index.js', declaredBy: 'package.json main' },
    ],
    problems: [],
  });
  assert.deepEqual(declaredEntries(host, '/ws/py'), {
    entries: [{ file: '/ws/py/src/py_server/cli.py', declaredBy: 'pyproject.toml [project.scripts] py-server' }],
    problems: ['pyproject.toml [project.scripts] other names py_server.missing, which is not there (not built yet?)'],
  });
  assert.equal(consoleScriptEntry(host, '/ws/venv/site-packages', 'demo-mcp')?.file, '/ws/venv/site-packages/demo/server.py');
});

test('Python: a server mounted on another is listed only through it (renamed), never as a server of its own', () => {
  const a = entry(
    {
      'pkg/__init__.py': '',
      'pkg/__main__.py': 'from pkg.server import mcp\n\nif __name__ == "__main__":\n    mcp.run()\n',
      'pkg/server.py':
        'from fastmcp import FastMCP\nfrom pkg.weather import weather\n\nmcp = FastMCP("main")\n\n@mcp.tool\ndef ping() -> str:\n    """Answer pong."""\n    return "pong"\n\nmcp.mount(weather, namespace="w")\n',
      'pkg/weather.py': 'from fastmcp import FastMCP\n\nweather = FastMCP("weather")\n\n@weather.tool\ndef forecast(city: str) -> str:\n    """Forecast for a city."""\n    return city\n',
    },
    'pkg/__main__.py',
  );
  assert.deepEqual(names(a), ['ping', 'w_forecast']);
  assert.deepEqual(
    a.servers.map((s) => [s.name, s.tools.length]),
    [['main', 2]],
  );
});

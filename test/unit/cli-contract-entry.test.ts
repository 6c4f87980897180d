/**
 * `toolsmith contract <entry file or folder>` (issue 13, "a whole server"): the bundled CLI on small projects — the
 * whole tools/list from an entry that registers nothing itself, `servers` naming which tools each server publishes,
 * an import it cannot follow as a `module` row, a folder's declared entries, and exit 2 where nothing could be
 * analysed. Real packages: test/fidelity/real-world.test.ts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';

const cli = path.resolve(__dirname, '../../dist/cli.js');
const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });

function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-entry-'));
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  return dir;
}

interface ContractJson {
  tools: { name: string }[];
  unresolved: { tool: number | null; name: string | null; part: string; reason: string; file: string; line: number }[];
  servers: { name: string | null; variable: string; framework: string | null; file: string; line: number; constructed: boolean; entry: string; tools: number[] }[];
}

const SDK = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";`;
const tool = (name: string, on = 'server') => `${on}.registerTool("${name}", { description: "${name} it" }, async () => ({ content: [] }));\n`;

const TS_PROJECT = {
  'package.json': JSON.stringify({ name: 'demo', bin: { demo: 'bin/demo.js' } }),
  'bin/demo.js': '#!/usr/bin/env node\nimport "../lib/index.js";\n',
  'lib/index.js': `${SDK}\nimport { registerTools } from "./tools.js";\nconst server = new McpServer({ name: "demo", version: "1.0.0" });\nregisterTools(server);\nconst admin = new McpServer({ name: "admin", version: "1.0.0" });\n${tool('reset', 'admin')}await import(process.env.PLUGIN);\n`,
  'lib/tools.js': `export function registerTools(server) {\n  ${tool('search')}  ${tool('fetch')}}\n`,
};

test('contract <bin script>: the whole tools/list through the imports, one server row per server, an unfollowed import as a module row', () => {
  const dir = project(TS_PROJECT);
  const r = run(dir, 'contract', 'bin/demo.js', '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as ContractJson;
  assert.deepEqual(
    out.tools.map((t) => t.name),
    ['search', 'fetch', 'reset'],
  );
  assert.deepEqual(
    out.servers.map((s) => ({ name: s.name, tools: s.tools, constructed: s.constructed, file: path.relative(dir, s.file), line: s.line, entry: path.relative(dir, s.entry) })),
    [
      { name: 'demo', tools: [0, 1], constructed: true, file: 'lib/index.js', line: 3, entry: 'bin/demo.js' },
      { name: 'admin', tools: [2], constructed: true, file: 'lib/index.js', line: 5, entry: 'bin/demo.js' },
    ],
  );
  assert.deepEqual(
    out.unresolved.map((u) => ({ tool: u.tool, name: u.name, part: u.part, file: path.relative(dir, u.file), line: u.line })),
    [{ tool: null, name: null, part: 'module', file: 'lib/index.js', line: 7 }],
  );
  assert.match(out.unresolved[0].reason, /import\(\) with a computed specifier \(process\.env\.PLUGIN\)/);
  // The text mode: a heading per server (there are two), and the import it could not follow.
  const text = run(dir, 'contract', 'bin/demo.js');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /server "demo" \(.*\): 2 tools, constructed at lib[\\/]index\.js:3/);
  assert.match(text.stdout, /server "admin" \(.*\): 1 tool, constructed at lib[\\/]index\.js:5/);
  assert.match(text.stdout, /unresolved module \(lib[\\/]index\.js:7\): import\(\) with a computed specifier/);
});

test('contract <folder>: the entries package.json declares, each server once; a folder with no entry is exit 2', () => {
  const dir = project(TS_PROJECT);
  const r = run(dir, 'contract', '.', '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as ContractJson;
  // lib/index.js constructs the servers too, but the bin entry already ran it: printed once.
  assert.deepEqual(
    out.servers.map((s) => [s.name, s.tools.map((i) => out.tools[i].name)]),
    [
      ['demo', ['search', 'fetch']],
      ['admin', ['reset']],
    ],
  );
  const empty = project({ 'README.md': '# nothing\n', 'util.ts': 'export const x = 1;\n' });
  const none = run(empty, 'contract', '.');
  assert.equal(none.status, 2);
  assert.match(none.stderr, /no server entry found under \./);
});

test('contract <folder> of a Python project: pyproject [project.scripts] names the entry; a declared script that is not there is exit 2', () => {
  const dir = project({
    'pyproject.toml': '[project]\nname = "weather"\n\n[project.scripts]\nweather-mcp = "weather.cli:main"\nbroken = "weather.gone:main"\n',
    'weather/__init__.py': '',
    'weather/cli.py': 'from weather.server import mcp\n\n\ndef main():\n    mcp.run()\n',
    'weather/server.py': 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("weather")\nfrom weather import tools  # noqa: E402\n',
    'weather/tools.py': 'from weather.server import mcp\n\n\n@mcp.tool()\ndef forecast(city: str) -> str:\n    """Forecast for a city."""\n    return city\n',
  });
  const r = run(dir, 'contract', '.', '--json');
  assert.equal(r.status, 2, 'the declared script that is not there is reported');
  assert.match(r.stderr, /pyproject\.toml \[project\.scripts\] broken names weather\.gone, which is not there/);
  const out = JSON.parse(r.stdout) as ContractJson;
  assert.deepEqual(
    out.tools.map((t) => t.name),
    ['forecast'],
  );
  assert.deepEqual(
    out.servers.map((s) => [s.name, s.framework, path.relative(dir, s.entry)]),
    [['weather', 'mcp-v1', path.join('weather', 'cli.py')]],
  );
});

test('contract <entry> keeps the single-file behaviour: a file registering its own tools prints them, the JSON fields as before plus servers', () => {
  const dir = project({ 'server.ts': `${SDK}\nconst server = new McpServer({ name: "one", version: "1" });\n${tool('ping')}` });
  const out = JSON.parse(run(dir, 'contract', 'server.ts', '--json').stdout) as ContractJson & { converters: unknown[] };
  assert.deepEqual(Object.keys(out), ['tools', 'unresolved', 'converters', 'servers']);
  assert.deepEqual(
    out.tools.map((t) => t.name),
    ['ping'],
  );
  assert.deepEqual(out.unresolved, []);
  assert.equal(out.servers[0].name, 'one');
  assert.equal(run(dir, 'contract', 'missing.ts').status, 2);
  const notSource = run(dir, 'contract', 'README.md');
  assert.equal(notSource.status, 2);
  assert.match(notSource.stderr, /neither a TypeScript\/JavaScript nor a Python file, nor a folder/);
});

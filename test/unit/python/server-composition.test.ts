/**
 * FastMCP server composition (issue 13): mount(), import_server(), providers and transforms. What each form lists on
 * the parent at each major, and that what is not static (a proxy, a provider reading files, a prefix computed at run
 * time, a call the pinned release lacks) is said, never guessed. The contracts are proven live by
 * test/fixtures/py/fidelity/fast_compose_mount.py and fidelity-matrix/fast_compose_*.py at fastmcp 2.14.7, 3.4.11, 4.2.3.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import type { FileHost } from '../../../server/src/analysis/model';
import { analyzeFile } from '../../../server/src/service';
import { DEFAULT_SETTINGS } from '../../../common/settings';

function workspace(files: Record<string, string>): FileHost {
  const all = new Map(Object.entries(files).map(([f, t]) => [`/ws/${f}`, t]));
  return {
    readFile: (f) => all.get(f),
    fileExists: (f) => all.has(f),
    listDir: (d) => [...new Set([...all.keys()].filter((f) => f.startsWith(`${d}/`)).map((f) => f.slice(d.length + 1).split('/')[0]))],
  };
}

function analyze(files: Record<string, string>, entry: string) {
  return analyzePython(`/ws/${entry}`, files[entry], workspace(files), { pythonVersion: [3, 11] });
}

const SUB = [
  'from fastmcp import FastMCP',
  '',
  'weather = FastMCP("weather")',
  '',
  '@weather.tool',
  'def forecast(city: str) -> str:',
  '    """Forecast."""',
  '    return city',
  '',
  '@weather.tool(title="Now")',
  'def current(city: str) -> str:',
  '    """Current."""',
  '    return city',
  '',
].join('\n');

const MAIN = [
  'from fastmcp import FastMCP',
  'from weather import weather',
  '',
  'main = FastMCP("main")',
  '',
  '@main.tool',
  'def ping() -> str:',
  '    """Ping."""',
  '    return "pong"',
  '',
  'main.mount(weather, "w", tool_names={"current": "now"})',
  '',
  '@main.tool',
  'def version() -> str:',
  '    """Version."""',
  '    return "1"',
  '',
].join('\n');

const pinned = (v: string) => `fastmcp==${v}\n`;

test("mount(): a sub-server of another module is listed on the parent, after the parent's own tools, renamed per major", () => {
  const names = (v: string) => analyze({ 'main.py': MAIN, 'weather.py': SUB, 'requirements.txt': pinned(v) }, 'main.py').tools.map((t) => [t.contract.name, t.contract.title ?? null, t.server.id]);
  // 2.x: tool_names replaces the prefixed name; no default titles.
  assert.deepEqual(names('2.14.7'), [
    ['ping', null, '/ws/main.py#main'],
    ['version', null, '/ws/main.py#main'],
    ['w_forecast', null, '/ws/main.py#main'],
    ['now', 'Now', '/ws/main.py#main'],
  ]);
  // 3.x renames, then prefixes.
  assert.deepEqual(
    names('3.4.11').map((n) => n[0]),
    ['ping', 'version', 'w_forecast', 'w_now'],
  );
  // 4.x derives the default title from the published name; an explicit title stays.
  assert.deepEqual(names('4.2.3'), [
    ['ping', 'Ping', '/ws/main.py#main'],
    ['version', 'Version', '/ws/main.py#main'],
    ['w_forecast', 'W Forecast', '/ws/main.py#main'],
    ['w_now', 'Now', '/ws/main.py#main'],
  ]);
  for (const v of ['2.14.7', '3.4.11', '4.2.3'])
    assert.deepEqual(
      analyze({ 'main.py': MAIN, 'weather.py': SUB, 'requirements.txt': pinned(v) }, 'main.py').tools.flatMap((t) => t.unresolved),
      [],
      v,
    );
});

test('mount(): nested and same-module sub-servers; a mounted server is listed only through its parent', () => {
  const text = [
    'from fastmcp import FastMCP',
    'main = FastMCP("main")',
    'child = FastMCP("child")',
    'leaf = FastMCP("leaf")',
    '@leaf.tool',
    'def deep() -> str:',
    '    return "x"',
    'child.mount(leaf, "l")',
    'main.mount(child, "c")',
    '@child.tool',
    'def later() -> str:',
    '    return "y"',
    '',
  ].join('\n');
  const { tools } = analyze({ 'main.py': text, 'requirements.txt': pinned('4.2.3') }, 'main.py');
  assert.deepEqual(
    tools.map((t) => t.contract.name),
    ['c_later', 'c_l_deep'],
  );
});

test('import_server(): the tools the sub-server has when the call runs, in place; 4.x has no import_server and the server fails', () => {
  const text = [
    'import asyncio',
    'from fastmcp import FastMCP',
    'main = FastMCP("main")',
    'sub = FastMCP("sub")',
    '@main.tool',
    'def first() -> str:',
    '    return "1"',
    '@sub.tool',
    'def copied() -> str:',
    '    return "2"',
    'async def setup():',
    '    await main.import_server(sub, "s")',
    'asyncio.run(setup())',
    '@sub.tool',
    'def too_late() -> str:',
    '    return "3"',
    '@main.tool',
    'def last() -> str:',
    '    return "4"',
    '',
  ].join('\n');
  const at = (v: string) => analyze({ 'main.py': text, 'requirements.txt': pinned(v) }, 'main.py').tools;
  assert.deepEqual(
    at('3.4.11').map((t) => t.contract.name),
    ['first', 's_copied', 'last'],
  );
  const failing = at('4.2.3');
  assert.ok(failing.length > 0);
  for (const t of failing)
    assert.ok(
      t.unresolved.some((u) => u.part === 'contract' && /has no import_server\(\).*lists no tools/.test(u.reason)),
      String(t.name.value),
    );
});

test('keywords and orders a release does not take fail the server, with the reason', () => {
  const base = 'from fastmcp import FastMCP\nmain = FastMCP("m")\nsub = FastMCP("s")\n@sub.tool\ndef a() -> str:\n    return "a"\n';
  const reasons = (call: string, v: string) => analyze({ 'main.py': base + call + '\n', 'requirements.txt': pinned(v) }, 'main.py').tools.flatMap((t) => t.unresolved.map((u) => u.reason));
  assert.match(reasons('main.mount(sub, prefix="p")', '4.2.3').join('\n'), /mount\(\) takes no prefix= keyword.*TypeError/);
  assert.deepEqual(reasons('main.mount(sub, prefix="p")', '3.4.11'), []);
  assert.match(reasons('main.mount(sub, namespace="p")', '2.14.7').join('\n'), /no namespace= keyword/);
  assert.match(reasons('main.add_provider(sub, namespace="p")', '2.14.7').join('\n'), /has no add_provider\(\)/);
  for (const v of ['2.14.7', '3.4.11', '4.2.3']) assert.match(reasons('main.mount("p", sub)', v).join('\n'), /takes the server first/, v);
  // A range kept below 2.14 installs a release that takes (prefix, server): read in that order, the rest unverified.
  const old = analyze({ 'main.py': base + 'main.mount("p", sub)\n', 'requirements.txt': 'fastmcp>=2.3.4,<2.4.0\n' }, 'main.py').tools;
  assert.deepEqual(
    old.map((t) => t.contract.name),
    ['p_a'],
  );
  assert.doesNotMatch(old[0].unresolved.map((u) => u.reason).join('\n'), /takes the server first/);
});

test('providers, a Namespace transform over the whole list, and what is not static: stand-in tools and unresolved names', () => {
  const text = [
    'import os',
    'from fastmcp import FastMCP',
    'from fastmcp.server.providers import FastMCPProvider, FileSystemProvider',
    'from fastmcp.server.transforms import Namespace',
    'extra = FastMCP("extra")',
    '@extra.tool',
    'def lookup() -> str:',
    '    return "x"',
    'main = FastMCP("main", providers=[extra, FileSystemProvider("tools")])',
    '@main.tool',
    'def health() -> str:',
    '    return "ok"',
    'side = FastMCP("side")',
    '@side.tool',
    'def hidden() -> str:',
    '    return "h"',
    'main.add_provider(FastMCPProvider(side), namespace=os.environ["NS"])',
    'main.add_transform(Namespace("api"))',
    '',
  ].join('\n');
  const { tools } = analyze({ 'main.py': text, 'requirements.txt': pinned('4.2.3') }, 'main.py');
  assert.deepEqual(
    tools.map((t) => t.contract.name ?? null),
    ['api_health', 'api_lookup', null, null],
  );
  assert.match(tools[2].unresolved.map((u) => u.reason).join('\n'), /FileSystemProvider\(\.\.\.\) imports the Python files of a directory at run time/);
  assert.equal(tools[3].name.value, undefined);
  assert.match(tools[3].unresolved.map((u) => `${u.part}: ${u.reason}`).join('\n'), /name: the provider namespace os\.environ\["NS"\] is computed at run time/);
});

test("the SDK's servers have no mount(): the server fails at import", () => {
  const text = 'from mcp.server import MCPServer\nmcp = MCPServer("x")\nother = MCPServer("y")\n@mcp.tool()\ndef a() -> str:\n    """A."""\n    return "a"\nmcp.mount(other)\n';
  const { tools } = analyze({ 'main.py': text }, 'main.py');
  assert.match(tools[0].unresolved.map((u) => u.reason).join('\n'), /has no mount\(\).*AttributeError/);
});

test('a mounted tool keeps the span of its own name: a rename fix does not rewrite it with the prefixed name', () => {
  const sub = 'from fastmcp import FastMCP\nsub = FastMCP("s")\n@sub.tool(name="bad name")\ndef a() -> str:\n    """A."""\n    return "a"\n';
  const main = 'from fastmcp import FastMCP\nfrom sub import sub\nmain = FastMCP("m")\nmain.mount(sub, "p")\n';
  const files = { 'main.py': main, 'sub.py': sub, 'requirements.txt': pinned('4.2.3') };
  const host = workspace(files);
  const settings = { ...DEFAULT_SETTINGS, rules: { 'tool-name-invalid': 'warning' as const } };
  const finding = analyzeFile('/ws/main.py', main, host, settings).findings.find((d) => d.ruleId === 'tool-name-invalid');
  assert.ok(finding, 'the prefixed name is still checked');
  assert.match(finding.message, /"p_bad name"/);
  assert.deepEqual(finding.fixes, []);
  // In its own module the literal reads the name: the fix is offered there.
  const own = analyzeFile('/ws/sub.py', sub, host, settings).findings.find((d) => d.ruleId === 'tool-name-invalid');
  assert.equal(own?.fixes.length, 1);
});

test("an installed package is predicted for the framework release installed beside it, not its range's newest", () => {
  const site = 'venv/lib/python3.11/site-packages';
  const files: Record<string, string> = {
    [`${site}/pkg/server.py`]: 'from fastmcp import FastMCP\nmain = FastMCP("m")\nsub = FastMCP("s")\n@sub.tool\ndef a() -> str:\n    return "a"\nmain.mount(sub, prefix="p")\n',
    [`${site}/pkg-1.0.dist-info/METADATA`]: 'Name: pkg\nVersion: 1.0\nRequires-Dist: fastmcp>=2.12\n',
    [`${site}/fastmcp-2.14.7.dist-info/METADATA`]: 'Name: fastmcp\nVersion: 2.14.7\n',
  };
  const { tools } = analyze(files, `${site}/pkg/server.py`);
  // Predicted for 2.14.7 (prefix= works, verified); the pin rules read stays the declared range.
  assert.equal(tools[0].contract.name, 'p_a');
  assert.deepEqual(tools[0].unresolved, []);
  assert.equal(tools[0].frameworkVersion, '>=2.12');
  // Without an installed fastmcp the range's newest, 4.x, is predicted: its mount() has no prefix=.
  delete files[`${site}/fastmcp-2.14.7.dist-info/METADATA`];
  assert.match(
    analyze(files, `${site}/pkg/server.py`)
      .tools[0].unresolved.map((u) => u.reason)
      .join('\n'),
    /fastmcp 4\.2\.3's mount\(\) takes no prefix= keyword/,
  );
});

test('a sub-server reached as an attribute of a workspace module (`from tools import patient`; `mount(patient.router)`)', () => {
  const files = {
    'tools/__init__.py': '',
    'tools/patient.py': 'from fastmcp import FastMCP\nrouter = FastMCP("patient")\n@router.tool\ndef lookup(pid: str) -> str:\n    """Find a patient."""\n    return pid\n',
    'main.py': 'from fastmcp import FastMCP\nfrom tools import patient\nmain = FastMCP("main")\nmain.mount(patient.router)\n',
    'requirements.txt': pinned('4.2.3'),
  };
  const { tools } = analyze(files, 'main.py');
  assert.deepEqual(
    tools.map((t) => [t.contract.name, t.server.id, t.unresolved.length]),
    [['lookup', '/ws/main.py#main', 0]],
  );
});

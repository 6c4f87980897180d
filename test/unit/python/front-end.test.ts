/**
 * Python front-end, construct by construct: what the rules read (spans, docstring Args, handler facts,
 * registration shape, unresolved parts) on small inline sources. Contract exactness itself is proven
 * against the real frameworks in test/fidelity/python.test.ts.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import type { FileHost, ToolDefinition } from '../../../server/src/analysis/model';
import { rangeSemantics } from '../../../server/src/analysis/python/versions';

function host(files: Record<string, string> = {}): FileHost {
  return { readFile: (f) => files[f], fileExists: (f) => f in files };
}

const FILE = '/ws/server.py';
function analyze(src: string, files: Record<string, string> = {}) {
  return analyzePython(FILE, src, host(files));
}
function tool(src: string, name?: string, files: Record<string, string> = {}): ToolDefinition {
  const r = analyze(src, files);
  const t = name ? r.tools.find((x) => x.name.value === name) : r.tools[0];
  assert.ok(t, `no tool ${name ?? ''} in ${JSON.stringify(r.tools.map((x) => x.name.value))}`);
  return t;
}
const at = (src: string, span: { start: number; end: number }) => src.slice(span.start, span.end);

test('MCPServer decorator: name, description from the raw docstring, parameter spans and schema', () => {
  const src = `from mcp.server import MCPServer\nmcp = MCPServer("demo")\n\n@mcp.tool()\ndef add(a: int, b: int = 2) -> int:\n    """Add.\n\n    Args:\n        a: first\n    """\n    return a + b\n`;
  const t = tool(src, undefined, { '/ws/.python-version': '3.12\n' });
  assert.equal(t.framework, 'mcp');
  assert.equal(t.name.value, 'add');
  assert.equal(t.contract.description, 'Add.\n\n    Args:\n        a: first\n    ');
  assert.equal(t.description?.origin, 'docstring');
  assert.equal(t.registration.kind, 'decorator');
  assert.equal(t.registration.decoratorCalled, true);
  assert.equal(at(src, t.registration.calleeSpan), 'mcp.tool');
  const [a, b] = t.parameters;
  assert.equal(at(src, a.nameSpan), 'a');
  assert.equal(a.typeText, 'int');
  assert.deepEqual(a.schema, { title: 'A', type: 'integer' });
  assert.equal(a.required, true);
  assert.equal(a.description, undefined, 'the official SDK never reads Args: into parameter descriptions');
  assert.equal(b.required, false);
  assert.equal(b.defaultValue?.value, 2);
  assert.equal(at(src, b.defaultValue.span), '2');
  // The Args section is still parsed for the rules (docstring-args-not-in-schema).
  assert.deepEqual(
    t.docstring?.args.map((x) => [x.name, x.description, at(src, x.span)]),
    [['a', 'first', 'a: first']],
  );
  assert.ok(t.docstring?.argsSectionSpan && at(src, t.docstring.argsSectionSpan).startsWith('Args:'));
  assert.equal(t.server.name, 'demo');
  assert.equal(t.handler?.returnAnnotation, 'int');
});

test('FastMCP bare decorator: Args become parameter descriptions with docstring origin', () => {
  const src = `from fastmcp import FastMCP\napp = FastMCP("x")\n@app.tool\ndef greet(name: str) -> str:\n    """Say hi.\n\n    Args:\n        name: who to greet\n    """\n    return name\n`;
  const t = tool(src);
  assert.equal(t.framework, 'fastmcp');
  assert.equal(t.registration.decoratorCalled, false);
  assert.equal(t.contract.description, 'Say hi.');
  assert.equal(t.contract.title, 'Greet');
  const p = t.parameters[0];
  assert.equal(p.description?.value, 'who to greet');
  assert.equal(p.description?.origin, 'docstring');
  assert.equal(at(src, p.description.span), 'name: who to greet');
  assert.deepEqual(p.schema, { type: 'string', description: 'who to greet' });
});

test('official SDK bare @mcp.tool is reported uncalled (decorator-not-called reads it)', () => {
  const t = tool(`from mcp.server import MCPServer\nmcp = MCPServer()\n@mcp.tool\ndef f(x: int): ...\n`);
  assert.equal(t.registration.decoratorCalled, false);
});

test('Field constraints carry spans and JSON keywords', () => {
  const src = `from typing import Annotated\nfrom pydantic import Field\nfrom mcp.server import MCPServer\nmcp = MCPServer()\n@mcp.tool()\ndef s(q: Annotated[str, Field(description="query", max_length=50)], n: int = Field(10, ge=1, le=100)) -> str:\n    return ""\n`;
  const t = tool(src);
  const [q, n] = t.parameters;
  assert.equal(q.description?.origin, 'field');
  assert.equal(q.description?.value, 'query');
  assert.deepEqual(
    q.constraints.map((c) => [c.keyword, c.value, at(src, c.span)]),
    [
      ['maxLength', 50, '50'],
      ['description', 'query', '"query"'],
    ],
  );
  assert.deepEqual(
    n.constraints.filter((c) => c.keyword !== 'default').map((c) => [c.keyword, c.value]),
    [
      ['minimum', 1],
      ['maximum', 100],
    ],
  );
  assert.equal(n.required, false);
  assert.deepEqual(n.schema, { default: 10, maximum: 100, minimum: 1, title: 'N', type: 'integer' });
});

test('untyped parameters are flagged and get the SDK string schema', () => {
  const t = tool(`from mcp.server import MCPServer\nmcp = MCPServer()\n@mcp.tool()\ndef f(x, y: int = 1): ...\n`);
  assert.equal(t.parameters[0].untyped, true);
  assert.equal(t.parameters[0].typeSpan, undefined);
  assert.deepEqual(t.parameters[0].schema, { title: 'x', type: 'string' });
  assert.equal(t.parameters[1].untyped, false);
});

test('Context parameters are injected and left out; keyword-only kind recorded', () => {
  const src = `from mcp.server.mcpserver import Context, MCPServer\nmcp = MCPServer()\n@mcp.tool()\nasync def f(a: int, ctx: Context, *, b: str = "x") -> str: ...\n`;
  const t = tool(src);
  assert.deepEqual(
    t.parameters.map((p) => [p.name, p.pythonKind]),
    [
      ['a', 'positional'],
      ['b', 'keyword'],
    ],
  );
  assert.deepEqual(Object.keys((t.contract.inputSchema as { properties: object }).properties), ['a', 'b']);
  assert.equal(t.handler?.isAsync, true);
});

test('annotations: ToolAnnotations(...) and dict entries with key and value spans', () => {
  const src = `from mcp.server import MCPServer\nfrom mcp.types import ToolAnnotations\nmcp = MCPServer()\n@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))\ndef a(): ...\n@mcp.tool(annotations={"destructiveHint": False})\ndef b(): ...\n`;
  const [a, b] = analyze(src).tools;
  assert.deepEqual(
    a.annotations?.entries.map((e) => [e.key, e.value, at(src, e.keySpan), at(src, e.span), e.valueSpan && at(src, e.valueSpan)]),
    [['readOnlyHint', true, 'readOnlyHint', 'readOnlyHint=True', 'True']],
  );
  assert.deepEqual(a.contract.annotations, { readOnlyHint: true });
  assert.deepEqual(
    b.annotations?.entries.map((e) => [e.key, e.value, at(src, e.keySpan)]),
    [['destructiveHint', false, '"destructiveHint"']],
  );
  assert.ok(a.registration.configSpan && at(src, a.registration.configSpan).startsWith('(annotations='));
});

test('explicit name/title/description override the function and docstring', () => {
  const src = `from mcp.server import MCPServer\nmcp = MCPServer()\n@mcp.tool(name="find_user", title="Find", description="Finds a user.")\ndef f():\n    """ignored"""\n`;
  const t = tool(src);
  assert.equal(t.name.value, 'find_user');
  assert.equal(at(src, t.name.span), '"find_user"');
  assert.equal(t.title?.value, 'Find');
  assert.equal(t.description?.origin, 'explicit');
  assert.equal(t.contract.description, 'Finds a user.');
});

test('non-literal name is unresolved with its span, never guessed', () => {
  const src = `from mcp.server import MCPServer\nmcp = MCPServer()\nNAME = make()\n@mcp.tool(name=NAME)\ndef f(): ...\n`;
  const t = tool(src);
  assert.equal(t.name.value, undefined);
  assert.ok(t.unresolved.some((u) => u.part === 'name' && at(src, u.span) === 'NAME'));
});

test('unknown annotation types are unresolved for that property only', () => {
  const src = `from mcp.server import MCPServer\nfrom somewhere import Thing\nmcp = MCPServer()\n@mcp.tool()\ndef f(a: Thing, b: int) -> str: ...\n`;
  const t = tool(src);
  const u = t.unresolved.find((x) => x.part === 'inputSchema.properties.a');
  assert.ok(u, JSON.stringify(t.unresolved));
  assert.equal(at(src, u.span), 'Thing');
  assert.deepEqual(t.parameters[1].schema, { title: 'B', type: 'integer' });
});

test('add_tool registration and import aliases', () => {
  const src = `from mcp.server import MCPServer as S\nsrv = S("n")\ndef archive(item: int) -> str:\n    """Archive."""\nsrv.add_tool(archive, name="archive_item")\n`;
  const t = tool(src);
  assert.equal(t.registration.kind, 'add_tool');
  assert.equal(t.name.value, 'archive_item');
  assert.equal(at(src, t.registration.calleeSpan), 'srv.add_tool');
  assert.equal(t.server.variable, 'srv');
});

test('factory function: tools registered on the server it builds', () => {
  const src = `from fastmcp import FastMCP\ndef build():\n    s = FastMCP("f")\n    @s.tool\n    def ping() -> str:\n        return "pong"\n    return s\napp = build()\n`;
  const r = analyze(src);
  assert.deepEqual(
    r.tools.map((t) => t.name.value),
    ['ping'],
  );
  assert.equal(r.tools[0].server.name, 'f');
});

test('v1 import facts and framework', () => {
  const src = `from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("old")\n@mcp.tool()\ndef f(x: int) -> str: ...\n`;
  const r = analyze(src);
  assert.equal(r.files[0].framework, 'mcp-v1');
  assert.equal(r.files[0].v1Imports.length, 1);
  assert.equal(at(src, r.files[0].v1Imports[0].span), 'from mcp.server.fastmcp import FastMCP');
  assert.equal(r.tools[0].framework, 'mcp-v1');
  assert.equal(r.files[0].servers[0].variable, 'mcp');
});

test('handler facts: resolved callees, params reaching args, shell=True, awaits, returns, raises, leaks', () => {
  const src = [
    'import subprocess, os, time, traceback',
    'import requests as rq',
    'from mcp.server import MCPServer',
    'mcp = MCPServer()',
    '@mcp.tool()',
    'def run(cmd: str, path: str) -> dict:',
    '    full = "x " + cmd',
    '    subprocess.run(full, shell=True)',
    '    os.system(cmd)',
    '    time.sleep(1)',
    '    rq.get(path)',
    '    try:',
    '        open(path).read()',
    '    except Exception as e:',
    '        return {"error": str(e), "trace": traceback.format_exc()}',
    '    if not cmd:',
    '        raise ValueError("cmd is empty")',
    '    return {"ok": True}',
  ].join('\n');
  const h = tool(src).handler!;
  const call = (c: string) => h.calls.find((x) => x.callee === c);
  assert.deepEqual(call('subprocess.run')?.paramsInArgs, ['cmd']);
  assert.equal(call('subprocess.run')?.shell, true);
  assert.deepEqual(call('os.system')?.paramsInArgs, ['cmd']);
  assert.ok(call('time.sleep'));
  assert.deepEqual(call('requests.get')?.paramsInArgs, ['path']);
  assert.equal(h.isAsync, false);
  const errReturn = h.returns[0];
  assert.equal(errReturn.looksLikeError, true);
  assert.equal(errReturn.valueKind, 'object');
  assert.deepEqual(errReturn.leaks.map((l) => l.kind).sort(), ['stringified-error', 'traceback']);
  assert.equal(h.returns[1].looksLikeError, false);
  assert.deepEqual(
    h.raises.map((r) => [r.exception, r.message]),
    [['ValueError', 'cmd is empty']],
  );
  assert.equal(h.hasPathContainmentCheck, false);
});

test('awaited calls and path containment check', () => {
  const src = `import httpx\nfrom pathlib import Path\nfrom fastmcp import FastMCP\napp = FastMCP()\nROOT = Path("/srv")\n@app.tool\nasync def read(p: str) -> str:\n    target = (ROOT / p).resolve()\n    if not target.is_relative_to(ROOT):\n        raise ValueError("outside")\n    async with httpx.AsyncClient() as client:\n        r = await client.get(p)\n    return target.read_text()\n`;
  const h = tool(src).handler!;
  assert.equal(h.hasPathContainmentCheck, true);
  const get = h.calls.find((c) => c.callee === 'httpx.AsyncClient.get');
  assert.ok(get, JSON.stringify(h.calls.map((c) => c.callee)));
  assert.equal(get.awaited, true);
});

test('workspace models imported from another file become $defs; the file is a dependency', () => {
  const models = `from pydantic import BaseModel\nclass User(BaseModel):\n    """A user."""\n    name: str\n`;
  const src = `from mcp.server import MCPServer\nfrom models import User\nmcp = MCPServer()\n@mcp.tool()\ndef save(user: User) -> str: ...\n`;
  const r = analyze(src, { '/ws/models.py': models });
  const schema = r.tools[0].contract.inputSchema as { $defs: Record<string, unknown>; properties: Record<string, unknown> };
  assert.deepEqual(schema.properties.user, { $ref: '#/$defs/User' });
  assert.deepEqual(schema.$defs.User, { properties: { name: { title: 'Name', type: 'string' } }, required: ['name'], title: 'User', type: 'object', description: 'A user.' });
  assert.deepEqual(r.files[0].dependencies, ['/ws/models.py']);
});

test('framework version from requirements.txt, uv.lock and pyproject.toml', () => {
  const src = `from fastmcp import FastMCP\napp = FastMCP()\n@app.tool\ndef f(): ...\n`;
  assert.equal(analyze(src, { '/ws/requirements.txt': 'fastmcp==4.2.3\n' }).tools[0].frameworkVersion, '4.2.3');
  assert.equal(analyze(src, { '/ws/uv.lock': '[[package]]\nname = "fastmcp"\nversion = "4.1.0"\n' }).tools[0].frameworkVersion, '4.1.0');
  const old = analyze(src, { '/ws/pyproject.toml': '[project]\ndependencies = ["fastmcp>=2.10,<3"]\n' }).tools[0];
  assert.equal(old.frameworkVersion, '>=2.10,<3');
  assert.ok(
    old.unresolved.some((u) => u.part === 'contract'),
    'a fastmcp 2.x pin must not be predicted as 4.x silently',
  );
});

test('syntax errors are reported and the tools before and after still come out', () => {
  const src = `from mcp.server import MCPServer\nmcp = MCPServer()\n@mcp.tool()\ndef ok1(a: int) -> str: ...\ndef broken(:\n    pass\n@mcp.tool()\ndef ok2(b: str) -> str: ...\n`;
  const r = analyze(src);
  assert.ok(r.files[0].syntaxErrors.length > 0);
  assert.deepEqual(
    r.tools.map((t) => t.name.value),
    ['ok1', 'ok2'],
  );
});

test('half-typed code never throws', () => {
  const partial = ['from mcp.server import MCPServer\nmcp = MCPServer(', '@mcp.tool(name=\ndef f(a: Annotated[', '@mcp.tool()\ndef f(a: list[', '@app.tool\nasync def'];
  for (const src of partial) assert.doesNotThrow(() => analyze(src));
});

test('sphinx docstrings under FastMCP are unresolved, not guessed', () => {
  const src = `from fastmcp import FastMCP\napp = FastMCP()\n@app.tool\ndef f(a: int):\n    """Do.\n\n    :param a: the a\n    """\n`;
  const t = tool(src);
  assert.ok(t.unresolved.some((u) => u.part === 'description'));
});

test('mcp 1.x import: exact for the verified pinned 1.30.0, unverified for other or unknown versions, failing under mcp 2.x', () => {
  const src = `from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("old")\n@mcp.tool()\ndef f(x: int) -> str: ...\n`;
  const contractNotes = (files: Record<string, string>) =>
    tool(src, undefined, files)
      .unresolved.filter((u) => u.part === 'contract')
      .map((u) => u.reason);
  assert.deepEqual(contractNotes({ '/ws/requirements.txt': 'mcp==1.30.0\n' }), [], 'proven live for 1.30.0 (test/fidelity/python.test.ts)');
  assert.deepEqual(contractNotes({ '/ws/uv.lock': '[[package]]\nname = "mcp"\nversion = "1.30.0"\n' }), []);
  const older = contractNotes({ '/ws/requirements.txt': 'mcp==1.9.4\n' });
  assert.equal(older.length, 1);
  assert.match(older[0], /pins mcp 1\.9\.4.*not verified for 1\.9\.4/);
  const range = contractNotes({ '/ws/pyproject.toml': '[project]\ndependencies = ["mcp>=1.20,<2"]\n' });
  assert.equal(range.length, 1, 'a range may resolve to any 1.x: not verified');
  const unknown = contractNotes({});
  assert.equal(unknown.length, 1);
  assert.match(unknown[0], /no pinned version/);
  const two = contractNotes({ '/ws/requirements.txt': 'mcp==2.3.0\n' });
  assert.match(two[0], /no mcp\.server\.fastmcp module.*ModuleNotFoundError/);
});

test('mcp 1.x: a content-block return type publishes the mcp.types model schema there; reported unresolved, not guessed', () => {
  const src = `from mcp.server.fastmcp import FastMCP\nfrom mcp.types import TextContent\nmcp = FastMCP("old")\n@mcp.tool()\ndef f() -> TextContent: ...\n@mcp.tool()\ndef g() -> list[TextContent]: ...\n`;
  const r = analyzePython(FILE, src, host({ '/ws/requirements.txt': 'mcp==1.30.0\n' }));
  for (const t of r.tools) {
    assert.equal(t.contract.outputSchema, undefined, t.name.value);
    assert.ok(
      t.unresolved.some((u) => u.part === 'outputSchema' && /mcp 1\.30\.0 publishes the pydantic schema/.test(u.reason)),
      JSON.stringify(t.unresolved),
    );
  }
  // The same tools under mcp 2.x: content blocks publish no output schema, exactly (proven in the fidelity suite).
  const v2 = analyze(src.replace('from mcp.server.fastmcp import FastMCP', 'from mcp.server import MCPServer as FastMCP'));
  for (const t of v2.tools) assert.deepEqual(t.unresolved, [], t.name.value);
});

test('Python version from the workspace decides the published docstring (3.13+ strips indentation); unknown -> unresolved', () => {
  const src = `from mcp.server import MCPServer\nmcp = MCPServer()\n@mcp.tool()\ndef f() -> str:\n    """Find notes.\n\n    Use for any notes question.\n    """\n    return ""\n`;
  const verbatim = 'Find notes.\n\n    Use for any notes question.\n    ';
  const stripped = 'Find notes.\n\nUse for any notes question.\n';
  const published = (files: Record<string, string>) => {
    const t = tool(src, undefined, files);
    return { description: t.contract.description, unresolved: t.unresolved.filter((u) => u.part === 'description').map((u) => u.reason), text: t.description?.value };
  };
  assert.equal(published({ '/ws/.python-version': '3.12.4\n' }).description, verbatim);
  assert.equal(published({ '/ws/.python-version': '3.13\n' }).description, stripped);
  assert.equal(published({ '/ws/.venv/pyvenv.cfg': 'home = /usr/bin\nversion = 3.14.0\n' }).description, stripped);
  assert.equal(published({ '/ws/.venv/pyvenv.cfg': 'version_info = 3.11.7.final.0\n', '/ws/.python-version': '3.13\n' }).description, verbatim, 'the venv that runs wins');
  assert.equal(published({ '/ws/pyproject.toml': '[project]\nrequires-python = ">=3.13"\n' }).description, stripped);
  assert.equal(published({ '/ws/pyproject.toml': '[project]\nrequires-python = ">=3.10,<3.13"\n' }).description, verbatim);
  // A range across 3.13, or nothing at all: the description is left out of the contract and said to be unresolved.
  const undecided: Record<string, string>[] = [{ '/ws/pyproject.toml': '[project]\nrequires-python = ">=3.10"\n' }, {}];
  for (const files of undecided) {
    const p = published(files);
    assert.equal(p.description, undefined, JSON.stringify(files));
    assert.equal(p.unresolved.length, 1);
    assert.match(p.unresolved[0], /3\.13\+ strips its indentation/);
    assert.equal(p.text, verbatim, 'the rules still read the docstring text');
  }
  // A one-line docstring, an explicit description=, and FastMCP (which cleans docstrings itself) never depend on it.
  assert.equal(tool(src.replace('"""Find notes.\n\n    Use for any notes question.\n    """', '"""Find notes."""')).contract.description, 'Find notes.');
  assert.equal(tool(src.replace('@mcp.tool()', '@mcp.tool(description="Finds notes.")')).unresolved.length, 0);
  const fast = tool(src.replace('from mcp.server import MCPServer\nmcp = MCPServer()', 'from fastmcp import FastMCP\nmcp = FastMCP()'));
  assert.equal(fast.contract.description, 'Find notes.\n\nUse for any notes question.');
  assert.deepEqual(fast.unresolved, []);
});

test('requires-python ranges: one side of 3.13 or unknown', () => {
  const cases: [string, string][] = [
    ['>=3.13', '3.13+'],
    ['>=3.10', 'unknown'],
    ['>=3.10,<3.13', 'pre-3.13'],
    ['<3.13.1', 'unknown'],
    ['<=3.12', 'pre-3.13'],
    ['==3.12.*', 'pre-3.13'],
    ['~=3.12', 'unknown'],
    ['~=3.12.1', 'pre-3.13'],
    ['^3.13', '3.13+'],
    ['>3.12', 'unknown'],
    ['nonsense', 'unknown'],
  ];
  for (const [spec, want] of cases) assert.equal(rangeSemantics(spec), want, spec);
});

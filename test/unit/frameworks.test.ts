/**
 * The framework profile table (common/frameworks.ts) against the code that reads it: every constructor it lists is
 * recognised by the Python front-end as its framework, every option it says a framework reads is modelled, and the
 * scan / playground hints find a minimal server of each framework. A wrong or incomplete entry fails here.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { acceptsToolOption, constructsServer, FRAMEWORK_NAMES, FRAMEWORKS, frameworkOfConstructor, mayDefineTools, type Framework } from '../../common/frameworks';
import { analyzePython } from '../../server/src/analysis/python';
import type { FileHost } from '../../server/src/analysis/model';
import { detectCandidate } from '../../client/src/servers/discovery';

const noFiles: FileHost = { readFile: () => undefined, fileExists: () => false };
const PYTHON = FRAMEWORK_NAMES.filter((f) => FRAMEWORKS[f].language === 'python');

/** `from mcp.server import MCPServer` + a server built with it + one tool registered with `options`. */
function pythonServer(qualified: string, options = ''): string {
  const cls = qualified.slice(qualified.lastIndexOf('.') + 1);
  return `from ${qualified.slice(0, qualified.lastIndexOf('.'))} import ${cls}\nserver = ${cls}("demo")\n\n@server.tool(${options})\nasync def ping() -> str:\n    """Answer pong."""\n    return "pong"\n\nserver.run()\n`;
}

test('every framework has a UI label, a name for messages and the package its version is read from', () => {
  for (const f of FRAMEWORK_NAMES) {
    const p = FRAMEWORKS[f];
    assert.ok(p.label.trim() && p.name.trim() && p.versionPackage.trim(), f);
    assert.ok(p.serverClasses.length > 0, `${f}: no server class`);
  }
  assert.equal(new Set(FRAMEWORK_NAMES.map((f) => FRAMEWORKS[f].label)).size, FRAMEWORK_NAMES.length, 'two frameworks share a label');
});

test('each Python constructor name belongs to one framework, whose language is python, and the front-end builds servers of it', () => {
  const owners = new Map<string, Framework>();
  for (const f of PYTHON) {
    const p = FRAMEWORKS[f];
    assert.ok(p.errorModule, `${f}: no ToolError module`);
    assert.notEqual(p.docstring, 'none', `${f}: Python has docstrings`);
    for (const q of p.serverClasses) {
      assert.match(q, /^[a-z_]\w*(\.\w+)+$/, `${f}: ${q} is not a qualified name`);
      assert.equal(owners.get(q), undefined, `${q} is listed by ${owners.get(q)} and ${f}`);
      owners.set(q, f);
      assert.equal(frameworkOfConstructor(q), f, q);
      const r = analyzePython('/ws/server.py', pythonServer(q), noFiles);
      assert.deepEqual(
        r.tools.map((t) => [t.name.value, t.framework]),
        [['ping', f]],
        q,
      );
      assert.equal(r.files[0].framework, f, q);
    }
  }
  for (const f of FRAMEWORK_NAMES.filter((x) => FRAMEWORKS[x].language !== 'python'))
    for (const c of FRAMEWORKS[f].serverClasses) assert.equal(frameworkOfConstructor(c), undefined, `${c} (${f}) is not a Python constructor`);
});

test('the tool options a framework reads are modelled; the others are reported as not modelled', () => {
  const options = new Set(PYTHON.flatMap((f) => FRAMEWORKS[f].toolOptions));
  for (const f of PYTHON) {
    for (const key of options) {
      const r = analyzePython('/ws/server.py', pythonServer(FRAMEWORKS[f].serverClasses[0], `${key}=None`), noFiles);
      const notModelled = r.tools[0].unresolved.some((u) => u.reason === `argument ${key}= is not modelled by the analyser`);
      assert.equal(notModelled, !acceptsToolOption(f, key), `${f} ${key}=`);
    }
  }
});

test('the scan and the playground find a minimal server of every framework, and nothing in plain code', () => {
  for (const f of PYTHON) {
    for (const q of FRAMEWORKS[f].serverClasses) {
      const src = pythonServer(q);
      assert.ok(mayDefineTools(src), `${q}: the scan would skip its servers`);
      assert.ok(FRAMEWORKS[f].serverHint.test(src), `${q}: its serverHint misses it`);
      assert.equal(detectCandidate('/ws/server.py', src), 'python', q);
    }
  }
  const ts = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\nconst server = new McpServer({ name: "demo", version: "1.0.0" });\nserver.registerTool("ping", {}, async () => ({ content: [] }));\nawait server.connect(new StdioServerTransport());\n`;
  assert.ok(mayDefineTools(ts) && constructsServer('typescript', ts));
  assert.equal(detectCandidate('/ws/server.ts', ts), 'typescript');
  const plain = 'import os\n\ndef main():\n    print(os.getcwd())\n';
  assert.ok(!mayDefineTools(plain) && !constructsServer('python', plain) && !constructsServer('typescript', plain));
});

test('version caveats: Python pins outside the releases the matrix verifies, TypeScript SDKs outside their modelled releases', () => {
  // Python: test/fidelity/python-matrix.test.ts checks each verified release live; other exact pins are named.
  for (const v of ['2.3.5', '2.13.3', '2.14.7', '3.4.11', '4.2.3', '>=2.10', '^4.0', undefined]) assert.equal(FRAMEWORKS.fastmcp.versionCaveat(v), undefined, v);
  // An unverified 2.x pin: the verified release of its minor, else the one below it (what changed since is named there).
  assert.match(FRAMEWORKS.fastmcp.versionCaveat('2.14.2') ?? '', /predicted as fastmcp 2\.14\.7 publishes it; not verified for 2\.14\.2/);
  assert.match(FRAMEWORKS.fastmcp.versionCaveat('2.13.0') ?? '', /predicted as fastmcp 2\.13\.3/);
  assert.match(FRAMEWORKS.fastmcp.versionCaveat('2.5.1') ?? '', /predicted as fastmcp 2\.3\.5/);
  // From 2.7 (a plain @tool decorator, add_tool() taking a Tool) nearer 2.13.3.
  assert.match(FRAMEWORKS.fastmcp.versionCaveat('2.10.6') ?? '', /predicted as fastmcp 2\.13\.3/);
  // 2.3.5 publishes the raw docstring, unpruned titles, no outputSchema and no _meta; a bare @tool fails there.
  const old = FRAMEWORKS.fastmcp.contractTraits!('2.3.5');
  assert.deepEqual([old.docstringDescription, old.prunesTitles, old.structuredOutput, old.metaKey, old.bareToolDecorator], ['raw', false, false, 'none', false]);
  assert.equal(FRAMEWORKS.fastmcp.contractTraits!('2.13.3').dereferencesRefs, false);
  assert.equal(FRAMEWORKS.fastmcp.contractTraits!('2.14.7').dereferencesRefs, true);
  assert.match(FRAMEWORKS.fastmcp.versionCaveat('3.2.0') ?? '', /predicted as fastmcp 3\.4\.11 publishes it; not verified for 3\.2\.0/);
  assert.match(FRAMEWORKS.fastmcp.versionCaveat('4.1.0') ?? '', /predicted as fastmcp 4\.2\.3/);
  assert.match(FRAMEWORKS.fastmcp.versionCaveat('1.0') ?? '', /fastmcp 1\.x is not modelled/);
  // A range is what pip installs today (the newest release) unless it keeps fastmcp below the newest major.
  assert.equal(FRAMEWORKS.fastmcp.contractTraits?.('>=2.0').release, 'fastmcp 4.2.3');
  for (const v of ['<3', '~=2.10', '>=2.3,<3.0', '^3.1']) assert.match(FRAMEWORKS.fastmcp.versionCaveat(v) ?? '', /installed release is not known/, v);
  assert.equal(FRAMEWORKS.fastmcp.contractTraits?.('~=2.10').release, 'fastmcp 2.14.7');
  // A range capped inside 2.x: the newest verified release it allows (axians-mcp's `<2.4.0` installs 2.3.5).
  assert.equal(FRAMEWORKS.fastmcp.contractTraits?.('>=2.3.4,<2.4.0').release, 'fastmcp 2.3.5');
  assert.equal(FRAMEWORKS.fastmcp.contractTraits?.('>=2.10,<2.14').release, 'fastmcp 2.13.3');
  for (const v of ['1.8.1', '1.10.1', '1.23.3', '1.26.0', '1.30.0']) assert.equal(FRAMEWORKS['mcp-v1'].versionCaveat(v), undefined, v);
  assert.match(FRAMEWORKS['mcp-v1'].versionCaveat('1.9.4') ?? '', /predicted as mcp 1\.8\.1 publishes it; not verified for 1\.9\.4/);
  assert.match(FRAMEWORKS['mcp-v1'].versionCaveat('2.1.0') ?? '', /no mcp\.server\.fastmcp module/);
  assert.match(FRAMEWORKS['mcp-v1'].versionCaveat(undefined) ?? '', /no pinned version/);
  for (const v of ['2.0.1', '2.1.1', '2.2.0', '2.3.0', '>=2.1', undefined]) assert.equal(FRAMEWORKS.mcp.versionCaveat(v), undefined, v);
  assert.match(FRAMEWORKS.mcp.versionCaveat('2.1.0') ?? '', /predicted as mcp 2\.0\.1 publishes it; not verified for 2\.1\.0/);
  assert.equal(FRAMEWORKS['ts-sdk'].versionCaveat('1.32.2'), undefined);
  assert.match(FRAMEWORKS['ts-sdk'].versionCaveat('0.1.0') ?? '', /@modelcontextprotocol\/sdk 0\.1\.0: only 1\.x/);
  for (const v of ['2.4.0', '^2.3.1', '2.0.0', undefined]) assert.equal(FRAMEWORKS['ts-sdk-v2'].versionCaveat(v), undefined, v);
  assert.match(FRAMEWORKS['ts-sdk-v2'].versionCaveat('2.5.0') ?? '', /modelled for 2\.0\.0 to 2\.4\.0 .*not predicted for 2\.5\.0/);
});

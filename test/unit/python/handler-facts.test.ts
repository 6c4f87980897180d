/**
 * Python handler facts the security rules read: which parameters reach each call (CallFact.paramsInArgs) and
 * whether the handler refuses paths outside a root (hasPathContainmentCheck). The last tests run the real rules
 * engine on the same sources, so what is asserted is what the author sees: a command-injection error or a
 * path-param-unchecked warning, or none.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import { analyzeFile } from '../../../server/src/service';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import type { FileHost, HandlerDefinition } from '../../../server/src/analysis/model';

const FILE = '/ws/server.py';
const host: FileHost = { readFile: () => undefined, fileExists: () => false };
const HEAD = 'import os, subprocess, shlex\nfrom pathlib import Path\nfrom mcp.server import MCPServer\nmcp = MCPServer("t")\nROOT = Path("/srv")\n';

function handler(params: string, body: string[], extra = ''): HandlerDefinition {
  const src = `${HEAD}${extra}@mcp.tool()\ndef run(${params}) -> str:\n${body.map((l) => `    ${l}`).join('\n')}\n    return ""\n`;
  const r = analyzePython(FILE, src, host);
  assert.equal(r.tools.length, 1, src);
  return r.tools[0].handler!;
}
/** paramsInArgs of the first call whose callee is `callee`. */
function reach(h: HandlerDefinition, callee: string): string[] {
  const c = h.calls.find((x) => x.callee === callee);
  assert.ok(c, `no call ${callee} among ${h.calls.map((x) => x.callee).join(', ')}`);
  return [...c.paramsInArgs].sort();
}

test('a parameter reaches an argument directly, through f-strings, +, %, .format, attributes and subscripts', () => {
  const h = handler('name: str, n: int, opts: dict', [
    'len(name)',
    'subprocess.run(f"useradd {name}", shell=True)',
    'os.system("echo " + name)',
    'os.popen("ls %s" % name)',
    'subprocess.call("grep {}".format(name), shell=True)',
    'subprocess.check_output(name.strip(), shell=True)',
    'subprocess.getoutput(opts["cmd"])',
    'print("fixed")',
  ]);
  assert.deepEqual(reach(h, 'len'), ['name']);
  assert.deepEqual(reach(h, 'subprocess.run'), ['name']);
  assert.deepEqual(reach(h, 'os.system'), ['name']);
  assert.deepEqual(reach(h, 'os.popen'), ['name']);
  assert.deepEqual(reach(h, 'subprocess.call'), ['name']);
  assert.deepEqual(reach(h, 'subprocess.check_output'), ['name']);
  assert.deepEqual(reach(h, 'subprocess.getoutput'), ['opts']);
  assert.deepEqual(reach(h, 'print'), []);
});

test('simple local aliases carry the parameter: x = p, chained and annotated assignments, tuples, +=, :=, with-as', () => {
  const h = handler('name: str, role: str, path: str', [
    'x = name',
    'a = b = role',
    'y: str = x',
    'p = Path(ROOT) / path',
    'left, right = name, "const"',
    'cmd = "ls "',
    'cmd += path',
    'if (w := role):',
    '    pass',
    'os.system(y)',
    'os.popen(a + b)',
    'open(p)',
    'subprocess.getoutput(left)',
    'subprocess.getstatusoutput(right)',
    'os.execv(cmd, [])',
    'os.execl(w)',
  ]);
  assert.deepEqual(reach(h, 'os.system'), ['name']);
  assert.deepEqual(reach(h, 'os.popen'), ['role']);
  assert.deepEqual(reach(h, 'open'), ['path']);
  assert.deepEqual(reach(h, 'subprocess.getoutput'), ['name'], 'tuples are paired element by element');
  assert.deepEqual(reach(h, 'subprocess.getstatusoutput'), []);
  assert.deepEqual(reach(h, 'os.execv'), ['path']);
  assert.deepEqual(reach(h, 'os.execl'), ['role']);
});

test('what does not carry the text: keyword names, quoted or numeric values, a top-level reassignment', () => {
  const h = handler('name: str, pid: str', [
    'print(name="literal")',
    'subprocess.run(f"kill {int(pid)}", shell=True)',
    'os.system("id " + shlex.quote(name))',
    'safe = shlex.quote(name)',
    'os.popen("finger " + safe)',
    'other = name',
    'other = "fixed"',
    'subprocess.getoutput(other)',
  ]);
  assert.deepEqual(reach(h, 'print'), [], 'the keyword `name=` is not the parameter name');
  assert.deepEqual(reach(h, 'subprocess.run'), []);
  assert.deepEqual(reach(h, 'int'), ['pid'], 'int(pid) itself still receives pid');
  assert.deepEqual(reach(h, 'os.system'), []);
  assert.deepEqual(reach(h, 'shlex.quote'), ['name']);
  assert.deepEqual(reach(h, 'os.popen'), []);
  assert.deepEqual(reach(h, 'subprocess.getoutput'), []);
});

test('a reassignment inside a branch keeps the earlier taint (either value may reach the call)', () => {
  const h = handler('name: str, flag: bool', ['cmd = name', 'if flag:', '    cmd = "default"', 'os.system(cmd)']);
  assert.deepEqual(reach(h, 'os.system'), ['name']);
});

test('a method call reads its receiver: (ROOT / path).read_text(), target.unlink()', () => {
  const h = handler('path: str', ['target = ROOT / path', 'target.unlink()', '(ROOT / path).read_text()', 'Path(path).read_bytes()']);
  assert.deepEqual(reach(h, 'target.unlink'), ['path']);
  assert.ok(
    h.calls.some((c) => c.callee.endsWith('.read_text') && c.paramsInArgs.includes('path')),
    JSON.stringify(h.calls),
  );
  // The receiver `Path(path)` is a call with its own fact: the chained call does not report path twice.
  assert.deepEqual(reach(h, 'pathlib.Path'), ['path']);
  assert.deepEqual(reach(h, 'pathlib.Path.read_bytes'), []);
});

test('comments inside the parameter list do not hide the parameters (contract and facts)', () => {
  const src = `${HEAD}@mcp.tool()\ndef run(\n    # who\n    name: str,  # login\n    role: str = "viewer",  # default\n) -> str:\n    os.system(name)\n    return role\n`;
  const t = analyzePython(FILE, src, host).tools[0];
  assert.deepEqual(
    t.parameters.map((p) => p.name),
    ['name', 'role'],
  );
  assert.deepEqual(Object.keys((t.contract.inputSchema as { properties: object }).properties), ['name', 'role']);
  assert.deepEqual(t.handler!.calls.find((c) => c.callee === 'os.system')?.paramsInArgs, ['name']);
});

test('path containment: resolve().is_relative_to, relative_to, commonpath, startswith after realpath/abspath/resolve', () => {
  const yes: [string, string[]][] = [
    ['is_relative_to', ['t = (ROOT / path).resolve()', 'if not t.is_relative_to(ROOT):', '    raise ValueError("outside")']],
    ['relative_to', ['(ROOT / path).resolve().relative_to(ROOT)']],
    ['commonpath', ['real = os.path.realpath(os.path.join("/srv", path))', 'if os.path.commonpath(["/srv", real]) != "/srv":', '    raise ValueError("outside")']],
    ['startswith after realpath', ['real = os.path.realpath(path)', 'if not real.startswith("/srv/"):', '    raise ValueError("outside")']],
    ['startswith after abspath, through str()', ['a = os.path.abspath(path)', 's = str(a)', 'assert s.startswith("/srv/")']],
    ['startswith on resolve()', ['if not str((ROOT / path).resolve()).startswith(str(ROOT)):', '    raise ValueError("outside")']],
  ];
  for (const [what, body] of yes) assert.equal(handler('path: str', [...body, 'open(path)']).hasPathContainmentCheck, true, what);
  const no: [string, string[]][] = [
    ['plain startswith: "/srv/../etc" passes it', ['if not path.startswith("/srv/"):', '    raise ValueError("outside")']],
    ['resolve without a check', ['t = (ROOT / path).resolve()', 'open(t)']],
    ['a check inside a nested function that is never the handler', ['def inner(p):', '    return Path(p).resolve().is_relative_to(ROOT)']],
  ];
  for (const [what, body] of no) assert.equal(handler('path: str', [...body, 'open(path)']).hasPathContainmentCheck, false, what);
});

test('path containment done by a same-file helper counts', () => {
  const helper = 'def inside(p: str) -> Path:\n    t = (ROOT / p).resolve()\n    if not t.is_relative_to(ROOT):\n        raise ValueError("outside the root")\n    return t\n';
  assert.equal(handler('path: str', ['open(inside(path))'], helper).hasPathContainmentCheck, true);
  const noCheck = 'def join(p: str) -> Path:\n    return ROOT / p\n';
  assert.equal(handler('path: str', ['open(join(path))'], noCheck).hasPathContainmentCheck, false);
});

// ---- what the author sees: the rules fire on Python now, and stay quiet when the handler is safe.

function findings(src: string, rule: string): string[] {
  const a = analyzeFile(FILE, src, host, DEFAULT_SETTINGS);
  return a.findings.filter((f) => f.ruleId === rule).map((f) => src.slice(f.span.start, f.span.end));
}

test('command-injection is reported on a Python shell call fed by a parameter, not on an argument list or a quoted value', () => {
  const src = `${HEAD}@mcp.tool()\ndef add_user(name: str) -> str:\n    """Adds a user."""\n    subprocess.run(f"useradd {name}", shell=True)\n    subprocess.run(["useradd", name])\n    os.system("useradd " + shlex.quote(name))\n    return "ok"\n`;
  assert.deepEqual(findings(src, 'command-injection'), ['subprocess.run(f"useradd {name}", shell=True)']);
});

test('path-param-unchecked is reported on open(path) without a check, and not once the handler checks containment', () => {
  const unchecked = `${HEAD}@mcp.tool()\ndef read_file(path: str) -> str:\n    """Reads a file."""\n    with open(path) as f:\n        return f.read()\n`;
  assert.deepEqual(findings(unchecked, 'path-param-unchecked'), ['open(path)']);
  const checked = `${HEAD}@mcp.tool()\ndef read_file(path: str) -> str:\n    """Reads a file."""\n    target = (ROOT / path).resolve()\n    if not target.is_relative_to(ROOT):\n        raise ValueError("path must stay inside /srv")\n    return target.read_text()\n`;
  assert.deepEqual(findings(checked, 'path-param-unchecked'), []);
});

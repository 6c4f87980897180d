/**
 * What the pinned release and Python change in a prediction (common/frameworks.ts contractTraits), on inline sources:
 * the cases the version matrix (test/fidelity/python-matrix.test.ts) cannot show because its venvs run Python 3.11,
 * and the failure propagation a user reads as "this server lists nothing".
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import type { FileHost } from '../../../server/src/analysis/model';

function host(files: Record<string, string>): FileHost {
  return { readFile: (f) => files[f], fileExists: (f) => f in files };
}

const TYPED_DICT = `from typing import TypedDict, Optional
from mcp.server import MCPServer

mcp = MCPServer("t")


class Totals(TypedDict):
    """Totals."""

    count: int


@mcp.tool()
def totals() -> Totals:
    """Totals."""
    return {"count": 0}
`;

function analyze(src: string, files: Record<string, string>) {
  return analyzePython('/ws/server.py', src, host(files)).tools;
}

test('typing.TypedDict return: predicted on a known Python (3.11 rebuilt, 3.12 as is), unresolved when the Python is unknown', () => {
  for (const python of ['3.11', '3.12']) {
    const [t] = analyze(TYPED_DICT, { '/ws/.python-version': `${python}\n`, '/ws/requirements.txt': 'mcp==2.3.0\n' });
    assert.deepEqual(t.unresolved, [], python);
    assert.deepEqual(t.contract.outputSchema, { type: 'object', properties: { count: { title: 'Count', type: 'integer' } }, required: ['count'], title: 'Totals', description: 'Totals.' }, python);
  }
  const [unknown] = analyze(TYPED_DICT, { '/ws/requirements.txt': 'mcp==2.3.0\n' });
  assert.ok(
    unknown.unresolved.some((u) => u.part === 'outputSchema' && /does not say which Python runs/.test(u.reason)),
    JSON.stringify(unknown.unresolved),
  );
  assert.equal(unknown.contract.outputSchema, undefined);
});

test('a tool that fails its module at the pinned release takes the other tools of the file down, with the reason', () => {
  const src = `${TYPED_DICT}

@mcp.tool()
def maybe() -> Optional[Totals]:
    """Wrapped."""
    return None
`;
  const tools = analyze(src, { '/ws/.python-version': '3.11\n', '/ws/requirements.txt': 'mcp==2.3.0\n' });
  assert.equal(tools.length, 2);
  for (const t of tools)
    assert.ok(
      t.unresolved.some((u) => u.part === 'contract' && /refuses below Python 3\.12.*lists no tools/.test(u.reason)),
      `${t.name.value}: ${JSON.stringify(t.unresolved)}`,
    );
  // On 3.12 nothing fails.
  for (const t of analyze(src, { '/ws/.python-version': '3.12\n', '/ws/requirements.txt': 'mcp==2.3.0\n' })) assert.deepEqual(t.unresolved, [], String(t.name.value));
});

test('mcp 1.8 has no title=: the module fails at import; 1.10 has it', () => {
  const src = `from mcp.server.fastmcp import FastMCP

mcp = FastMCP("t")


@mcp.tool(title="Ping")
def ping() -> str:
    """Ping."""
    return "pong"


@mcp.tool()
def other() -> str:
    """Other."""
    return ""
`;
  const at18 = analyze(src, { '/ws/requirements.txt': 'mcp==1.8.1\n' });
  for (const t of at18)
    assert.ok(
      t.unresolved.some((u) => /has no title= keyword/.test(u.reason)),
      String(t.name.value),
    );
  // 1.8 publishes no outputSchema at all.
  assert.equal(at18.find((t) => t.name.value === 'other')?.contract.outputSchema, undefined);
  for (const t of analyze(src, { '/ws/requirements.txt': 'mcp==1.10.1\n' })) assert.deepEqual(t.unresolved, [], String(t.name.value));
});

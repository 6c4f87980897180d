/**
 * fastmcp 2.x releases before 2.14 that real servers pin (axians-mcp: 2.3.5; mcp-neo4j-cypher: 2.13.3). What a
 * workspace pinning one is told: the contract as that release publishes it, and the constructs it refuses as a server
 * failure. Proven live by the Python version matrix (fidelity-matrix/fast_called_decorators.py and the fast_* fixtures).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import type { FileHost } from '../../../server/src/analysis/model';

function analyze(pin: string, source: string) {
  const files = new Map([
    ['/ws/server.py', source],
    ['/ws/requirements.txt', `${pin}\n`],
  ]);
  const host: FileHost = { readFile: (f) => files.get(f), fileExists: (f) => files.has(f), listDir: (d) => (d === '/ws' ? ['server.py', 'requirements.txt'] : []) };
  return analyzePython('/ws/server.py', source, host, { pythonVersion: [3, 11] });
}

const CALLED = [
  'from pydantic import BaseModel',
  'from fastmcp import FastMCP',
  '',
  'mcp = FastMCP("s")',
  '',
  'class Address(BaseModel):',
  '    city: str',
  '',
  '@mcp.tool(tags={"x"})',
  'def ship(address: Address, state: str = "CA") -> str:',
  '    """Ship it.',
  '',
  '    Args:',
  '        state: Two letters',
  '    """',
  '    return state',
  '',
].join('\n');

test('fastmcp 2.3.5: the raw __doc__, every argument titled, $defs kept, no outputSchema and no _meta', () => {
  const [tool] = analyze('fastmcp==2.3.5', CALLED).tools;
  assert.deepEqual(tool.unresolved, []);
  assert.deepEqual(tool.contract, {
    name: 'ship',
    description: 'Ship it.\n\n    Args:\n        state: Two letters\n    ',
    inputSchema: {
      type: 'object',
      properties: { address: { $ref: '#/$defs/Address', title: 'Address' }, state: { type: 'string', default: 'CA', title: 'State' } },
      required: ['address'],
      $defs: { Address: { properties: { city: { type: 'string', title: 'City' } }, required: ['city'], title: 'Address', type: 'object' } },
    },
  });
});

test('fastmcp 2.13.3: pruned titles and the cleaned docstring, but $defs kept (dereferencing came with 2.14)', () => {
  const [tool] = analyze('fastmcp==2.13.3', CALLED).tools;
  const input = tool.contract.inputSchema as { properties: Record<string, unknown>; $defs?: unknown };
  assert.deepEqual(input.properties.address, { $ref: '#/$defs/Address' });
  assert.ok(input.$defs);
  assert.equal(tool.contract.description, 'Ship it.\n\nArgs:\n    state: Two letters');
  const [newer] = analyze('fastmcp==2.14.7', CALLED).tools;
  assert.equal((newer.contract.inputSchema as { $defs?: unknown }).$defs, undefined);
});

test('fastmcp 2.3.5: a bare @tool, run(show_banner=) and a tool() keyword it lacks fail the server, said on every tool', () => {
  const bare = CALLED.replace('@mcp.tool(tags={"x"})', '@mcp.tool');
  assert.match(
    analyze('fastmcp==2.3.5', bare)
      .tools[0].unresolved.map((u) => u.reason)
      .join('\n'),
    /decorator factory/,
  );
  assert.deepEqual(analyze('fastmcp==2.13.3', bare).tools[0].unresolved, []);
  const banner = `${CALLED}\nif __name__ == "__main__":\n    mcp.run(show_banner=False)\n`;
  assert.match(
    analyze('fastmcp==2.3.5', banner)
      .tools[0].unresolved.map((u) => u.reason)
      .join('\n'),
    /no show_banner=/,
  );
  const titled = CALLED.replace('@mcp.tool(tags={"x"})', '@mcp.tool(title="Ship")');
  assert.match(
    analyze('fastmcp==2.3.5', titled)
      .tools[0].unresolved.map((u) => u.reason)
      .join('\n'),
    /has no title= keyword/,
  );
});

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import { createFileHost } from '../../../server/src/host';

test('python: a comment inside a parameter list does not drop the parameters after it', () => {
  const text = [
    'from mcp.server import MCPServer',
    'mcp = MCPServer("x")',
    '',
    '@mcp.tool()',
    'def find_notes(query: str,  # what to look for',
    '               limit: int = 1,  # how many',
    '               ) -> str:',
    '    """Find notes."""',
    '    return query',
    '',
  ].join('\n');
  const [tool] = analyzePython('/tmp/comments.py', text, createFileHost()).tools;
  assert.deepEqual(
    tool.parameters.map((p) => p.name),
    ['query', 'limit'],
  );
  const schema = tool.contract.inputSchema as { properties: Record<string, unknown>; required: string[] };
  assert.deepEqual(Object.keys(schema.properties), ['query', 'limit']);
  assert.deepEqual(schema.required, ['query']);
});

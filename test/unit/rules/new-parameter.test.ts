import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyse, STRICT_SETTINGS } from './harness';
import { addParameterEdits } from '../../../server/src/rules/util/new-parameter';
import { applyEdits } from '../../../server/src/rules';

test('rules: the new-parameter helper adds a Python parameter after a parameter with a trailing comment keeps it out of the comment', () => {
  const file = '/tmp/toolsmith-append-param.py';
  const text = [
    'from typing import Annotated',
    'from pydantic import Field',
    'from mcp.server import MCPServer',
    '',
    'mcp = MCPServer("orders")',
    '',
    '@mcp.tool()',
    'def search_orders(',
    '    query: Annotated[str, Field(description="Text to match in order notes.", max_length=200)]  # which orders',
    ') -> list[str]:',
    '    """Search orders by the text of their notes. Use when the user asks about past orders. Returns order ids."""',
    '    return []',
    '',
  ].join('\n');
  // No rule offers this edit today (a parameter the handler ignores is no fix, issue 14); the helper stays for a fix
  // that writes the handler work too, and must keep comments whole.
  const tool = analyse(file, text).result.tools[0];
  const edits = addParameterEdits(
    tool,
    { settings: STRICT_SETTINGS, textOf: (f) => (f === file ? text : undefined) },
    {
      name: 'limit',
      zod: 'z.number().int().min(1).max(100).default(20)',
      pyAnnotation: 'Annotated[int, Field(ge=1, le=100, description="Maximum number of results to return (1-100)")]',
      pyDefault: '20',
    },
  );
  assert.ok(edits, 'the helper adds a bounded limit parameter');
  const fix = { edits };
  const fixed = applyEdits(text, fix.edits, file);
  assert.match(fixed, /max_length=200\)\], limit: /, 'the parameter follows the last parameter, before its comment');
  assert.match(fixed, /# which orders\n\)/, 'the comment is left whole');
  const after = analyse(file, fixed);
  assert.deepEqual(
    after.result.tools[0].parameters.map((p) => p.name),
    ['query', 'limit'],
  );
  assert.equal(after.findings.filter((f) => f.ruleId === 'response-unbounded').length, 0, 'a limit parameter silences response-unbounded');
});

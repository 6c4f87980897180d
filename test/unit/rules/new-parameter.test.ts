import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyse } from './harness';
import { applyEdits } from '../../../server/src/rules';

test('rules: adding a Python parameter after a parameter with a trailing comment keeps it out of the comment', () => {
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
  const before = analyse(file, text);
  const finding = before.findings.find((f) => f.ruleId === 'response-unbounded');
  assert.ok(finding, 'response-unbounded fires on a search tool without a limit');
  const fix = finding.fixes.find((f) => /limit/.test(f.title));
  assert.ok(fix, 'a fix adds a bounded limit parameter');
  const fixed = applyEdits(text, fix.edits, file);
  assert.match(fixed, /max_length=200\)\], limit: /, 'the parameter follows the last parameter, before its comment');
  assert.match(fixed, /# which orders\n\)/, 'the comment is left whole');
  const after = analyse(file, fixed);
  assert.deepEqual(
    after.result.tools[0].parameters.map((p) => p.name),
    ['query', 'limit'],
  );
  assert.equal(after.findings.filter((f) => f.ruleId === 'response-unbounded').length, 0);
});

/**
 * Python facts that quick fixes edit with: whole annotation entries (key, value), the insertion point after the
 * last parameter, the returned value and its error message, and what a raised exception leaks. Each fact is
 * checked on its text, then through the real rules engine: the fix is offered, applied, and the file analysed again.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzePython } from '../../../server/src/analysis/python';
import { analyzeFile } from '../../../server/src/service';
import { applyEdits } from '../../../server/src/rules';
import { DEFAULT_SETTINGS } from '../../../common/settings';
import type { FileHost, Span, ToolDefinition } from '../../../server/src/analysis/model';

const FILE = '/ws/server.py';
const host: FileHost = { readFile: () => undefined, fileExists: () => false };
const at = (src: string, s: Span | undefined) => (s ? src.slice(s.start, s.end) : undefined);
const tools = (src: string): ToolDefinition[] => analyzePython(FILE, src, host).tools;
const HEAD = 'import json, traceback\nfrom typing import Annotated\nfrom pydantic import Field\nfrom mcp.server import MCPServer\nfrom mcp.types import ToolAnnotations\nmcp = MCPServer("t")\n';

test('annotation entries: span is the whole key=value / "key": value, keySpan the key, valueSpan the value', () => {
  const src = `${HEAD}@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, title="T"))\ndef a(): ...\n@mcp.tool(annotations={"destructiveHint" : False, 'openWorldHint': True})\ndef b(): ...\n`;
  const [a, b] = tools(src);
  assert.deepEqual(
    a.annotations!.entries.map((e) => [at(src, e.span), at(src, e.keySpan), at(src, e.valueSpan)]),
    [
      ['readOnlyHint=True', 'readOnlyHint', 'True'],
      ['title="T"', 'title', '"T"'],
    ],
  );
  assert.deepEqual(
    b.annotations!.entries.map((e) => [at(src, e.span), at(src, e.keySpan), at(src, e.valueSpan)]),
    [
      ['"destructiveHint" : False', '"destructiveHint"', 'False'],
      ["'openWorldHint': True", "'openWorldHint'", 'True'],
    ],
  );
});

test('paramsEndOffset is the `)` closing the parameter list, whatever the layout', () => {
  const cases = ['def f():', 'def f(a: int, b: str = "x"):', 'def f(\n    a: int,\n    b: str = "x",  # last\n) -> str:', 'def f(a, *, b=1, **kw):'];
  for (const def of cases) {
    const src = `${HEAD}@mcp.tool()\n${def}\n    return ""\n`;
    const h = tools(src)[0].handler!;
    assert.ok(h.paramsEndOffset !== undefined, def);
    assert.equal(src[h.paramsEndOffset], ')', def);
    assert.equal(src.slice(src.indexOf('def f('), h.paramsEndOffset + 1), def.replace(/ -> str:$|:$/, ''), def);
  }
});

test('returns: valueSpan is the returned expression; errorMessageSpan the message of an error-looking return', () => {
  const src = [
    HEAD + '@mcp.tool()',
    'def f(x: str) -> str:',
    '    if not x:',
    '        return {"error": "x is empty; pass a ticket id like T-12", "code": 400}',
    '    if x == "a":',
    '        return json.dumps({"error": f"unknown id {x}"})',
    '    if x == "b":',
    '        return "Error: " + x',
    '    if x == "c":',
    '        return dict(error="no such ticket", hint="list tickets first")',
    '    if x == "d":',
    '        return {"error_code": 3}',
    '    return {"ok": True}',
  ].join('\n');
  const rs = tools(src)[0].handler!.returns;
  assert.deepEqual(
    rs.map((r) => at(src, r.valueSpan)),
    [
      '{"error": "x is empty; pass a ticket id like T-12", "code": 400}',
      'json.dumps({"error": f"unknown id {x}"})',
      '"Error: " + x',
      'dict(error="no such ticket", hint="list tickets first")',
      '{"error_code": 3}',
      '{"ok": True}',
    ],
  );
  assert.deepEqual(
    rs.map((r) => at(src, r.errorMessageSpan)),
    [
      '"x is empty; pass a ticket id like T-12"',
      'f"unknown id {x}"',
      '"Error: " + x',
      '"no such ticket"',
      undefined, // an error code is not a message
      undefined,
    ],
  );
  assert.equal(rs[3].looksLikeError, true, 'dict(error=...) looks like an error payload');
});

test('raises: what the raised message leaks (str(e), f-string of e, traceback); the `from e` cause is not shown', () => {
  const src = [
    HEAD + 'from mcp.server.mcpserver.exceptions import ToolError',
    '@mcp.tool()',
    'def f(x: str) -> str:',
    '    try:',
    '        return open(x).read()',
    '    except OSError as e:',
    '        raise ToolError(f"read failed: {e}") from e',
    '    except ValueError as e:',
    '        raise ToolError(traceback.format_exc())',
    '    except Exception as e:',
    '        raise ToolError("could not read the file; check the name") from e',
  ].join('\n');
  const raises = tools(src)[0].handler!.raises;
  assert.deepEqual(
    raises.map((r) => (r.leaks ?? []).map((l) => [l.kind, at(src, l.span)])),
    [[['stringified-error', '{e}']], [['traceback', 'traceback.format_exc()']], []],
  );
});

// ---- the fixes these facts enable, through the real engine

function analyse(src: string) {
  // Every rule (strict preset): these tests check each rule's fixes, whichever preset it is in.
  return analyzeFile(FILE, src, host, { ...DEFAULT_SETTINGS, preset: 'strict' });
}
function fixOf(src: string, rule: string, tool?: string) {
  const f = analyse(src).findings.find((x) => x.ruleId === rule && (tool === undefined || x.tool === tool));
  assert.ok(
    f,
    `${rule} not reported: ${analyse(src)
      .findings.map((x) => x.ruleId)
      .join(', ')}`,
  );
  return f;
}

test('error returned as success: `return {"error": msg}` and json.dumps become `raise ToolError(msg)` with its import', () => {
  for (const ret of ['return {"error": "ticket T-1 is closed; reopen it first"}', 'return json.dumps({"error": "ticket T-1 is closed; reopen it first"})']) {
    const src = `${HEAD}@mcp.tool()\ndef close_ticket(ticket_id: Annotated[str, Field(description="Ticket id, e.g. T-12", max_length=20)]) -> str:\n    """Closes a ticket. Use when the user says it is solved. Returns the new state."""\n    if ticket_id == "T-1":\n        ${ret}\n    return "closed"\n`;
    const f = fixOf(src, 'error-returned-as-success');
    assert.equal(at(src, f.span), '"ticket T-1 is closed; reopen it first"');
    assert.equal(f.fixes.length, 1, ret);
    const fixed = applyEdits(src, f.fixes[0].edits, FILE);
    assert.match(fixed, /\n {8}raise ToolError\("ticket T-1 is closed; reopen it first"\)\n/);
    assert.match(fixed, /^from mcp\.server\.mcpserver\.exceptions import ToolError$/m);
    assert.equal(analyse(fixed).findings.filter((x) => x.ruleId === 'error-returned-as-success').length, 0, fixed);
  }
});

test('no fix adds a parameter the handler would ignore (dry_run, limit): the findings stay, without a one-click fix', () => {
  const src = `${HEAD}@mcp.tool(annotations={"destructiveHint": True})\ndef delete_tickets(\n    pattern: Annotated[str, Field(description="Glob of the ticket titles to purge, e.g. old-*", max_length=20)],\n) -> str:\n    """Deletes every ticket whose title matches the pattern. Use to purge old tickets. Returns how many were deleted."""\n    return "0"\n\n\n@mcp.tool(annotations={"readOnlyHint": True})\ndef list_tickets() -> list[str]:\n    """Lists the open tickets. Use when the user asks what is open. Returns their ids."""\n    return []\n`;
  // A `dry_run=True` the handler ignores still deletes; a `limit` it ignores still returns everything.
  assert.deepEqual(fixOf(src, 'risky-tool-without-dry-run').fixes, []);
  assert.deepEqual(fixOf(src, 'response-unbounded').fixes, []);
});

test('annotation-incoherent: the fix removing a contradicting hint removes the whole entry and the file still parses', () => {
  const src = `${HEAD}@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, destructiveHint=True))\ndef get_report(day: Annotated[str, Field(description="ISO day, e.g. 2025-01-31", max_length=10)]) -> str:\n    """Gets the daily report. Use when the user asks for a day's numbers. Returns the report text."""\n    return day\n`;
  const f = fixOf(src, 'annotation-incoherent');
  const fixed = applyEdits(src, f.fixes[0].edits, FILE);
  const t = tools(fixed)[0];
  assert.equal(t.unresolved.length, 0, JSON.stringify(t.unresolved));
  assert.equal(Object.keys(t.contract.annotations as object).length, 1, fixed);
  assert.equal(analyse(fixed).findings.filter((x) => x.ruleId === 'annotation-incoherent').length, 0, fixed);
});

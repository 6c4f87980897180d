/**
 * Python files take the incremental path too (server/src/lsp/incremental.ts): a keystroke inside one decorated tool
 * re-analyses that tool only. The result must be exactly what the full pipeline (service.ts analyzeFile) gives, and
 * a tool whose function other code calls (a helper may read what it does) must go through the full path.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzeFull, analyzeIncremental } from '../../server/src/lsp/incremental';
import { analyzeFile } from '../../server/src/service';
import { DEFAULT_SETTINGS } from '../../common/settings';
import { at, host, quiet, replayEdits, type Edit } from './incremental-replay';
import { generatePythonServer } from '../../bench/py-analysis';
import { LspClient, fileUri } from './harness';

const FILE = '/virtual/bench/server.py';

const insert = (text: string, i: number, s: string) => text.slice(0, i) + s + text.slice(i);

const EDITS: Edit[] = [
  { label: 'type in a docstring', incremental: true, apply: (t) => insert(t, at(t, '"""Search things', at(t, 'def tool_10(')) + 9, 'x') },
  { label: 'type a TODO into it (a placeholder finding appears)', incremental: true, apply: (t) => insert(t, at(t, '"""Search', at(t, 'def tool_10(')) + 3, 'TODO ') },
  {
    label: 'change a default in the last tool',
    incremental: true,
    apply: (t) => {
      const i = t.lastIndexOf('limit: int = 10');
      return t.slice(0, i) + 'limit: int = -3' + t.slice(i + 'limit: int = 10'.length);
    },
  },
  { label: 'rename a tool function to the name of another (duplicate tool name)', incremental: true, apply: (t) => t.replace('def tool_12(', 'def tool_3(') },
  { label: 'the tool starts calling another tool function', incremental: false, apply: (t) => insert(t, at(t, '    results = []\n', at(t, 'def tool_10(')), '    tool_4("q")\n') },
  { label: 'it stops again (nothing outside the tool matters any more)', incremental: true, apply: (t) => t.replace('    tool_4("q")\n', '') },
  { label: 'break the syntax inside a tool', incremental: false, apply: (t) => t.replace('async def tool_11(', 'async def tool_11((') },
  { label: 'repair it', incremental: false, apply: (t) => t.replace('async def tool_11((', 'async def tool_11(') },
  { label: 'type again after the fallback', incremental: true, apply: (t) => insert(t, at(t, '"""Search things', at(t, 'def tool_15(')) + 9, 'yz') },
];

test('Python: incremental analysis equals a full analysis after every kind of edit', () => {
  const { text } = replayEdits(FILE, generatePythonServer(20, 600), EDITS);
  // The edits above produced findings a user sees: the placeholder and the duplicate name are reported.
  const ids = new Set(analyzeFile(FILE, text, host, DEFAULT_SETTINGS).findings.map((f) => f.ruleId));
  assert.ok(ids.has('description-placeholder') && ids.has('tool-name-duplicate'), [...ids].join(', '));
});

test('Python: a tool whose function module code calls is re-analysed in full', () => {
  const text = generatePythonServer(20, 600) + '\ndef helper(p):\n    return tool_5(p)\n';
  const state = analyzeFull(FILE, text, host, DEFAULT_SETTINGS, quiet).state;
  const edited = insert(text, at(text, '"""Search things', at(text, 'def tool_5(')) + 9, 'x');
  assert.equal(analyzeIncremental(state, edited, host, DEFAULT_SETTINGS, quiet), undefined);
});

test("Python, typing through the server: the last version's diagnostics equal a fresh analysis of the same text", async () => {
  const text = generatePythonServer(20, 600);
  const typing = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  const fresh = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const uri = fileUri('/virtual/typing/server.py');
    await typing.open(uri, text, 'python');
    await typing.diagnosticsFor(uri, 1, 60_000);
    let pos = typing.documents.get(uri)!.positionAt(at(text, '"""Search', at(text, 'def tool_7(')) + 3);
    for (const ch of 'TODO ') {
      await typing.change(uri, [{ range: { start: pos, end: pos }, text: ch }]);
      pos = { line: pos.line, character: pos.character + 1 };
    }
    const last = await typing.change(uri, typing.text(uri).replace('def tool_9(', 'def tool_2('));
    const got = await typing.diagnosticsFor(uri, last, 60_000);
    await fresh.open(uri, typing.text(uri), 'python');
    const want = await fresh.diagnosticsFor(uri, 1, 60_000);
    const key = (d: { code?: unknown; range: unknown; message: unknown }) => JSON.stringify([d.code, d.range, d.message]);
    assert.deepEqual(got.diagnostics.map(key).sort(), want.diagnostics.map(key).sort());
    assert.ok(
      got.diagnostics.some((d) => d.code === 'description-placeholder'),
      'the TODO typed is reported',
    );
    assert.ok(
      got.diagnostics.some((d) => d.code === 'tool-name-duplicate'),
      'the duplicate is reported',
    );
  } finally {
    await typing.stop();
    await fresh.stop();
  }
});

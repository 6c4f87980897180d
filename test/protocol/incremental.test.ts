/**
 * The language server re-analyses only the edited tool while the author types (server/src/lsp/incremental.ts).
 * Its result must be exactly what the full pipeline (service.ts analyzeFile) gives on the same text.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, replayEdits, type Edit } from './incremental-replay';
import { generateServer } from '../../bench/lsp-latency';
import { LspClient, fileUri } from './harness';

const FILE = '/virtual/bench/server.ts';

const EDITS: Edit[] = [
  {
    label: 'type a character in a description',
    incremental: true,
    apply: (t) => {
      const i = at(t, "description: 'Find", at(t, "'search_note_40'")) + 18;
      return t.slice(0, i) + 'x' + t.slice(i);
    },
  },
  {
    label: 'delete a character',
    incremental: true,
    apply: (t) => {
      const i = at(t, "description: 'Find", at(t, "'search_note_40'")) + 18;
      return t.slice(0, i) + t.slice(i + 1);
    },
  },
  { label: 'rename a tool to a duplicate of another (server-level rule)', incremental: true, apply: (t) => t.replace("'search_note_40'", "'search_tickets_0'") },
  { label: 'rename it to a vague name', incremental: true, apply: (t) => t.replace("'search_tickets_0',\n  {\n    title: 'Tool 40'", "'process',\n  {\n    title: 'Tool 40'") },
  { label: 'flip an annotation in the first tool', incremental: true, apply: (t) => t.replace('readOnlyHint: false', 'readOnlyHint: true') },
  {
    label: 'drop a describe() in the last tool',
    incremental: true,
    apply: (t) => {
      const i = t.lastIndexOf(".describe('Free-text terms to match')");
      return t.slice(0, i) + t.slice(i + ".describe('Free-text terms to match')".length);
    },
  },
  { label: 'break the syntax inside a tool', incremental: false, apply: (t) => t.replace("title: 'Tool 41',", "title: 'Tool 41',,,(") },
  { label: 'repair it', incremental: false, apply: (t) => t.replace("title: 'Tool 41',,,(", "title: 'Tool 41',") },
  { label: 'edit outside any tool', incremental: false, apply: (t) => t.replace("name: 'bench'", "name: 'bench-2'") },
  {
    label: 'type again after the fallback',
    incremental: true,
    apply: (t) => {
      const i = at(t, "description: 'Find", at(t, "'search_document_60'")) + 18;
      return t.slice(0, i) + 'yz' + t.slice(i);
    },
  },
];

test('incremental analysis equals a full analysis after every kind of edit', () => {
  const { incrementalSteps } = replayEdits(FILE, generateServer(80, 2000), EDITS);
  assert.equal(incrementalSteps, EDITS.filter((e) => e.incremental).length);
});

test("typing through the server: the last version's diagnostics equal a fresh analysis of the same text", async () => {
  const text = generateServer(80, 2000);
  const typing = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  const fresh = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const uri = fileUri('/virtual/typing/server.ts');
    await typing.open(uri, text);
    await typing.diagnosticsFor(uri, 1, 60_000);
    const doc = typing.documents.get(uri)!;
    let pos = doc.positionAt(text.indexOf("description: 'Find", text.indexOf("'search_note_40'")) + 18);
    for (const ch of ' now') {
      await typing.change(uri, [{ range: { start: pos, end: pos }, text: ch }]);
      pos = { line: pos.line, character: pos.character + 1 };
    }
    // A rename making a duplicate, typed as one edit.
    const renamed = typing.text(uri).replace("'get_order_51'", "'get_tickets_1'");
    const last = await typing.change(uri, renamed);
    const got = await typing.diagnosticsFor(uri, last, 60_000);
    await fresh.open(uri, typing.text(uri));
    const want = await fresh.diagnosticsFor(uri, 1, 60_000);
    const key = (d: { code?: unknown; range: unknown; message: unknown }) => JSON.stringify([d.code, d.range, d.message]);
    assert.deepEqual(got.diagnostics.map(key).sort(), want.diagnostics.map(key).sort());
    assert.ok(
      got.diagnostics.some((d) => d.code === 'tool-name-duplicate'),
      'the duplicate is reported',
    );
  } finally {
    await typing.stop();
    await fresh.stop();
  }
});

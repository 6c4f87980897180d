/**
 * The language server re-analyses only the edited tool while the author types (server/src/lsp/incremental.ts).
 * Its result must be exactly what the full pipeline (service.ts analyzeFile) gives on the same text.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyzeFull, analyzeIncremental, type IncrementalState } from '../../server/src/lsp/incremental';
import { analyzeFile } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { DEFAULT_SETTINGS } from '../../common/settings';
import type { FileAnalysis } from '../../server/src/service';
import { generateServer } from '../../bench/lsp-latency';
import { LspClient, fileUri } from './harness';

const FILE = '/virtual/bench/server.ts';
const host = createFileHost();
const quiet = () => {};

function canonical(a: FileAnalysis) {
  const findings = a.findings.map((f) => JSON.stringify(f)).sort();
  return { tools: a.result.tools.map((t) => JSON.stringify(t)), files: a.result.files.map((f) => JSON.stringify({ ...f, dependencies: [...f.dependencies].sort() })), findings };
}

type Edit = { label: string; apply(text: string): string; incremental: boolean };

const at = (text: string, needle: string, from = 0) => {
  const i = text.indexOf(needle, from);
  assert.ok(i >= 0, `the generated file contains ${needle}`);
  return i;
};

const EDITS: Edit[] = [
  { label: 'type a character in a description', incremental: true, apply: (t) => { const i = at(t, "description: 'Find", at(t, "'search_note_40'")) + 18; return t.slice(0, i) + 'x' + t.slice(i); } },
  { label: 'delete a character', incremental: true, apply: (t) => { const i = at(t, "description: 'Find", at(t, "'search_note_40'")) + 18; return t.slice(0, i) + t.slice(i + 1); } },
  { label: 'rename a tool to a duplicate of another (server-level rule)', incremental: true, apply: (t) => t.replace("'search_note_40'", "'search_tickets_0'") },
  { label: 'rename it to a vague name', incremental: true, apply: (t) => t.replace("'search_tickets_0',\n  {\n    title: 'Tool 40'", "'process',\n  {\n    title: 'Tool 40'") },
  { label: 'flip an annotation in the first tool', incremental: true, apply: (t) => t.replace('readOnlyHint: false', 'readOnlyHint: true') },
  { label: 'drop a describe() in the last tool', incremental: true, apply: (t) => { const i = t.lastIndexOf(".describe('Free-text terms to match')"); return t.slice(0, i) + t.slice(i + ".describe('Free-text terms to match')".length); } },
  { label: 'break the syntax inside a tool', incremental: false, apply: (t) => t.replace("title: 'Tool 41',", "title: 'Tool 41',,,(") },
  { label: 'repair it', incremental: false, apply: (t) => t.replace("title: 'Tool 41',,,(", "title: 'Tool 41',") },
  { label: 'edit outside any tool', incremental: false, apply: (t) => t.replace("name: 'bench'", "name: 'bench-2'") },
  { label: 'type again after the fallback', incremental: true, apply: (t) => { const i = at(t, "description: 'Find", at(t, "'search_document_60'")) + 18; return t.slice(0, i) + 'yz' + t.slice(i); } },
];

test('incremental analysis equals a full analysis after every kind of edit', () => {
  let text = generateServer(80, 2000);
  let state: IncrementalState = analyzeFull(FILE, text, host, DEFAULT_SETTINGS, quiet).state;
  assert.deepEqual(canonical(analyzeFull(FILE, text, host, DEFAULT_SETTINGS, quiet).analysis), canonical(analyzeFile(FILE, text, host, DEFAULT_SETTINGS)));
  let incrementalSteps = 0;
  for (const edit of EDITS) {
    const next = edit.apply(text);
    assert.notEqual(next, text, `${edit.label}: the edit changes the text`);
    text = next;
    const step = analyzeIncremental(state, text, host, DEFAULT_SETTINGS, quiet);
    assert.equal(step !== undefined, edit.incremental, `${edit.label}: ${edit.incremental ? 'incremental' : 'full'} path`);
    const got = step ?? analyzeFull(FILE, text, host, DEFAULT_SETTINGS, quiet);
    if (step) incrementalSteps++;
    assert.deepEqual(canonical(got.analysis), canonical(analyzeFile(FILE, text, host, DEFAULT_SETTINGS)), `${edit.label}: same tools, facts and findings as a full analysis`);
    state = got.state;
  }
  assert.equal(incrementalSteps, EDITS.filter((e) => e.incremental).length);
});

test('typing through the server: the last version\'s diagnostics equal a fresh analysis of the same text', async () => {
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
    assert.ok(got.diagnostics.some((d) => d.code === 'tool-name-duplicate'), 'the duplicate is reported');
  } finally {
    await typing.stop();
    await fresh.stop();
  }
});

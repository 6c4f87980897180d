/**
 * Shared by the incremental-analysis tests (TypeScript and Python): replays a list of edits through the language
 * server's incremental path and checks every step against the full pipeline (service.ts analyzeFile).
 */
import * as assert from 'node:assert/strict';
import { analyzeFull, analyzeIncremental, type IncrementalState } from '../../server/src/lsp/incremental';
import { analyzeFile, type FileAnalysis } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { DEFAULT_SETTINGS } from '../../common/settings';

export const host = createFileHost();
export const quiet = () => {};

export type Edit = { label: string; apply(text: string): string; incremental: boolean };

/** An analysis as comparable text: tools and file facts in order, findings as a sorted set. */
export function canonical(a: FileAnalysis) {
  return {
    tools: a.result.tools.map((t) => JSON.stringify(t)),
    files: a.result.files.map((f) => JSON.stringify({ ...f, dependencies: [...f.dependencies].sort() })),
    findings: a.findings.map((f) => JSON.stringify(f)).sort(),
  };
}

/** Where `needle` is in `text` (after `from`); fails the test when the generated file does not contain it. */
export const at = (text: string, needle: string, from = 0) => {
  const i = text.indexOf(needle, from);
  assert.ok(i >= 0, `the generated file contains ${needle}`);
  return i;
};

/**
 * Applies `edits` one after another: each takes the incremental path exactly when it says so, and gives the same
 * tools, facts and findings as a full analysis of the same text. Returns the last text and how many steps were
 * incremental.
 */
export function replayEdits(file: string, text0: string, edits: Edit[]): { text: string; incrementalSteps: number } {
  let text = text0;
  let state: IncrementalState = analyzeFull(file, text, host, DEFAULT_SETTINGS, quiet).state;
  assert.deepEqual(canonical(analyzeFull(file, text, host, DEFAULT_SETTINGS, quiet).analysis), canonical(analyzeFile(file, text, host, DEFAULT_SETTINGS)));
  let incrementalSteps = 0;
  for (const edit of edits) {
    const next = edit.apply(text);
    assert.notEqual(next, text, `${edit.label}: the edit changes the text`);
    text = next;
    const step = analyzeIncremental(state, text, host, DEFAULT_SETTINGS, quiet);
    assert.equal(step !== undefined, edit.incremental, `${edit.label}: ${edit.incremental ? 'incremental' : 'full'} path`);
    const got = step ?? analyzeFull(file, text, host, DEFAULT_SETTINGS, quiet);
    if (step) incrementalSteps++;
    assert.deepEqual(canonical(got.analysis), canonical(analyzeFile(file, text, host, DEFAULT_SETTINGS)), `${edit.label}: same tools, facts and findings as a full analysis`);
    state = got.state;
  }
  return { text, incrementalSteps };
}

/**
 * A keystroke's answer crosses from the analysis worker to the main thread as what changed (lsp/analysisJob.ts
 * AnalysisDelta), applied by the pool to its copy of the last answer. Here the real analyzer runs behind a stand-in
 * worker whose messages are structured-cloned as between threads: every result the pool gives must equal a full
 * analysis of the same text, through deltas, through a superseded (abandoned) job, and on the second keystroke after it.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { AnalysisPool, type AnalysisOutcome, type AnalysisWorker } from '../../server/src/lsp/analysisPool';
import type { AnalysisJob, FromWorker, ToWorker } from '../../server/src/lsp/analysisJob';
import { DocumentAnalyzer } from '../../server/src/lsp/analysisWorker';
import { analyzeFile } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { DEFAULT_SETTINGS } from '../../common/settings';
import { generateServer } from '../../bench/lsp-latency';
import { generatePythonServer } from '../../bench/py-analysis';
import { canonical } from '../protocol/incremental-replay';

/** The real analyzer, answering a tick later; `replies` records what crossed (delta or full). */
class ClonedWorker extends EventEmitter implements AnalysisWorker {
  readonly analyzer = new DocumentAnalyzer();
  readonly replies: ('delta' | 'full')[] = [];
  constructor() {
    super();
    setImmediate(() => this.emit('message', { kind: 'ready' } satisfies FromWorker));
  }
  postMessage(message: ToWorker): void {
    const m = structuredClone(message);
    if (m.kind === 'overlay') this.analyzer.setOverlay(m.file, m.text);
    else if (m.kind === 'forget') this.analyzer.forget(m.file);
    else {
      const { analysis, logs, incremental, perTool, delta } = this.analyzer.analyze(m.job, m.id);
      const reply: FromWorker = delta ? { kind: 'done', id: m.id, delta, logs, incremental: true } : { kind: 'done', id: m.id, analysis, perTool, logs, incremental };
      this.replies.push(delta ? 'delta' : 'full');
      const cloned = structuredClone(reply);
      setTimeout(() => this.emit('message', cloned), 5);
    }
  }
  terminate(): Promise<number> {
    setImmediate(() => this.emit('exit', 0));
    return Promise.resolve(0);
  }
}

async function typeInto(file: string, text0: string, anchor: string) {
  const workers: ClonedWorker[] = [];
  const pool = new AnalysisPool({
    spawn: () => {
      const w = new ClonedWorker();
      workers.push(w);
      return w;
    },
    budgetMs: () => 60_000,
    overlays: () => [],
    size: 1,
  });
  const job = (text: string, version: number): AnalysisJob => ({ uri: `file://${file}`, file, version, text, settings: DEFAULT_SETTINGS, settingsGeneration: 0, epoch: 0 });
  const expectSame = (outcome: AnalysisOutcome, text: string, label: string) => {
    assert.equal(outcome.kind, 'done', label);
    if (outcome.kind !== 'done') return;
    assert.deepEqual(canonical(outcome.analysis), canonical(analyzeFile(file, text, createFileHost(), DEFAULT_SETTINGS)), `${label}: same tools, facts and findings as a full analysis`);
  };
  try {
    let text = text0;
    let version = 1;
    expectSame(await pool.analyze(job(text, version)), text, 'open');
    let at = text.indexOf(anchor, text.length / 3) + anchor.length;
    assert.ok(at > anchor.length, `the generated file contains ${anchor}`);
    const type = (ch: string) => {
      text = text.slice(0, at) + ch + text.slice(at);
      at += ch.length;
      return job(text, ++version);
    };
    for (const ch of 'abc') expectSame(await pool.analyze(type(ch)), text, `keystroke ${ch}`);
    // A superseded job: its delta is dropped and leaves no base, the next answer comes in full, then deltas again.
    const stale = pool.analyze(type('d'));
    pool.cancel(`file://${file}`, version);
    assert.deepEqual(await stale, { kind: 'cancelled' });
    for (const ch of 'ef') expectSame(await pool.analyze(type(ch)), text, `keystroke ${ch} after a superseded one`);
    // The same text again (a settings-free re-run of the same content): a delta with no tool re-analysed.
    expectSame(await pool.analyze(job(text, ++version)), text, 'unchanged text');
    // A keystroke that deletes a character.
    text = text.slice(0, at - 1) + text.slice(at);
    at--;
    expectSame(await pool.analyze(job(text, ++version)), text, 'a deletion');
    return workers[0].replies;
  } finally {
    pool.dispose();
  }
}

test('TypeScript keystrokes: the pool rebuilds from deltas exactly what a full analysis gives', async () => {
  const replies = await typeInto('/virtual/delta/server.ts', generateServer(12, 300), "description: 'Find");
  // open, a, b, c, d (superseded: a delta, dropped), e (full), f, unchanged, deletion
  assert.deepEqual(replies, ['full', 'delta', 'delta', 'delta', 'delta', 'full', 'delta', 'delta', 'delta']);
});

test('Python keystrokes: the pool rebuilds from deltas exactly what a full analysis gives', async () => {
  const replies = await typeInto('/virtual/delta/server.py', generatePythonServer(12, 300), '"""Search');
  assert.deepEqual(replies, ['full', 'delta', 'delta', 'delta', 'delta', 'full', 'delta', 'delta', 'delta']);
});

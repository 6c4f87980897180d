/**
 * The analysis pool (server/src/lsp/analysisPool.ts): stale jobs cancelled by a newer version, the time budget,
 * a second worker while one job is slow. Stand-in workers that "analyse" for as many milliseconds as the text says
 * keep the timing exact; test/protocol/budget.test.ts runs the real worker threads.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { AnalysisPool, timeBudgetMsOf, type AnalysisOutcome, type AnalysisWorker } from '../../server/src/lsp/analysisPool';
import type { AnalysisJob, FromWorker, ToWorker } from '../../server/src/lsp/analysisJob';
import { DEFAULT_SETTINGS } from '../../common/settings';
import { DocumentAnalyzer } from '../../server/src/lsp/analysisWorker';
import { analyzeFile } from '../../server/src/service';
import { createFileHost } from '../../server/src/host';
import { generateServer } from '../../bench/lsp-latency';

/** A worker whose analysis of `text` takes Number(text) ms. */
class FakeWorker extends EventEmitter implements AnalysisWorker {
  readonly analysed: string[] = [];
  readonly overlays: [string, string | undefined][] = [];
  terminated = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor() {
    super();
    setImmediate(() => this.emit('message', { kind: 'ready' } satisfies FromWorker));
  }
  postMessage(message: ToWorker): void {
    if (message.kind === 'overlay') this.overlays.push([message.file, message.text]);
    if (message.kind !== 'analyze') return;
    const { id, job } = message;
    this.timer = setTimeout(() => {
      this.analysed.push(`${job.uri}@${job.version}`);
      const reply: FromWorker = { kind: 'done', id, analysis: { file: job.file, result: { tools: [], files: [] }, findings: [] }, logs: [], incremental: false };
      this.emit('message', reply);
    }, Number(job.text));
  }
  terminate(): Promise<number> {
    this.terminated = true;
    clearTimeout(this.timer);
    setImmediate(() => this.emit('exit', 1));
    return Promise.resolve(1);
  }
}

function harness(options: { budgetMs?: number; overlays?: [string, string][] } = {}) {
  const workers: FakeWorker[] = [];
  const logs: string[] = [];
  const pool = new AnalysisPool({
    spawn: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w;
    },
    budgetMs: () => options.budgetMs ?? 10_000,
    overlays: () => options.overlays ?? [],
    slowMs: 100,
    terminateStaleAfterMs: 200,
    log: (m) => logs.push(m),
  });
  const job = (uri: string, version: number, ms: number): AnalysisJob => ({ uri, file: `/w/${uri}.ts`, version, text: String(ms), settings: DEFAULT_SETTINGS, settingsGeneration: 0, epoch: 0 });
  return { pool, workers, logs, job };
}

const timed = async (p: Promise<AnalysisOutcome>) => {
  const started = performance.now();
  const outcome = await p;
  return { outcome, ms: performance.now() - started };
};

test('a newer version supersedes a queued older one: the old job is cancelled without running', async () => {
  const { pool, workers, job } = harness();
  try {
    const busy = pool.analyze(job('a', 1, 50));
    await new Promise((r) => setTimeout(r, 5));
    const c = pool.analyze(job('c', 1, 50));
    const old = pool.analyze(job('b', 1, 10));
    const fresh = pool.analyze(job('b', 2, 10));
    assert.deepEqual(await old, { kind: 'cancelled' });
    assert.equal((await fresh).kind, 'done');
    assert.equal((await busy).kind, 'done');
    assert.equal((await c).kind, 'done');
    assert.deepEqual(workers.flatMap((w) => w.analysed).sort(), ['a@1', 'b@2', 'c@1']);
  } finally {
    pool.dispose();
  }
});

test('cancelling a long running job terminates its worker; the next version runs on a new one at once', async () => {
  const { pool, workers, job, logs } = harness();
  try {
    const stale = pool.analyze(job('a', 1, 5_000));
    await new Promise((r) => setTimeout(r, 250));
    pool.cancel('a', 1);
    assert.deepEqual(await stale, { kind: 'cancelled' });
    assert.equal(workers[0].terminated, true, 'the worker running the superseded job was terminated');
    const next = await timed(pool.analyze(job('a', 2, 10)));
    assert.equal(next.outcome.kind, 'done');
    assert.ok(next.ms < 1_000, `the new version waited ${Math.round(next.ms)} ms`);
    assert.ok(logs.some((l) => /superseded/.test(l)));
  } finally {
    pool.dispose();
  }
});

test('cancelling a short running job abandons its result but keeps the warm worker', async () => {
  const { pool, workers, job } = harness();
  try {
    const stale = pool.analyze(job('a', 1, 80));
    await new Promise((r) => setTimeout(r, 20));
    pool.cancel('a', 1);
    assert.deepEqual(await stale, { kind: 'cancelled' });
    assert.equal((await pool.analyze(job('a', 2, 10))).kind, 'done');
    assert.equal(workers[0].terminated, false);
    assert.deepEqual(workers[0].analysed, ['a@1', 'a@2'], 'the next version went back to the worker holding its state');
  } finally {
    pool.dispose();
  }
});

test('a job over the time budget is stopped, its worker replaced; another document is served meanwhile and after', async () => {
  const { pool, workers, job } = harness({ budgetMs: 400 });
  try {
    const huge = timed(pool.analyze(job('huge', 1, 60_000)));
    await new Promise((r) => setTimeout(r, 20));
    // The second worker takes the small one.
    const small = await timed(pool.analyze(job('small', 1, 20)));
    assert.equal(small.outcome.kind, 'done');
    assert.ok(small.ms < 300, `the small document waited ${Math.round(small.ms)} ms behind the huge one`);
    const { outcome, ms } = await huge;
    assert.equal(outcome.kind, 'over-budget');
    assert.ok(ms >= 390 && ms < 1_000, `stopped after ${Math.round(ms)} ms`);
    assert.equal(workers[0].terminated, true);
    assert.equal((await pool.analyze(job('small', 2, 10))).kind, 'done');
  } finally {
    pool.dispose();
  }
});

test('two warm workers, started one after the other; a stopped one is replaced', async () => {
  const { pool, workers, job } = harness({ budgetMs: 300 });
  try {
    pool.warm();
    assert.equal(pool.workers, 1, 'the second starts once the first is ready');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(pool.workers, 2);
    assert.equal((await pool.analyze(job('huge', 1, 10_000))).kind, 'over-budget');
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(pool.workers, 2, 'the stopped worker was replaced');
    assert.equal(workers.length, 3);
  } finally {
    pool.dispose();
  }
});

test("a document's jobs stay on the worker with its incremental state, unless that one is busy with a slow job", async () => {
  const { pool, workers, job } = harness();
  try {
    pool.warm();
    await new Promise((r) => setTimeout(r, 20));
    await pool.analyze(job('a', 1, 5));
    const home = workers.find((w) => w.analysed.includes('a@1'))!;
    // Busy briefly with another document: a waits for its home worker.
    const other = pool.analyze(job('b', 1, 50));
    await new Promise((r) => setTimeout(r, 5));
    await pool.analyze(job('a', 2, 5));
    await other;
    assert.ok(home.analysed.includes('a@2'), 'a waited for the worker holding its state');
    // Busy for long: a goes to the other worker.
    const cStarted = performance.now();
    const slow = pool.analyze(job('c', 1, 300));
    await new Promise((r) => setTimeout(r, 5));
    await pool.analyze(job('a', 3, 5));
    const waited = performance.now() - cStarted;
    assert.ok(waited >= 100 && waited < 500, `a was analysed ${Math.round(waited)} ms after c started (slowMs 100): it waited for its worker, then went to the other one`);
    assert.ok(!home.analysed.includes('a@3'));
    assert.equal((await slow).kind, 'done');
  } finally {
    pool.dispose();
  }
});

test('overlays reach a worker once; a closed document leaves it', async () => {
  const overlays: [string, string][] = [['/w/lib.ts', 'export const x = 1;']];
  const { pool, workers, job } = harness({ overlays });
  try {
    await pool.analyze(job('a', 1, 1));
    await pool.analyze(job('a', 2, 1));
    assert.deepEqual(
      workers[0].overlays.filter(([f]) => f === '/w/lib.ts'),
      [['/w/lib.ts', 'export const x = 1;']],
      'an unchanged open document is sent once',
    );
    overlays.length = 0;
    await pool.analyze(job('a', 3, 1));
    assert.deepEqual(workers[0].overlays.at(-1), ['/w/lib.ts', undefined]);
  } finally {
    pool.dispose();
  }
});

test('the time budget setting: toolsmith.analysis.timeBudgetSeconds, 10 s when absent or invalid, at most 600 s', () => {
  assert.equal(timeBudgetMsOf({ analysis: { timeBudgetSeconds: 2.5 } }), 2_500);
  assert.equal(timeBudgetMsOf({}), 10_000);
  assert.equal(timeBudgetMsOf({ analysis: { timeBudgetSeconds: -1 } }), 10_000);
  assert.equal(timeBudgetMsOf(null), 10_000);
  assert.equal(timeBudgetMsOf({ analysis: { timeBudgetSeconds: 1e9 } }), 600_000, 'capped');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json') as { contributes: { configuration: { properties: Record<string, { default?: unknown; maximum?: unknown }> } } };
  const contributed = pkg.contributes.configuration.properties['toolsmith.analysis.timeBudgetSeconds'];
  assert.equal(contributed?.default, 10);
  assert.equal(contributed?.maximum, 600);
});

test("the worker's analyzer keeps each document's incremental state: a keystroke in a tool is incremental, a new import epoch or settings generation is not", () => {
  const analyzer = new DocumentAnalyzer();
  const file = '/virtual/pool/server.ts';
  const text = generateServer(12, 300);
  const job = (t: string, version: number, extra: Partial<AnalysisJob> = {}): AnalysisJob => ({
    uri: `file://${file}`,
    file,
    version,
    text: t,
    settings: DEFAULT_SETTINGS,
    settingsGeneration: 0,
    epoch: 0,
    ...extra,
  });
  assert.equal(analyzer.analyze(job(text, 1)).incremental, false, 'the first analysis is a full one');
  const i = text.indexOf("description: '", text.indexOf('registerTool', text.length / 2)) + 18;
  const typed = text.slice(0, i) + 'x' + text.slice(i);
  const step = analyzer.analyze(job(typed, 2));
  assert.equal(step.incremental, true, 'a keystroke inside a tool re-analyses that tool only');
  const full = analyzeFile(file, typed, createFileHost(), DEFAULT_SETTINGS);
  const key = (f: { ruleId: string; span: { start: number; end: number }; message: string }) => `${f.ruleId}@${f.span.start}-${f.span.end}:${f.message}`;
  assert.deepEqual(step.analysis.findings.map(key).sort(), full.findings.map(key).sort(), 'the incremental result equals a full analysis');
  const typed2 = typed.slice(0, i) + 'y' + typed.slice(i);
  assert.equal(analyzer.analyze(job(typed2, 3, { epoch: 1 })).incremental, false, 'an import changed: full analysis');
  const typed3 = typed2.slice(0, i) + 'z' + typed2.slice(i);
  assert.equal(analyzer.analyze(job(typed3, 4, { epoch: 1, settingsGeneration: 1, settings: { ...DEFAULT_SETTINGS } })).incremental, false, 'new settings: full analysis');
  const typed4 = typed3.slice(0, i) + 'w' + typed3.slice(i);
  assert.equal(
    analyzer.analyze(job(typed4, 5, { epoch: 1, settingsGeneration: 1, settings: { ...DEFAULT_SETTINGS } })).incremental,
    true,
    'same generation, a cloned settings object: still incremental',
  );
});

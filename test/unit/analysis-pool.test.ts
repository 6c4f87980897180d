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
    const slow = pool.analyze(job('c', 1, 1_000));
    await new Promise((r) => setTimeout(r, 5));
    const started = performance.now();
    await pool.analyze(job('a', 3, 5));
    const waited = performance.now() - started;
    assert.ok(waited >= 95 && waited < 500, `a waited ${Math.round(waited)} ms (slowMs 100) before going to the other worker`);
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

/**
 * The analysis workers of the language server and their queue: the main thread only posts jobs and publishes
 * results, so one huge or pathological document never holds the requests of the others.
 *
 * - Two workers (the machine's cores), warm before they are needed: a worker needs ~1.5 s to load the front-ends, so a
 *   spare started when a job turns out slow would come too late. The second starts once the first is ready (they do
 *   not compete at start-up), and a worker that was stopped is replaced the same way. A worker takes jobs once it is
 *   ready: the time budget never pays for loading the front-ends.
 * - A document's jobs go to the worker holding its incremental state; to the other one only when that one has been
 *   busy for `slowMs` (a full analysis elsewhere costs more than a short wait).
 * - A job of a document is superseded by its newer version: a queued one is dropped; a running one is abandoned and,
 *   once it has run `terminateStaleAfterMs`, its worker is terminated (a short job is cheaper to finish than a warm
 *   worker to replace).
 * - A job running longer than its time budget is abandoned: its worker is terminated (and replaced when needed) and
 *   the job's outcome says so; the other documents' jobs go on.
 */
import type { AnalysisDelta, AnalysisJob, FromWorker, JobLog, ToWorker } from './analysisJob';
import type { FileAnalysis } from '../service';
import type { ToolDefinition } from '../analysis/model';
import type { Finding } from '../rules/types';
import { shiftBounded } from './offsets';

export type AnalysisOutcome =
  | { kind: 'done'; analysis: FileAnalysis; logs: JobLog[]; incremental: boolean; ms: number }
  /** Ran past the time budget: abandoned, its worker terminated. */
  | { kind: 'over-budget'; ms: number; budgetMs: number }
  /** Superseded (a newer version, the document closed) before it finished. */
  | { kind: 'cancelled' }
  /** The worker died under it (out of memory, a crash of ours). */
  | { kind: 'crashed'; reason: string };

/** What the pool needs of a worker thread (node:worker_threads Worker; a stand-in in tests). */
export interface AnalysisWorker {
  postMessage(message: ToWorker): void;
  on(event: 'message', listener: (message: FromWorker) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
}

export interface AnalysisPoolOptions {
  /** Starts a worker. It answers { kind: 'ready' } before it takes jobs. */
  spawn: () => AnalysisWorker;
  /** The time one job may run, read when it starts (the setting may change). */
  budgetMs: () => number;
  /** The open documents' texts (file -> text), sent to a worker before it runs a job when they changed. */
  overlays: () => Iterable<[string, string]>;
  /** Workers kept warm (2). */
  size?: number;
  slowMs?: number;
  terminateStaleAfterMs?: number;
  log?: (message: string) => void;
}

interface Queued {
  id: number;
  job: AnalysisJob;
  resolve: (outcome: AnalysisOutcome) => void;
}

interface Running extends Queued {
  started: number;
  budget: ReturnType<typeof setTimeout>;
  /** Abandoned: its outcome was already given (cancelled); the worker's answer is dropped. */
  abandoned: boolean;
}

interface Slot {
  worker: AnalysisWorker;
  /** Warmed up: takes jobs. */
  ready: boolean;
  spawned: number;
  running?: Running;
  /** The overlay texts this worker has (by identity: an unchanged document keeps its string). */
  sent: Map<string, string>;
  /** Files whose incremental state this worker holds. */
  analysed: Set<string>;
  /** Terminated by us: its exit is not a crash. */
  retired: boolean;
  /** Per file, the last answer of this worker split per tool: what its next answer may be a delta of. */
  bases: Map<string, Base>;
}

/** An answer kept for the next one's delta (AnalysisDelta): the tools and each tool's findings. */
interface Base {
  job: number;
  tools: ToolDefinition[];
  perTool: Finding[][];
}

export class AnalysisPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private nextId = 1;
  private disposed = false;
  private pumpTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly size: number;
  private readonly slowMs: number;
  private readonly terminateStaleAfterMs: number;

  constructor(private readonly options: AnalysisPoolOptions) {
    this.size = Math.max(1, options.size ?? 2);
    this.slowMs = options.slowMs ?? 300;
    this.terminateStaleAfterMs = options.terminateStaleAfterMs ?? 500;
  }

  /** Workers alive (for tests and the log). */
  get workers(): number {
    return this.slots.length;
  }

  /** Starts the workers ahead of the first job (they load the front-ends meanwhile). */
  warm(): void {
    this.replenish();
  }

  /** Queues a job; a queued job of an older version of the same document is superseded by it. */
  analyze(job: AnalysisJob): Promise<AnalysisOutcome> {
    if (this.disposed) return Promise.resolve({ kind: 'cancelled' });
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const q = this.queue[i];
      if (q.job.uri === job.uri && q.job.version <= job.version) {
        this.queue.splice(i, 1);
        q.resolve({ kind: 'cancelled' });
      }
    }
    return new Promise((resolve) => {
      const queued = { id: this.nextId++, job, resolve };
      // An open document's job goes before the closed files' (background) ones, in order among its own kind.
      const firstBackground = job.background ? -1 : this.queue.findIndex((q) => q.job.background);
      if (firstBackground < 0) this.queue.push(queued);
      else this.queue.splice(firstBackground, 0, queued);
      this.pump();
    });
  }

  /** Abandons the document's jobs up to `version` (all of them when omitted): a newer version or a close supersedes them. */
  cancel(uri: string, version = Infinity): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const q = this.queue[i];
      if (q.job.uri === uri && q.job.version <= version) {
        this.queue.splice(i, 1);
        q.resolve({ kind: 'cancelled' });
      }
    }
    for (const slot of [...this.slots]) {
      const r = slot.running;
      if (!r || r.abandoned || r.job.uri !== uri || r.job.version > version) continue;
      r.abandoned = true;
      r.resolve({ kind: 'cancelled' });
      if (performance.now() - r.started >= this.terminateStaleAfterMs) {
        this.options.log?.(`analysis of ${r.job.file} (version ${r.job.version}) superseded after ${Math.round(performance.now() - r.started)} ms: its worker is restarted`);
        this.retire(slot);
      }
    }
    this.pump();
  }

  /** The document was closed: its text and incremental state leave every worker. */
  forget(file: string): void {
    for (const slot of this.slots) {
      slot.analysed.delete(file);
      slot.bases.delete(file);
      if (slot.sent.delete(file)) slot.worker.postMessage({ kind: 'forget', file });
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    for (const q of this.queue.splice(0)) q.resolve({ kind: 'cancelled' });
    for (const slot of [...this.slots]) {
      if (slot.running && !slot.running.abandoned) slot.running.resolve({ kind: 'cancelled' });
      this.retire(slot);
    }
  }

  private spawn(): Slot {
    const worker = this.options.spawn();
    const slot: Slot = { worker, ready: false, spawned: performance.now(), sent: new Map(), analysed: new Set(), retired: false, bases: new Map() };
    worker.on('message', (message: FromWorker) => this.answered(slot, message));
    worker.on('error', (err: Error) => this.died(slot, `the analysis worker failed: ${err.message}`));
    worker.on('exit', (code: number) => this.died(slot, `the analysis worker exited (code ${code})`));
    this.slots.push(slot);
    return slot;
  }

  private retire(slot: Slot): void {
    slot.retired = true;
    if (slot.running) clearTimeout(slot.running.budget);
    slot.running = undefined;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    void slot.worker.terminate().catch(() => undefined);
    this.replenish();
  }

  /** Keeps `size` workers, starting one at a time (the next once the last is ready). */
  private replenish(): void {
    if (this.disposed || this.slots.length >= this.size || this.slots.some((s) => !s.ready)) return;
    this.spawn();
  }

  private answered(slot: Slot, message: FromWorker): void {
    if (message.kind === 'ready') {
      slot.ready = true;
      this.options.log?.(`analysis worker ready after ${Math.round(performance.now() - slot.spawned)} ms (${this.slots.length} running)`);
      this.replenish();
      this.pump();
      return;
    }
    const r = slot.running;
    if (!r || r.id !== message.id) return;
    clearTimeout(r.budget);
    slot.running = undefined;
    const outcome = this.outcomeOf(slot, r, message);
    if (!r.abandoned) r.resolve(outcome);
    this.pump();
  }

  /** A worker's answer as an outcome: a delta applied to the base it was computed from (which it becomes). */
  private outcomeOf(slot: Slot, r: Running, message: Extract<FromWorker, { id: number }>): AnalysisOutcome {
    const file = r.job.file;
    if (message.kind === 'failed') {
      slot.bases.delete(file);
      return { kind: 'crashed', reason: message.error };
    }
    const ms = performance.now() - r.started;
    if (!('delta' in message)) {
      const { analysis, perTool } = message;
      // A closed file's answer is no base: nothing on the main thread holds it for a delta.
      if (perTool && perTool.length === analysis.result.tools.length && !r.job.background) {
        let at = 0;
        slot.bases.set(file, { job: r.id, tools: analysis.result.tools, perTool: perTool.map((n) => analysis.findings.slice(at, (at += n))) });
      } else slot.bases.delete(file);
      return { kind: 'done', analysis, logs: message.logs, incremental: message.incremental, ms };
    }
    const base = slot.bases.get(file);
    slot.bases.delete(file);
    if (!base || base.job !== message.delta.baseJob) return { kind: 'crashed', reason: `internal: the worker answered with a delta of job ${message.delta.baseJob}, which this thread does not hold` };
    // The base's objects may be those of the document's last published analysis: moved in place only for an answer
    // that replaces it. An abandoned one leaves no base (the next answer comes in full).
    if (r.abandoned) return { kind: 'cancelled' };
    const next = applyDelta(base, message.delta, file, r.id);
    slot.bases.set(file, next);
    const analysis: FileAnalysis = { file, result: { tools: next.tools, files: message.delta.files }, findings: [...next.perTool.flat(), ...message.delta.fileFindings] };
    return { kind: 'done', analysis, logs: message.logs, incremental: true, ms };
  }

  private died(slot: Slot, reason: string): void {
    if (slot.retired) return;
    const r = slot.running;
    this.retire(slot);
    if (r && !r.abandoned) r.resolve({ kind: 'crashed', reason });
    this.options.log?.(reason);
    this.pump();
  }

  private overBudget(slot: Slot, r: Running, budgetMs: number): void {
    if (slot.running !== r) return;
    const ms = performance.now() - r.started;
    this.options.log?.(`analysis of ${r.job.file} stopped after ${Math.round(ms)} ms (time budget ${budgetMs} ms): its worker is restarted`);
    this.retire(slot);
    if (!r.abandoned) r.resolve({ kind: 'over-budget', ms, budgetMs });
    this.pump();
  }

  /** Starts queued jobs, oldest first, on ready workers that are free. */
  private pump(): void {
    if (this.disposed) return;
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    this.pumpTimer = undefined;
    if (this.slots.length === 0) this.replenish();
    const now = performance.now();
    let recheck = Infinity;
    for (let i = 0; i < this.queue.length;) {
      const free = this.slots.filter((s) => s.ready && !s.running);
      if (!free.length) break;
      const q = this.queue[i];
      const home = this.slots.find((s) => s.analysed.has(q.job.file));
      let slot = home && !home.running ? home : undefined;
      if (!slot && home?.running && home.ready) {
        // Its state is on a busy worker: wait for it while its job is short.
        const busyFor = now - home.running.started;
        if (busyFor < this.slowMs) recheck = Math.min(recheck, this.slowMs - busyFor);
        else slot = leastLoaded(free);
      } else slot ??= leastLoaded(free);
      if (!slot) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.start(slot, q);
    }
    if (recheck !== Infinity) this.pumpTimer = setTimeout(() => this.pump(), recheck + 1);
  }

  private start(slot: Slot, q: Queued): void {
    const present = new Set<string>();
    for (const [file, text] of this.options.overlays()) {
      present.add(file);
      if (file === q.job.file || slot.sent.get(file) === text) continue;
      slot.sent.set(file, text);
      slot.worker.postMessage({ kind: 'overlay', file, text });
    }
    for (const file of slot.sent.keys()) {
      if (present.has(file) || file === q.job.file) continue;
      slot.sent.delete(file);
      slot.worker.postMessage({ kind: 'overlay', file, text: undefined });
    }
    slot.sent.set(q.job.file, q.job.text);
    // The job's state will be on this worker: another worker's older one is no longer where its jobs go.
    for (const other of this.slots) {
      if (other === slot) continue;
      other.analysed.delete(q.job.file);
      other.bases.delete(q.job.file);
    }
    slot.analysed.add(q.job.file);
    const budgetMs = Math.max(1, this.options.budgetMs());
    const running: Running = {
      ...q,
      started: performance.now(),
      abandoned: false,
      budget: setTimeout(() => this.overBudget(slot, running, budgetMs), budgetMs),
    };
    slot.running = running;
    const baseJob = q.job.background ? undefined : slot.bases.get(q.job.file)?.job;
    slot.worker.postMessage({ kind: 'analyze', id: q.id, job: baseJob === undefined ? q.job : { ...q.job, baseJob } });
  }
}

/** The base moved by the delta's edit, its re-analysed tool and that tool's findings replaced: the worker's result. */
function applyDelta(base: Base, d: AnalysisDelta, file: string, job: number): Base {
  // One set for the step: a span object reachable from a tool and from its finding moves once (as in the worker).
  const seen = new WeakSet<object>();
  const tools = base.tools.map((t, i) => (i === d.index && d.tool ? d.tool : shiftBounded(t, file, d.from, d.delta, seen)));
  const perTool = base.perTool.map((list, i) => (i === d.index && d.toolFindings ? d.toolFindings : shiftBounded(list, file, d.from, d.delta, seen)));
  return { job, tools, perTool };
}

/** The free worker holding the fewest documents' states: a new document does not queue behind the busy ones' next edits. */
function leastLoaded(free: Slot[]): Slot {
  return free.reduce((best, s) => (s.analysed.size < best.analysed.size ? s : best));
}

/** The time budget of one analysis, from the `toolsmith` settings section (`analysis.timeBudgetSeconds`). */
export const DEFAULT_TIME_BUDGET_SECONDS = 10;
export const MAX_TIME_BUDGET_SECONDS = 600;
export function timeBudgetMsOf(section: unknown): number {
  const analysis = section && typeof section === 'object' ? (section as { analysis?: unknown }).analysis : undefined;
  const seconds = analysis && typeof analysis === 'object' ? (analysis as { timeBudgetSeconds?: unknown }).timeBudgetSeconds : undefined;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return DEFAULT_TIME_BUDGET_SECONDS * 1000;
  // A workspace may raise it, not to forever: both workers held by two such files would hold every other document.
  return Math.min(seconds, MAX_TIME_BUDGET_SECONDS) * 1000;
}

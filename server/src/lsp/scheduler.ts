import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver';

export type AnalysisRun = (uri: string, token: CancellationToken) => Promise<void>;

/**
 * Debounced, cancellable analysis per document, at most one run in flight per document.
 *
 * Each `schedule` supersedes what came before for that document: the pending timer is reset and a run in flight is
 * cancelled (the run checks its token between phases and publishes nothing once cancelled). A new run waits for
 * the cancelled one to settle, so two runs of one document never overlap.
 */
export class DiagnosticsScheduler {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly generations = new Map<string, number>();
  private readonly running = new Map<string, { source: CancellationTokenSource; done: Promise<void> }>();
  private readonly idleWaiters: (() => void)[] = [];

  constructor(
    public delayMs: number,
    private readonly run: AnalysisRun,
    private readonly onError: (uri: string, err: unknown) => void,
  ) {}

  schedule(uri: string, delayMs = this.delayMs): void {
    const generation = (this.generations.get(uri) ?? 0) + 1;
    this.generations.set(uri, generation);
    const timer = this.timers.get(uri);
    if (timer) clearTimeout(timer);
    this.running.get(uri)?.source.cancel();
    this.timers.set(
      uri,
      setTimeout(
        () => {
          this.timers.delete(uri);
          void this.start(uri, generation);
        },
        Math.max(0, delayMs),
      ),
    );
  }

  /** Drops anything pending or running for a document (closed). */
  cancel(uri: string): void {
    this.generations.set(uri, (this.generations.get(uri) ?? 0) + 1);
    const timer = this.timers.get(uri);
    if (timer) clearTimeout(timer);
    this.timers.delete(uri);
    this.running.get(uri)?.source.cancel();
    this.notifyIdle();
  }

  get busy(): boolean {
    return this.timers.size > 0 || this.running.size > 0;
  }

  /** Resolves when nothing is pending or running. */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private async start(uri: string, generation: number): Promise<void> {
    const previous = this.running.get(uri);
    if (previous) {
      previous.source.cancel();
      await previous.done;
    }
    // A newer change arrived while the cancelled run settled: its own timer will start it.
    if (this.generations.get(uri) !== generation || this.running.has(uri)) return this.notifyIdle();
    const source = new CancellationTokenSource();
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    this.running.set(uri, { source, done });
    try {
      await this.run(uri, source.token);
    } catch (err) {
      this.onError(uri, err);
    } finally {
      if (this.running.get(uri)?.source === source) this.running.delete(uri);
      source.dispose();
      settle();
      this.notifyIdle();
    }
  }

  private notifyIdle(): void {
    if (this.busy) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }
}

/**
 * The language server's whole servers (wholeServers.ts): each entry of the workspace predicted on the main thread
 * (with the bundled SDK and schema libraries, like every closed file here), kept until a file it read changes. The
 * server rules of a file read what is cached (`current()`), never a fresh prediction: a keystroke only marks the
 * predictions that read the file stale, and they are made again once the workspace has been quiet for `delayMs`, one
 * entry per turn of the event loop (requests are answered in between). Then `onRefreshed` re-checks the files whose
 * servers changed.
 */
import { analyzeEntry, type AnalysedModules } from '../analysis/entry';
import type { AnalysisResult, FileHost } from '../analysis/model';
import type { WholeServer } from '../rules/types';
import { recordingHost } from '../cli/check-cache';

interface Prediction {
  /** Every file the prediction read (its graph): a change to one of them makes it stale. */
  read: Set<string>;
  servers: WholeServer[];
  /** Servers this entry's modules compose into another (listed only through it). */
  composed: string[];
  /** A digest of what the server rules see of each server (names, descriptions, places, contracts). */
  digest: string;
}

export interface WholeServerCacheOptions {
  host: FileHost;
  /** The workspace's entries now (files constructing a server, declared entries). */
  entries: () => string[];
  /** A module already analysed alone, for this very text (the index's analyses: Python entries reuse them). */
  analysed?: (module: string, text: string) => AnalysisResult | undefined;
  /** Called after a refresh changed the servers: the files registering a tool of a changed server (before or after). */
  onRefreshed: (files: Set<string>) => void;
  delayMs?: number;
  log?: (message: string) => void;
}

export class WholeServerCache {
  private readonly predictions = new Map<string, Prediction>();
  private servers: WholeServer[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private again = false;
  private disposed = false;
  /** Files changed since the last refresh started (undefined: everything, e.g. settings or trust changed). */
  private changed: Set<string> | undefined = new Set();

  constructor(private readonly opts: WholeServerCacheOptions) {}

  /** The whole servers as last predicted: never computes. */
  current(): readonly WholeServer[] {
    return this.servers;
  }

  /** `file` changed (undefined: anything may have); the predictions reading it are made again after a quiet period. */
  invalidate(file?: string): void {
    if (file === undefined) this.changed = undefined;
    else this.changed?.add(file);
    this.schedule();
  }

  /** Asks for a refresh after the quiet period (the entries may have changed: a scan found some). */
  schedule(): void {
    if (this.disposed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, this.opts.delayMs ?? 1000);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Predicts the stale and new entries (one per event-loop turn), then swaps the servers in. Resolves when done. */
  async refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        const changed = this.changed;
        this.changed = new Set();
        const entries = this.opts.entries();
        for (const e of [...this.predictions.keys()]) {
          const p = this.predictions.get(e)!;
          if (!entries.includes(e) || changed === undefined || [...changed].some((f) => p.read.has(f))) this.predictions.delete(e);
        }
        for (const entry of entries) {
          if (this.disposed) return;
          if (this.predictions.has(entry)) continue;
          await new Promise<void>((resolve) => setImmediate(resolve));
          const p = this.predict(entry);
          if (p) this.predictions.set(entry, p);
        }
        this.swap();
      } while (this.again && !this.disposed);
    } finally {
      this.running = false;
    }
  }

  private predict(entry: string): Prediction | undefined {
    const recorded = recordingHost(this.opts.host);
    const text = recorded.host.readFile(entry);
    if (text === undefined) return undefined;
    const reuse: AnalysedModules = (module, src) => this.opts.analysed?.(module, src);
    try {
      const { result, servers } = analyzeEntry(entry, text, recorded.host, reuse);
      const read = new Set(recorded.dependencies().map((d) => d[1]));
      for (const m of result.graph.modules) read.add(m);
      const whole = servers.filter((s) => s.constructed).map((s) => ({ id: s.id, tools: s.tools.map((i) => result.tools[i]) }));
      return { read, servers: whole, composed: result.files.flatMap((f) => f.composedServers ?? []), digest: digestOf(whole) };
    } catch (err) {
      this.opts.log?.(`whole-server prediction of ${entry} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return undefined;
    }
  }

  private swap(): void {
    const before = new Map(this.servers.map((s) => [s.id, s]));
    const composed = new Set([...this.predictions.values()].flatMap((p) => p.composed));
    const next: WholeServer[] = [];
    const digests = new Map<string, string>();
    for (const p of this.predictions.values()) {
      for (const s of p.servers) {
        if (composed.has(s.id) || digests.has(s.id)) continue;
        next.push(s);
        digests.set(s.id, digestOf([s]));
      }
    }
    const files = new Set<string>();
    const touch = (s: WholeServer) => s.tools.forEach((t) => files.add(t.registration.span.file));
    for (const s of next) {
      const old = before.get(s.id);
      if (!old || digestOf([old]) !== digests.get(s.id)) {
        touch(s);
        if (old) touch(old);
      }
    }
    for (const [id, old] of before) if (!digests.has(id)) touch(old);
    this.servers = next;
    if (files.size) this.opts.onRefreshed(files);
  }
}

function digestOf(servers: readonly WholeServer[]): string {
  return JSON.stringify(
    servers.map((s) => [
      s.id,
      s.tools.map((t) => [t.name.value, t.name.span.start, t.registration.span.file, t.registration.span.start, t.registration.span.end, t.description?.value, t.contract]),
    ]),
  );
}

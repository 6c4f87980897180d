/**
 * Keeps the editor's code lenses in step with the analysis, without flooding it with refresh requests.
 *
 * VS Code asks for a document's lenses on a debounced timer (a few hundred ms), restarts that timer on every
 * workspace/codeLens/refresh, and cancels it when the editor text loses focus; it asks again only on focus, an edit or
 * another refresh. A request dropped that way leaves the file without lenses until the user clicks back into it. So a
 * refresh after every analysis is harmful: it postpones the editor's own request into the moment the user moves on
 * (the rules e2e opens the Problems panel right after the first squiggle, and lost the lens about one run in three).
 *
 * Instead the server remembers what its last lens answer for each document held and, after an analysis, refreshes
 * only when the editor holds (or never got) something else, and only after leaving the editor time to ask on its own.
 * A few retries with a growing delay, then it gives up: a document open in no visible editor is never asked for.
 */
export const LENS_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];

interface Pending {
  attempt: number;
  timer?: ReturnType<typeof setTimeout>;
}

export class LensSync {
  /** What the last lens answer for each document held. */
  private readonly served = new Map<string, string>();
  /** What the lenses of each document's last published analysis are. */
  private readonly current = new Map<string, string>();
  private readonly pending = new Map<string, Pending>();

  constructor(
    /** Sends workspace/codeLens/refresh (when the client supports it). */
    private readonly refresh: () => void,
    public delaysMs: readonly number[] = LENS_RETRY_DELAYS_MS,
  ) {}

  /** A textDocument/codeLens answer for `uri` was sent, with these lenses. */
  answered(uri: string, lenses: string): void {
    this.served.set(uri, lenses);
    if (this.inStep(uri)) this.stop(uri);
  }

  /** An analysis of `uri` was published; `lenses` is what a lens request would answer now. */
  analysed(uri: string, lenses: string): void {
    const changed = this.current.get(uri) !== lenses;
    this.current.set(uri, lenses);
    if (this.inStep(uri)) return this.stop(uri);
    // Same lenses as before: a retry already running (or given up) for them is not restarted.
    if (!changed && this.pending.has(uri)) return;
    this.arm(uri, 0);
  }

  closed(uri: string): void {
    this.stop(uri);
    this.served.delete(uri);
    this.current.delete(uri);
  }

  /** Whether a refresh for `uri` is waiting (for tests and logs). */
  waiting(uri: string): boolean {
    return this.pending.get(uri)?.timer !== undefined;
  }

  dispose(): void {
    for (const uri of [...this.pending.keys()]) this.stop(uri);
  }

  private inStep(uri: string): boolean {
    return (this.served.get(uri) ?? '') === (this.current.get(uri) ?? '');
  }

  private stop(uri: string): void {
    const p = this.pending.get(uri);
    if (p?.timer) clearTimeout(p.timer);
    this.pending.delete(uri);
  }

  private arm(uri: string, attempt: number): void {
    this.stop(uri);
    const p: Pending = { attempt };
    this.pending.set(uri, p);
    if (attempt >= this.delaysMs.length) return; // given up until the lenses change
    p.timer = setTimeout(() => {
      p.timer = undefined;
      if (this.pending.get(uri) !== p || this.inStep(uri)) return;
      this.refresh();
      this.arm(uri, attempt + 1);
    }, this.delaysMs[attempt]);
    // Never keeps the server process alive on its own.
    p.timer.unref?.();
  }
}

/** What the editor shows of a lens list: one entry per line and tool (two lenses per tool share a line). */
export function lensKey(lenses: readonly { range: { start: { line: number } }; command?: { arguments?: unknown[] } }[]): string {
  const parts: string[] = [];
  for (const lens of lenses) {
    const arg = lens.command?.arguments?.[0] as { toolName?: string | null } | undefined;
    const part = `${lens.range.start.line}:${arg?.toolName ?? ''}`;
    if (parts[parts.length - 1] !== part) parts.push(part);
  }
  return parts.join('\n');
}

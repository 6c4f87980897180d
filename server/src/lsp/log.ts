/** Logs a message once per key: a failure on every keystroke must not flood the output channel. */
export class OnceLogger {
  private readonly seen = new Set<string>();
  constructor(private readonly sink: (message: string) => void) {}

  log(message: string): void {
    this.sink(message);
  }

  once(key: string, message: string): void {
    if (this.seen.has(key)) return;
    if (this.seen.size > 1000) this.seen.clear();
    this.seen.add(key);
    this.sink(message);
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

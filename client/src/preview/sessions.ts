/**
 * Live servers the preview compares against, keyed by server source file. The preview starts its own (the SDK
 * Client over stdio, see live.ts) and stops them when the extension deactivates. A playground session registry can be
 * plugged in through `external`: a server the playground already runs is then used instead of starting a second one.
 */
import { startLiveSession, type LiveSession } from './live';
import type { LaunchSpec } from './launch';

export interface ExternalSessions {
  /** A running session whose server runs `file`, if the playground has one. */
  running(file: string): LiveSession | undefined;
}

export class LiveSessions {
  private readonly own = new Map<string, LiveSession>();
  private readonly pending = new Map<string, Promise<LiveSession>>();
  external: ExternalSessions | undefined;

  running(file: string): LiveSession | undefined {
    return this.external?.running(file) ?? this.own.get(file);
  }

  async start(file: string, spec: LaunchSpec): Promise<LiveSession> {
    const existing = this.running(file);
    if (existing) return existing;
    let p = this.pending.get(file);
    if (!p) {
      p = startLiveSession(spec).finally(() => this.pending.delete(file));
      this.pending.set(file, p);
    }
    const s = await p;
    this.own.set(file, s);
    return s;
  }

  async restart(file: string, spec: LaunchSpec): Promise<LiveSession> {
    const s = this.own.get(file);
    this.own.delete(file);
    await s?.close().catch(() => undefined);
    return this.start(file, spec);
  }

  async disposeAll(): Promise<void> {
    const all = [...this.own.values()];
    this.own.clear();
    await Promise.all(all.map((s) => s.close().catch(() => undefined)));
  }
}

/**
 * Live servers the preview compares against, keyed by server source file. The preview starts its own (the SDK
 * Client over stdio, see live.ts) and stops them when the extension deactivates. A playground session registry can be
 * plugged in through `external`: a server the playground already runs is then used instead of starting a second one.
 */
import * as path from 'node:path';
import { startLiveSession, type LiveSession } from './live';
import type { LaunchSpec } from './launch';
import type { ServerManager } from '../servers/manager';
import type { McpSession } from '../servers/session';
import type { JsonSchema } from '../../../common/json';

export interface ExternalSessions {
  /** A running session whose server runs `file`, if the playground has one. */
  running(file: string): LiveSession | undefined;
  /** Restarts that session (the playground owns it). */
  restart?(file: string): Promise<LiveSession | undefined>;
}

/**
 * The playground's sessions (client/src/servers/manager.ts) seen as live sources: a configured or detected server
 * whose arguments name the file. Start times are recorded from the sessions' status events.
 */
export function playgroundSessions(manager: ServerManager): ExternalSessions {
  const startedAt = new WeakMap<McpSession, number>();
  const watch = (s: McpSession) =>
    s.on('status', (status) => {
      if (status === 'starting') startedAt.set(s, Date.now());
    });
  manager.on('session', (_config, s) => watch(s));
  const idFor = (file: string) =>
    manager.configs.find((c) => c.detected?.sourceFile === file || c.args.some((a) => path.resolve(c.cwd ?? path.dirname(file), a) === file))?.id;
  const wrap = (s: McpSession, file: string): LiveSession => ({
    startedAt: startedAt.get(s) ?? Date.now(),
    entryFile: file,
    owner: 'playground',
    // The SDK's Tool objects are JSON values.
    listTools: async () => (await s.listTools()) as unknown as JsonSchema[],
    close: async () => undefined, // the playground decides when its servers stop
    stderrTail: () => s.stderrTail.join('\n'),
  });
  return {
    running(file) {
      const id = idFor(file);
      const s = id ? manager.existingSession(id) : undefined;
      return s?.running ? wrap(s, file) : undefined;
    },
    async restart(file) {
      const id = idFor(file);
      if (!id || !manager.existingSession(id)?.running) return undefined;
      return wrap(await manager.restart(id), file);
    },
  };
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
    const external = await this.external?.restart?.(file);
    if (external) return external;
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

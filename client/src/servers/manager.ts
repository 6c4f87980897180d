/**
 * The workspace's servers and their sessions, without vscode: the tree and the playground read this,
 * the commands call it. The one place that decides whether a process may be launched at all:
 * never in an untrusted workspace, and a detected candidate only once the author confirmed it.
 */
import { EventEmitter } from 'node:events';
import type { DiscoveryResult, ServerConfig } from './discovery';
import type { McpSession, LaunchSpec, SessionOptions } from './session';
import { playgroundBundle } from '../playground/lazy';

export class LaunchRefused extends Error {
  constructor(
    readonly reason: 'untrusted' | 'unconfirmed' | 'unknown',
    message: string,
  ) {
    super(message);
  }
}

export interface ManagerHost {
  isTrusted(): boolean;
  /** Resolves variables and prompts for ${input:...}; throws LaunchCancelled when the author cancels. */
  resolve(config: ServerConfig): Promise<LaunchSpec>;
  sessionOptions?: SessionOptions;
}

export interface ManagerEvents {
  changed: [];
  /** A session was created for a server (the glue attaches output channels). */
  session: [ServerConfig, McpSession];
}

export class ServerManager extends EventEmitter<ManagerEvents> {
  configs: ServerConfig[] = [];
  skipped: DiscoveryResult['skipped'] = [];
  problems: DiscoveryResult['problems'] = [];
  private readonly sessions = new Map<string, McpSession>();
  private readonly starting = new Map<string, Promise<McpSession>>();

  constructor(private readonly host: ManagerHost) {
    super();
  }

  setDiscovery(result: DiscoveryResult, candidates: ServerConfig[]): void {
    this.configs = [...result.servers, ...candidates];
    this.skipped = result.skipped;
    this.problems = result.problems;
    this.emit('changed');
  }

  config(id: string): ServerConfig | undefined {
    return this.configs.find((c) => c.id === id);
  }

  /** The session of a server, created (not started) on first use: the first one loads the MCP stack (lazy.ts). */
  session(id: string): McpSession | undefined {
    let s = this.sessions.get(id);
    if (!s) {
      const c = this.config(id);
      if (!c) return undefined;
      const { McpSession } = playgroundBundle();
      s = new McpSession({ command: c.command, args: c.args, cwd: c.cwd }, this.host.sessionOptions);
      s.on('status', () => this.emit('changed'));
      s.on('toolsChanged', () => this.emit('changed'));
      s.on('catalogChanged', () => this.emit('changed'));
      this.sessions.set(id, s);
      this.emit('session', c, s);
    }
    return s;
  }

  existingSession(id: string): McpSession | undefined {
    return this.sessions.get(id);
  }

  /** Refuses before anything is spawned; otherwise resolves the launch anew and starts. */
  async start(id: string): Promise<McpSession> {
    const pending = this.starting.get(id);
    if (pending) return pending;
    const p = this.doStart(id, false).finally(() => this.starting.delete(id));
    this.starting.set(id, p);
    return p;
  }

  async restart(id: string): Promise<McpSession> {
    return this.doStart(id, true);
  }

  private async doStart(id: string, restart: boolean): Promise<McpSession> {
    const c = this.config(id);
    if (!c) throw new LaunchRefused('unknown', `No server "${id}" in this workspace.`);
    if (!this.host.isTrusted()) {
      throw new LaunchRefused('untrusted', `${c.name} was not started: this workspace is not trusted, and Toolsmith never launches a server in Restricted Mode. Trust the workspace to use the playground.`);
    }
    if (c.detected && !c.detected.confirmed) {
      throw new LaunchRefused('unconfirmed', `${c.name} was detected as an MCP server but not confirmed yet: confirm it once to run it.`);
    }
    const spec = await this.host.resolve(c);
    const s = this.session(id)!;
    if (restart || s.running) await s.stop();
    s.spec = spec;
    await s.start();
    return s;
  }

  async stop(id: string): Promise<void> {
    await this.sessions.get(id)?.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.stop()));
  }

  /** Drops sessions of servers that disappeared from the configuration. */
  async prune(): Promise<void> {
    for (const [id, s] of this.sessions) {
      if (!this.config(id)) {
        await s.stop();
        this.sessions.delete(id);
      }
    }
  }
}

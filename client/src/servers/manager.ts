/**
 * The workspace's servers and their sessions, without vscode: the one owner of MCP sessions in the extension. The
 * tree, the playground and the preview's live comparison all read the sessions here, the commands call it. The one
 * place that decides whether a process may be launched at all: never in an untrusted workspace, and a detected
 * candidate only once the author confirmed it.
 *
 * Imports point one way: playground/ and preview/ import servers/ (this folder), never each other, and servers/
 * imports neither. The MCP stack itself (session.ts, the SDK) is loaded on first use by whoever creates the manager
 * (ManagerHost.createSession, see playground/lazy.ts), so this module stays out of it.
 */
import { EventEmitter } from 'node:events';
import * as path from 'node:path';
import { resolveLaunch, runsFile, type DiscoveryResult, type ResolveContext, type ServerConfig } from './discovery';
import type { McpSession, LaunchSpec, SessionOptions } from './session';
import { changedLaunchKeys, launchKeysOf, type LaunchKey, type LaunchKeys } from './launchChange';

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
  /**
   * How the variables of `config` resolve (workspace folder, env, the ${input:...} prompt): for its launch
   * (resolveLaunch; a cancelled prompt throws LaunchCancelled) and, without prompting, to tell which file it runs.
   */
  resolveContext(config: ServerConfig): ResolveContext;
  /** Creates a session (the first one loads the MCP stack, see playground/lazy.ts). */
  createSession(spec: LaunchSpec, options?: SessionOptions): McpSession;
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
  /** Servers started from a source file no discovered server runs (the preview's Start): kept across rediscovery. */
  private readonly sourceServers: ServerConfig[] = [];
  private discovered: ServerConfig[] = [];
  /** What each server's last start ran (its configuration as written), to tell when a restart would run something else. */
  private readonly launched = new Map<string, LaunchKeys>();

  constructor(private readonly host: ManagerHost) {
    super();
  }

  setDiscovery(result: DiscoveryResult, candidates: ServerConfig[]): void {
    this.discovered = [...result.servers, ...candidates];
    this.configs = [...this.discovered, ...this.sourceServers];
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
      s = this.host.createSession({ command: c.command, args: c.args, cwd: c.cwd }, this.host.sessionOptions);
      s.on('status', () => this.emit('changed'));
      s.on('toolsChanged', () => this.emit('changed'));
      s.on('catalogChanged', () => this.emit('changed'));
      // Subscribed / updated marks on the tree's resources.
      s.on('subscriptionsChanged', () => this.emit('changed'));
      s.on('resourceUpdated', () => this.emit('changed'));
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

  /** The launch keys a restart of `id` would change since its last start (empty: it runs the same as before). */
  changedSinceLaunch(id: string): LaunchKey[] {
    const launched = this.launched.get(id);
    const c = this.config(id);
    return launched && c ? changedLaunchKeys(launched, c) : [];
  }

  private async doStart(id: string, restart: boolean): Promise<McpSession> {
    const c = this.config(id);
    if (!c) throw new LaunchRefused('unknown', `No server "${id}" in this workspace.`);
    if (!this.host.isTrusted()) {
      throw new LaunchRefused(
        'untrusted',
        `${c.name} was not started: this workspace is not trusted, and Toolsmith never launches a server in Restricted Mode. Trust the workspace to use the playground.`,
      );
    }
    if (c.detected && !c.detected.confirmed) {
      throw new LaunchRefused('unconfirmed', `${c.name} was detected as an MCP server but not confirmed yet: confirm it once to run it.`);
    }
    const spec = await resolveLaunch(c, this.host.resolveContext(c));
    this.launched.set(id, launchKeysOf(c));
    const s = this.session(id)!;
    if (restart || s.running) await s.stop();
    s.spec = spec;
    await s.start();
    return s;
  }

  /**
   * The server that runs `file`: its arguments resolved as at launch (so `${workspaceFolder}/src/server.ts` is that
   * file), a running one first. Nothing is prompted: an ${input:...} not given yet matches nothing.
   */
  async configForFile(file: string): Promise<ServerConfig | undefined> {
    const matching: ServerConfig[] = [];
    for (const c of this.configs) {
      const quiet: ResolveContext = { ...this.host.resolveContext(c), promptInput: async () => undefined };
      if (await runsFile(c, file, quiet)) matching.push(c);
    }
    return matching.find((c) => this.sessions.get(c.id)?.running) ?? matching[0];
  }

  /**
   * A server for a source file that no configured or detected server runs (the author asked for it: the preview's
   * Start), from the launch the preview resolved. Listed with the others from then on, so it shows in the tree.
   */
  addSourceServer(file: string, spec: Required<Pick<LaunchSpec, 'command' | 'args' | 'cwd'>>): ServerConfig {
    const id = `source:${file}`;
    let c = this.sourceServers.find((x) => x.id === id);
    if (!c) {
      c = { id, name: path.basename(file), origin: 'source', file, command: spec.command, args: spec.args, env: {}, cwd: spec.cwd, inputs: [], watchRoot: path.dirname(file) };
      this.sourceServers.push(c);
      this.configs = [...this.discovered, ...this.sourceServers];
      this.emit('changed');
    }
    return c;
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

/**
 * One MCP server and the SDK's own Client (@modelcontextprotocol/client 2.x) talking to it: a process over stdio, or a
 * URL over Streamable HTTP (legacy SSE as fallback). The Client negotiates the protocol: 2026-07-28 with servers that
 * answer `server/discover`, the 2025 `initialize` handshake with the others.
 * vscode-free on purpose: the tree, the playground and the tests all drive this class.
 *
 * Every fault a server can show (exits at start, never answers initialize, crashes mid-call, hangs,
 * junk on stdout, huge results) ends here as a SessionError with a message an author can act on.
 */
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import {
  Client,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type Root,
  type CompleteResult,
  type GetPromptResult,
  type JSONRPCMessage,
  type LoggingMessageNotification,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as fs from 'node:fs';
import * as z from 'zod';
import { maskText } from './secrets';
import { StderrLines, StdioFramer } from './framing';
import { Timeline, type TimelineEntry } from './timeline';

export interface LaunchSpec {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Values never shown in a log, a message or the tree: the `${input:}` values declared `password: true`. */
  secrets?: string[];
  /** A remote server: no process, the SDK's Streamable HTTP transport (legacy SSE as fallback, or SSE only). */
  url?: string;
  headers?: Record<string, string>;
  transport?: 'http' | 'sse';
}

/** What the server's requests to the client are given: the session they came from and the request's abort signal. */
export interface ServerRequestContext {
  session: McpSession;
  /** Aborted when the server cancels its request (notifications/cancelled) or the session closes. */
  signal: AbortSignal;
}

/**
 * The client side of the protocol: each handler given here is declared as a client capability at initialize and
 * answers the server's requests (the playground shows them to the developer). One that is absent is not declared.
 * A handler rejects with a ProtocolError to answer an error (a sampling request the developer cancelled...).
 */
export interface ClientHandlers {
  /** roots/list: the workspace folders (or the toolsmith.playground.roots override). */
  roots?: (ctx: ServerRequestContext) => Root[] | Promise<Root[]>;
  /** sampling/createMessage. */
  sampling?: (params: CreateMessageRequestParams, ctx: ServerRequestContext) => Promise<CreateMessageResult>;
  /** elicitation/create, form and URL mode. */
  elicitation?: (params: ElicitRequestParams, ctx: ServerRequestContext) => Promise<ElicitResult>;
}

/** The client capabilities that follow from the handlers given (what the server sees at initialize). */
export function clientCapabilitiesFor(handlers: ClientHandlers | undefined): ClientCapabilities {
  const caps: ClientCapabilities & { tasks?: unknown } = {};
  if (handlers?.roots) caps.roots = { listChanged: true };
  if (handlers?.sampling) caps.sampling = {};
  if (handlers?.elicitation) caps.elicitation = { form: {}, url: {} };
  // 2025-11-25 tasks, client side: a task-augmented sampling or elicitation request is answered with a task at once
  // (ClientTasks below), the developer's answer later through tasks/result.
  const requests: Record<string, unknown> = {};
  if (handlers?.sampling) requests.sampling = { createMessage: {} };
  if (handlers?.elicitation) requests.elicitation = { create: {} };
  if (Object.keys(requests).length) caps.tasks = { list: {}, cancel: {}, requests };
  return caps;
}

interface ClientTask {
  task: { taskId: string; status: string; statusMessage?: string; createdAt: string; lastUpdatedAt: string; ttl: number | null; pollInterval: number };
  result: Promise<unknown>;
  abort: AbortController;
}

/**
 * The tasks this client runs for the server (2025-11-25 task-augmented sampling/elicitation requests): each one
 * waits for the developer in the playground; tasks/get, tasks/result, tasks/cancel and tasks/list read them.
 */
class ClientTasks {
  private readonly tasks = new Map<string, ClientTask>();
  private seq = 0;

  start(ttl: number | null, run: (signal: AbortSignal) => Promise<unknown>): ClientTask['task'] {
    const now = new Date().toISOString();
    const taskId = `toolsmith-task-${++this.seq}-${Date.now().toString(36)}`;
    const abort = new AbortController();
    const t: ClientTask = {
      task: { taskId, status: 'working', statusMessage: 'Waiting for the developer in the Toolsmith playground', createdAt: now, lastUpdatedAt: now, ttl, pollInterval: 500 },
      abort,
      result: Promise.resolve(),
    };
    const settle = (status: string, statusMessage?: string) => {
      if (t.task.status === 'cancelled') return;
      t.task = { ...t.task, status, statusMessage, lastUpdatedAt: new Date().toISOString() };
    };
    t.result = run(abort.signal).then(
      (r) => (settle('completed'), r),
      (err: unknown) => {
        settle('failed', (err as Error)?.message ?? String(err));
        throw err;
      },
    );
    t.result.catch(() => undefined);
    this.tasks.set(taskId, t);
    return t.task;
  }

  private get(taskId: string): ClientTask {
    const t = this.tasks.get(taskId);
    if (!t) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No task ${taskId} on this client.`);
    return t;
  }

  register(client: Client): void {
    const byId = { params: z.looseObject({ taskId: z.string() }), result: z.any() };
    client.setRequestHandler('tasks/get', byId, (p) => this.get(p.taskId).task);
    client.setRequestHandler('tasks/result', byId, async (p) => {
      const t = this.get(p.taskId);
      const r = (await t.result) as Record<string, unknown>;
      return { ...r, _meta: { ...((r._meta as object) ?? {}), 'io.modelcontextprotocol/related-task': { taskId: p.taskId } } };
    });
    client.setRequestHandler('tasks/cancel', byId, (p) => {
      const t = this.get(p.taskId);
      if (!TERMINAL.has(t.task.status)) {
        t.task = { ...t.task, status: 'cancelled', statusMessage: 'Cancelled by the server', lastUpdatedAt: new Date().toISOString() };
        t.abort.abort();
      }
      return t.task;
    });
    client.setRequestHandler('tasks/list', { params: z.looseObject({}).optional(), result: z.any() }, () => ({ tasks: [...this.tasks.values()].map((t) => t.task) }));
  }
}

/**
 * The SDK's Client, with task-augmented sampling/elicitation requests answered as tasks: the SDK validates their
 * result as a CreateMessageResult/ElicitResult, so the task is made here, around its own validating handler.
 */
class PlaygroundClient extends Client {
  readonly clientTasks = new ClientTasks();

  protected override _wrapHandler(method: string, handler: Parameters<Client['_wrapHandler']>[1]): ReturnType<Client['_wrapHandler']> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'sampling/createMessage' && method !== 'elicitation/create') return wrapped;
    return async (request, ctx) => {
      const params = (request.params ?? {}) as Record<string, unknown> & { task?: { ttl?: number } };
      if (!params.task) return wrapped(request, ctx);
      const { task, ...rest } = params;
      const created = this.clientTasks.start(task.ttl ?? null, (signal) => wrapped({ ...request, params: rest }, { ...ctx, mcpReq: { ...ctx.mcpReq, signal } }));
      return { task: created };
    };
  }
}

export type SessionStatus = 'stopped' | 'starting' | 'running' | 'stopping' | 'crashed' | 'failed';

export interface SessionOptions {
  /** How long the server may take to answer initialize. */
  initializeTimeoutMs?: number;
  /** Largest single message accepted on stdout (the SDK default of 10 MB is too small for big results). */
  maxMessageBytes?: number;
  /** How many stderr lines are kept for error messages. */
  stderrTailLines?: number;
  clientInfo?: { name: string; version: string };
  /** How the client answers the server's requests (roots, sampling, elicitation); see ClientHandlers. */
  handlers?: ClientHandlers;
  /**
   * Protocol negotiation: 'auto' probes with server/discover (2026-07-28) and falls back to initialize; 'legacy'
   * runs the 2025 handshake only. On stdio the SDK probes on a short-lived sibling process.
   */
  negotiation?: 'auto' | 'legacy';
  /** How long the stdio probe waits for an answer before the server is taken for a 2025-era one. */
  probeTimeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** A tool called as a task (execution.taskSupport "required"): each status the task reports (tasks/get). */
  onTaskStatus?: (t: TaskStatusView) => void;
}

/** What a task of a task-augmented tools/call says about itself (tasks/get). */
export interface TaskStatusView {
  taskId: string;
  status: string;
  statusMessage?: string;
}

// Task wire shapes (2025-11-25): the SDK parses them but gives them no typed request surface, so they are read here.
const TaskSchema = z.looseObject({ taskId: z.string(), status: z.string(), statusMessage: z.string().optional(), pollInterval: z.number().optional() });
const CreateTaskResultSchema = z.looseObject({ task: TaskSchema });
const CallToolResultLoose = z.looseObject({ content: z.array(z.any()).default([]), structuredContent: z.any().optional(), isError: z.boolean().optional() });
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** What a tools/call ended with. A tool error (isError) is a result; a protocol error is not. */
export type CallOutcome =
  | { kind: 'result'; result: CallToolResult; durationMs: number; request: JSONRPCMessage | undefined; response: JSONRPCMessage | undefined; responseBytes: number }
  | { kind: 'error'; error: SessionError; durationMs: number; request: JSONRPCMessage | undefined; response: JSONRPCMessage | undefined };

export type SessionErrorKind = 'auth-required' | 'spawn-failed' | 'exited-at-start' | 'initialize-timeout' | 'crashed' | 'timeout' | 'cancelled' | 'protocol-error' | 'not-running';

/** An error in words, a JSON-RPC error with its code ("MCP error -32603: ...", as the 1.x SDK worded them). */
export function errorText(err: unknown): string {
  const message = (err as Error)?.message ?? String(err);
  return err instanceof ProtocolError && !/^MCP error /.test(message) ? `MCP error ${err.code}: ${message}` : message;
}

/** Whether a connect failed on HTTP 401 (the SDK's typed authentication error, or its status). */
function isUnauthorized(err: unknown): boolean {
  const e = err as { code?: unknown; status?: unknown; data?: { status?: unknown }; message?: unknown };
  return (
    e?.code === SdkErrorCode.ClientHttpAuthentication ||
    e?.status === 401 ||
    e?.data?.status === 401 ||
    (err instanceof Error && err.name === 'UnauthorizedError') ||
    /\b401\b/.test(String(e?.message ?? ''))
  );
}

/** A message of the SDK's version probe (its request ids are "server-discover-probe-<n>"). */
function isProbeMessage(message: JSONRPCMessage): boolean {
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' && id.startsWith('server-discover-probe-');
}

/**
 * Sees every message a transport delivers, whoever handles it: the SDK swaps `onmessage` (its version probe sets
 * its own for the probe, then puts back the one it found; the Client chains the one set before connect). The
 * property becomes an accessor whose getter is always `dispatch`: it sees the message, then calls the handler last
 * set. A handler that chains the previous one (`dispatch` itself) calls it synchronously: that inner call is a no-op.
 */
function onEveryMessage(transport: Transport, see: (message: JSONRPCMessage) => void): void {
  let handler: Transport['onmessage'];
  let depth = 0;
  const dispatch: NonNullable<Transport['onmessage']> = (message, extra) => {
    if (depth > 0) return;
    depth++;
    try {
      see(message);
      handler?.(message, extra);
    } finally {
      depth--;
    }
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => dispatch,
    set: (h: Transport['onmessage']) => {
      handler = h === dispatch ? undefined : h;
    },
  });
}

export class SessionError extends Error {
  constructor(
    readonly kind: SessionErrorKind,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface SessionEvents {
  status: [SessionStatus];
  stderr: [string];
  log: [LoggingMessageNotification['params']];
  /** Something the author should know that is not an error of a call (junk on stdout...). */
  warning: [string];
  toolsChanged: [Tool[]];
  /** The resources, resource templates or prompts the server offers were (re)listed. */
  catalogChanged: [];
  /** notifications/resources/updated for a resource (subscribed to, or not: the server decides). */
  resourceUpdated: [string];
  /** The resources subscribed to changed (resources/subscribe, resources/unsubscribe, or a restart dropped them). */
  subscriptionsChanged: [];
}

interface Pending {
  request?: JSONRPCMessage;
  response?: JSONRPCMessage;
  responseBytes: number;
}

interface ProgressSink {
  cb: NonNullable<CallOptions['onProgress']>;
  /** True once the transport tap delivers this call's progress itself. */
  viaTap: boolean;
}

const DEFAULTS = { initializeTimeoutMs: 15_000, maxMessageBytes: 256 * 1024 * 1024, stderrTailLines: 40, negotiation: 'auto' as const, probeTimeoutMs: 5_000 };

/** Why a catalog list failed, by list (masked like the log). */
export interface CatalogErrors {
  resources?: string;
  templates?: string;
  prompts?: string;
}

export class McpSession extends EventEmitter<SessionEvents> {
  status: SessionStatus = 'stopped';
  /** Why the session is crashed/failed, in words. */
  lastError: SessionError | undefined;
  serverInfo: { name: string; version: string } | undefined;
  protocolVersion: string | undefined;
  instructions: string | undefined;
  capabilities: Record<string, unknown> | undefined;
  tools: Tool[] = [];
  /** The last resources/list and prompts/list answers (empty when the server does not offer them). */
  resources: Resource[] = [];
  /** The last resources/templates/list answer. */
  resourceTemplates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  /** Why the last resources/list, resources/templates/list or prompts/list failed, if it did. */
  catalogErrors: CatalogErrors = {};
  readonly stderrTail: string[] = [];
  pid: number | undefined;
  /** Epoch ms of the last start (the preview compares it with the source files' save times). */
  startedAt: number | undefined;
  exitCode: number | null | undefined;
  exitSignal: NodeJS.Signals | null | undefined;
  /** Every JSON-RPC message both ways, masked and bounded (timeline.ts); kept across restarts. */
  readonly timeline: Timeline;
  /** The resource URIs subscribed to on this connection (resources/subscribe answered). */
  readonly subscriptions = new Set<string>();
  /** Resources the server said changed (notifications/resources/updated) and not read since. */
  readonly updatedResources = new Set<string>();

  private client: Client | undefined;
  private transport: Transport | undefined;
  private readonly opts: Required<Omit<SessionOptions, 'handlers'>> & Pick<SessionOptions, 'handlers'>;
  private readonly exchanges = new Map<string | number, Pending>();
  /** Progress callbacks by progress token, fed synchronously from the transport (see tapMessages). */
  private readonly progressByToken = new Map<string | number, ProgressSink>();
  private nextProgress: ProgressSink | undefined;
  private stopping = false;
  private junkLines = 0;
  private stderrLines = new StderrLines();

  constructor(
    public spec: LaunchSpec,
    options: SessionOptions = {},
  ) {
    super();
    this.opts = { ...DEFAULTS, clientInfo: { name: 'toolsmith-playground', version: '0.1.0' }, ...options };
    this.timeline = new Timeline((text) => this.mask(text));
  }

  get running(): boolean {
    return this.status === 'running';
  }

  private setStatus(s: SessionStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.emit('status', s);
  }

  private mask(text: string): string {
    return maskText(text, this.spec);
  }

  private stderrSummary(): string {
    const tail = this.stderrTail.slice(-8).join('\n').trim();
    return tail ? `\nLast stderr:\n${tail}` : '\nThe server wrote nothing on stderr.';
  }

  private exitDescription(): string {
    if (this.exitSignal) return `killed by ${this.exitSignal}`;
    if (this.exitCode !== undefined && this.exitCode !== null) return `exit code ${this.exitCode}`;
    return 'process ended';
  }

  async start(): Promise<void> {
    if (this.status === 'running' || this.status === 'starting') return;
    this.stopping = false;
    this.lastError = undefined;
    this.serverInfo = undefined;
    this.protocolVersion = undefined;
    this.tools = [];
    this.resources = [];
    this.resourceTemplates = [];
    this.prompts = [];
    this.catalogErrors = {};
    this.exitCode = undefined;
    this.exitSignal = undefined;
    this.junkLines = 0;
    this.stderrTail.length = 0;
    this.stderrLines = new StderrLines();
    this.timeline.reset();
    this.updatedResources.clear();
    if (this.subscriptions.size) {
      this.subscriptions.clear();
      this.emit('subscriptionsChanged');
    }
    this.startedAt = Date.now();
    this.setStatus('starting');

    const phase = { startupDone: false, exitedDuringStartup: false };
    let client: Client;
    try {
      client = this.spec.url ? await this.connectHttp(this.spec.url, phase) : await this.connectStdio(phase);
    } catch (err) {
      phase.startupDone = true;
      const e = err instanceof SessionError ? err : await this.startupError(err, phase.exitedDuringStartup);
      this.lastError = e;
      await this.transport?.close().catch(() => undefined);
      this.client = undefined;
      this.transport = undefined;
      this.setStatus('failed');
      throw e;
    }
    phase.startupDone = true;
    this.serverInfo = client.getServerVersion();
    this.protocolVersion = client.getNegotiatedProtocolVersion();
    this.capabilities = client.getServerCapabilities();
    this.instructions = client.getInstructions();
    this.setStatus('running');
    if (this.capabilities?.logging) await client.setLoggingLevel('debug').catch(() => undefined);
    if (this.capabilities?.tools) await this.listTools().catch(() => undefined);
    // The tree lists resources and prompts under the server. Not awaited: a server that is slow to list them (or never
    // answers) must not hold up the start; a failing list is shown in the tree, never fatal.
    void this.listResources().catch(() => undefined);
    void this.listResourceTemplates().catch(() => undefined);
    void this.listPrompts().catch(() => undefined);
  }

  private async connectStdio(phase: { startupDone: boolean; exitedDuringStartup: boolean }): Promise<Client> {
    const transport = new StdioClientTransport({
      command: this.spec.command,
      args: this.spec.args,
      // The author's own server: give it the editor's environment (PATH to its tools, proxies...), then its own.
      env: { ...(process.env as Record<string, string>), ...(this.spec.env ?? {}) },
      cwd: this.spec.cwd,
      stderr: 'pipe',
      maxBufferSize: this.opts.maxMessageBytes,
    });
    this.transport = transport;
    // Our framer in place of the SDK's ReadBuffer (framing.ts says why): linear in size, and it names junk lines.
    (transport as unknown as { _readBuffer: StdioFramer })._readBuffer = new StdioFramer(this.opts.maxMessageBytes, (line, why) => this.onJunk(line, why));
    transport.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk.toString('utf8')));
    const client = this.makeClient(phase);
    // Tapped before connect, so initialize and its answer are on the timeline too, and the version probe before them.
    this.tapMessages(transport);
    if (this.opts.negotiation === 'auto') this.tapProbeSibling(transport);
    await client.connect(transport, { timeout: this.opts.initializeTimeoutMs });
    this.attachProcess(transport);
    return client;
  }

  /**
   * A remote server: Streamable HTTP first, legacy SSE when that fails for another reason than authorization (or SSE
   * only for `"type": "sse"`). A 401 is reported as such: the playground does not run OAuth flows.
   */
  private async connectHttp(url: string, phase: { startupDone: boolean; exitedDuringStartup: boolean }): Promise<Client> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new SessionError('spawn-failed', `"${this.mask(url)}" is not a URL. Check "url" in the server's configuration.`);
    }
    const requestInit: RequestInit = { headers: this.spec.headers ?? {} };
    const attempt = async (kind: 'http' | 'sse'): Promise<Client> => {
      const transport: Transport = kind === 'http' ? new StreamableHTTPClientTransport(target, { requestInit }) : new SSEClientTransport(target, { requestInit });
      this.transport = transport;
      const client = this.makeClient(phase);
      this.tapMessages(transport);
      try {
        await client.connect(transport, { timeout: this.opts.initializeTimeoutMs });
      } catch (err) {
        await transport.close().catch(() => undefined);
        if (isUnauthorized(err)) {
          throw new SessionError(
            'auth-required',
            `${this.mask(url)} answered 401 Unauthorized: it requires authorization (OAuth), which the Toolsmith playground does not support. A static token can be given in "headers" (e.g. "Authorization": "Bearer \${input:token}").`,
          );
        }
        throw err;
      }
      return client;
    };
    if (this.spec.transport === 'sse') return attempt('sse');
    try {
      return await attempt('http');
    } catch (err) {
      if (err instanceof SessionError) throw err;
      try {
        const client = await attempt('sse');
        this.emit('warning', `${this.mask(url)} does not speak Streamable HTTP (${this.mask(String((err as Error)?.message ?? err))}): connected over the legacy SSE transport instead.`);
        return client;
      } catch (sseErr) {
        if (sseErr instanceof SessionError) throw sseErr;
        throw new SessionError(
          'protocol-error',
          `Could not connect to ${this.mask(url)}: Streamable HTTP failed (${this.mask(String((err as Error)?.message ?? err))}), and so did legacy SSE (${this.mask(String((sseErr as Error)?.message ?? sseErr))}).`,
        );
      }
    }
  }

  /** A Client declaring the capabilities of the handlers given, with its handlers and notifications wired. */
  private makeClient(phase: { startupDone: boolean; exitedDuringStartup: boolean }): Client {
    const handlers = this.opts.handlers;
    const client = new PlaygroundClient(this.opts.clientInfo, {
      capabilities: clientCapabilitiesFor(handlers),
      versionNegotiation: { mode: this.opts.negotiation, probe: { timeoutMs: this.opts.probeTimeoutMs } },
    });
    this.client = client;
    if (handlers?.sampling || handlers?.elicitation) client.clientTasks.register(client);
    if (handlers?.roots) {
      const roots = handlers.roots;
      client.setRequestHandler('roots/list', async (_req, ctx) => ({ roots: await roots({ session: this, signal: ctx.mcpReq.signal }) }));
    }
    if (handlers?.sampling) {
      const sampling = handlers.sampling;
      client.setRequestHandler('sampling/createMessage', (req, ctx) => sampling(req.params, { session: this, signal: ctx.mcpReq.signal }));
    }
    if (handlers?.elicitation) {
      const elicitation = handlers.elicitation;
      client.setRequestHandler('elicitation/create', (req, ctx) => elicitation(req.params, { session: this, signal: ctx.mcpReq.signal }));
    }
    client.setNotificationHandler('notifications/message', (n) => {
      this.emit('log', n.params);
    });
    client.setNotificationHandler('notifications/resources/list_changed', () =>
      Promise.all([this.listResources(), this.listResourceTemplates()]).then(
        () => undefined,
        () => undefined,
      ),
    );
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      this.updatedResources.add(n.params.uri);
      this.emit('resourceUpdated', n.params.uri);
    });
    client.setNotificationHandler('notifications/prompts/list_changed', () =>
      this.listPrompts().then(
        () => undefined,
        () => undefined,
      ),
    );
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      try {
        await this.listTools();
      } catch {
        /* reported by the next explicit call */
      }
    });
    client.onerror = (err) => {
      const message = String(err?.message ?? err);
      // Progress after its call ended (or for a replayed request): SDK bookkeeping, not the server's fault. The
      // notification itself is on the timeline.
      if (/^Received a progress notification for an unknown token/.test(message)) return;
      // A reply to a request the client never sent, or already gave up on (timed out, cancelled): a JSON-RPC message
      // all the same, so it is not called junk.
      const unknownId = /^Received a response for an unknown message ID: (.*)$/s.exec(message);
      if (unknownId) {
        let id: unknown;
        try {
          id = (JSON.parse(unknownId[1]) as { id?: unknown }).id;
        } catch {
          id = undefined;
        }
        this.emit('warning', `The server answered request id ${JSON.stringify(id)}, which the client never sent or has stopped waiting for (timed out or cancelled); the answer was ignored.`);
        return;
      }
      this.emit('warning', this.mask(message));
    };
    client.onclose = () => {
      if (this.client !== client) return; // a failed attempt (Streamable HTTP before the SSE fallback)
      if (!phase.startupDone) {
        phase.exitedDuringStartup = true;
        return;
      }
      if (this.stopping) {
        this.setStatus('stopped');
        return;
      }
      this.lastError = new SessionError('crashed', `The server stopped unexpectedly (${this.exitDescription()}).${this.stderrSummary()}`);
      this.setStatus('crashed');
    };

    return client;
  }

  /** The child process, read from the transport to learn exit codes (the SDK does not surface them). */
  private attachProcess(transport: StdioClientTransport): void {
    // The SDK keeps the child in a private field; we only read exit code and signal from it.
    const proc = (transport as unknown as { _process?: ChildProcess })._process;
    this.pid = transport.pid ?? undefined;
    proc?.once('exit', (code, signal) => {
      this.exitCode = code;
      this.exitSignal = signal;
    });
  }

  private async startupError(err: unknown, exited: boolean): Promise<SessionError> {
    const e = err as { code?: unknown; message?: string; errno?: unknown };
    if (e && e.code === 'ENOENT' && this.spec.cwd && !fs.existsSync(this.spec.cwd)) {
      // spawn reports a missing working directory as ENOENT too: say which one is missing.
      return new SessionError('spawn-failed', `Could not start "${this.spec.command}": its working directory ${this.mask(this.spec.cwd)} does not exist. Check "cwd" in the server's configuration.`);
    }
    if (e && (e.code === 'ENOENT' || e.code === 'EACCES')) {
      return new SessionError(
        'spawn-failed',
        `Could not start "${this.spec.command}": ${e.code === 'ENOENT' ? 'command not found' : 'permission denied'}. Check the command and PATH in the server's configuration.`,
      );
    }
    if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
      return new SessionError(
        'initialize-timeout',
        `The server did not answer "initialize" within ${Math.round(this.opts.initializeTimeoutMs / 1000)} s, so it was stopped. Is it an MCP server on stdio, and does it write its logs to stderr?${this.stderrSummary()}`,
      );
    }
    if (exited || (err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed)) {
      // Let the last stderr bytes arrive: a traceback is usually printed right before the exit.
      await new Promise((r) => setTimeout(r, 50));
      return new SessionError('exited-at-start', `The server exited during start-up, before answering "initialize".${this.stderrSummary()}`);
    }
    return new SessionError('protocol-error', `The server could not be started: ${this.mask(e?.message ?? String(err))}${this.stderrSummary()}`);
  }

  /**
   * The transport tap, put on before the Client connects: every message both ways goes to the timeline, and the raw
   * JSON-RPC request/response of each tools/call is kept for the playground's "raw" view. The Client chains an
   * onmessage set before connect() ahead of its own handling, so this sees each message first.
   */
  private tapMessages(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]) => {
      if (this.transport === transport) this.timeline.record('out', message, Date.now(), isProbeMessage(message) ? 'in-place' : undefined);
      if ('id' in message && 'method' in message && message.method === 'tools/call') {
        this.exchanges.set(message.id, { request: message, responseBytes: 0 });
        const token = (message.params?._meta as { progressToken?: string | number } | undefined)?.progressToken;
        if (this.nextProgress && token !== undefined) {
          this.nextProgress.viaTap = true;
          this.progressByToken.set(token, this.nextProgress);
        }
        this.nextProgress = undefined;
      }
      return send(message, options);
    };
    onEveryMessage(transport, (message: JSONRPCMessage) => {
      if (this.transport === transport) this.timeline.record('in', message, Date.now(), isProbeMessage(message) ? 'in-place' : undefined);
      // The Client handles notifications a microtask late, after a response read from the same chunk has already
      // dropped the call's progress handler; taking progress here keeps every notification of a fast tool.
      if ('method' in message && message.method === 'notifications/progress' && !('id' in message)) {
        const p = message.params as { progressToken: string | number; progress: number; total?: number; message?: string };
        this.progressByToken.get(p.progressToken)?.cb({ progress: p.progress, total: p.total, message: p.message });
      }
      if ('id' in message && message.id !== undefined && !('method' in message)) {
        const x = this.exchanges.get(message.id);
        if (x) {
          x.response = message;
          x.responseBytes = JSON.stringify(message).length;
        }
      }
    });
  }

  /**
   * The SDK runs its stdio version probe (server/discover) on a sibling process it builds with
   * `new transport.constructor(params)`: giving this transport its own `constructor` builds that sibling here, with
   * a tap, so the probe's messages are on the timeline too (marked 'sibling'). The prototype is untouched, so the SDK
   * still takes the transport for its own base class.
   */
  private tapProbeSibling(transport: StdioClientTransport): void {
    const timeline = this.timeline;
    function ProbeSibling(params: ConstructorParameters<typeof StdioClientTransport>[0]) {
      const sibling = new StdioClientTransport(params);
      const send = sibling.send.bind(sibling);
      sibling.send = (message: JSONRPCMessage) => {
        timeline.record('out', message, Date.now(), 'sibling');
        return send(message);
      };
      onEveryMessage(sibling, (message) => void timeline.record('in', message, Date.now(), 'sibling'));
      return sibling;
    }
    Object.defineProperty(transport, 'constructor', { value: ProbeSibling, configurable: true, writable: true });
  }

  /** A stdout line that is not JSON-RPC (from the framer); the line is skipped and the session goes on. */
  private onJunk(line: string, why: string): void {
    this.junkLines++;
    if (this.junkLines <= 3) {
      this.emit('warning', `The server printed something on stdout that is not JSON-RPC (${why}: ${this.mask(line)}). stdout is reserved for protocol messages: log to stderr instead.`);
    }
  }

  private onStderr(text: string): void {
    for (const raw of this.stderrLines.push(text)) {
      const line = this.mask(raw);
      this.stderrTail.push(line);
      if (this.stderrTail.length > this.opts.stderrTailLines) this.stderrTail.shift();
      this.emit('stderr', line);
    }
  }

  async stop(): Promise<void> {
    const transport = this.transport;
    const client = this.client;
    if (!transport || !client) {
      this.setStatus('stopped');
      return;
    }
    this.stopping = true;
    this.setStatus('stopping');
    await client.close().catch(() => undefined);
    this.client = undefined;
    this.transport = undefined;
    this.setStatus('stopped');
  }

  /** notifications/roots/list_changed, when the client declared roots (the workspace folders or the setting changed). */
  async notifyRootsChanged(): Promise<void> {
    if (!this.opts.handlers?.roots || !this.client || this.status !== 'running') return;
    await this.client.sendRootsListChanged().catch((err: unknown) => this.emit('warning', `roots/list_changed could not be sent: ${this.mask(String((err as Error)?.message ?? err))}`));
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  private requireClient(): Client {
    if (!this.client || this.status !== 'running') {
      const why = this.lastError ? ` ${this.lastError.message}` : '';
      throw new SessionError('not-running', `The server is not running (${this.status}).${why}`);
    }
    return this.client;
  }

  async listTools(): Promise<Tool[]> {
    const client = this.requireClient();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    this.tools = tools;
    this.emit('toolsChanged', tools);
    return tools;
  }

  /**
   * Every page of one catalog list (resources, templates, prompts), kept on the session with its error. An answer from
   * a session that was restarted meanwhile is stale: what the new one lists is kept instead.
   */
  private async listCatalog<T>(
    key: keyof CatalogErrors,
    client: Client,
    page: (params: { cursor: string } | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
    keep: (items: T[]) => void,
    /** An error that means "nothing to list" rather than a failure. */
    meansEmpty?: (err: unknown, listed: T[]) => boolean,
  ): Promise<T[]> {
    try {
      const items: T[] = [];
      let cursor: string | undefined;
      try {
        do {
          const p = await page(cursor ? { cursor } : undefined);
          items.push(...p.items);
          cursor = p.nextCursor;
        } while (cursor);
      } catch (err) {
        if (!meansEmpty?.(err, items)) throw err;
      }
      if (this.client === client) {
        keep(items);
        delete this.catalogErrors[key];
        this.emit('catalogChanged');
      }
      return items;
    } catch (err) {
      if (this.client === client) {
        this.catalogErrors[key] = this.mask(errorText(err));
        this.emit('catalogChanged');
      }
      throw err;
    }
  }

  async listResources(): Promise<Resource[]> {
    const client = this.requireClient();
    if (!this.capabilities?.resources) return [];
    return this.listCatalog(
      'resources',
      client,
      async (params) => {
        const r = await client.listResources(params);
        return { items: r.resources, nextCursor: r.nextCursor };
      },
      (items) => (this.resources = items),
    );
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const r = await this.requireClient().readResource({ uri });
    if (this.updatedResources.delete(uri)) this.emit('subscriptionsChanged');
    return r;
  }

  /** Whether the server declares resources.subscribe (resources/subscribe may be sent). */
  get canSubscribe(): boolean {
    return (this.capabilities?.resources as { subscribe?: boolean } | undefined)?.subscribe === true;
  }

  /** resources/subscribe: the server then sends notifications/resources/updated for `uri` (event resourceUpdated). */
  async subscribeResource(uri: string): Promise<void> {
    const client = this.requireClient();
    if (!this.canSubscribe) throw new SessionError('protocol-error', 'This server does not declare resources.subscribe: it cannot be subscribed to.');
    await client.subscribeResource({ uri });
    if (this.client === client) {
      this.subscriptions.add(uri);
      this.emit('subscriptionsChanged');
    }
  }

  async unsubscribeResource(uri: string): Promise<void> {
    const client = this.requireClient();
    await client.unsubscribeResource({ uri });
    if (this.client === client && this.subscriptions.delete(uri)) this.emit('subscriptionsChanged');
  }

  /**
   * Sends a client → server request of the timeline again: the same method and params under a new id (its progress
   * token left out: the SDK gives none to a replay, and the old one belongs to a finished call). The exchange lands
   * on the timeline like any other; the answer (or the error) is returned.
   */
  async replay(seq: number, timeoutMs = 60_000): Promise<{ request: TimelineEntry; result?: unknown; error?: string }> {
    const client = this.requireClient();
    const entry = this.timeline.find(seq);
    if (!entry || entry.direction !== 'out' || entry.kind !== 'request' || !entry.method) {
      throw new SessionError('protocol-error', `Timeline entry ${seq} is not a request sent to the server: only those can be replayed.`);
    }
    if (!entry.params) throw new SessionError('protocol-error', `Timeline entry ${seq} is too large to replay (${entry.chars.toLocaleString('en')} characters; only its head was kept).`);
    const { _meta, ...rest } = entry.params as { _meta?: Record<string, unknown> };
    const meta = _meta ? Object.fromEntries(Object.entries(_meta).filter(([k]) => k !== 'progressToken')) : undefined;
    const params = meta && Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
    try {
      const result: unknown = await client.request({ method: entry.method, params } as Parameters<Client['request']>[0], z.unknown(), { timeout: timeoutMs });
      return { request: entry, result };
    } catch (err) {
      return { request: entry, error: this.mask(errorText(err)) };
    }
  }

  /**
   * resources/templates/list, every page. A server that answers "Method not found" has no templates: servers that
   * only serve fixed resources often leave that handler out (the Python SDK's low-level Server does unless asked).
   */
  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    const client = this.requireClient();
    if (!this.capabilities?.resources) return [];
    return this.listCatalog(
      'templates',
      client,
      async (params) => {
        const r = await client.listResourceTemplates(params);
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      },
      (items) => (this.resourceTemplates = items),
      (err, listed) => err instanceof ProtocolError && err.code === ProtocolErrorCode.MethodNotFound && listed.length === 0,
    );
  }

  async listPrompts(): Promise<Prompt[]> {
    const client = this.requireClient();
    if (!this.capabilities?.prompts) return [];
    return this.listCatalog(
      'prompts',
      client,
      async (params) => {
        const r = await client.listPrompts(params);
        return { items: r.prompts, nextCursor: r.nextCursor };
      },
      (items) => (this.prompts = items),
    );
  }

  /** completion/complete: suggestions for one argument of a prompt or variable of a resource template. */
  async complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: string,
    value: string,
    context: Record<string, string> = {},
  ): Promise<CompleteResult['completion']> {
    const r = await this.requireClient().complete({ ref, argument: { name: argument, value }, ...(Object.keys(context).length ? { context: { arguments: context } } : {}) });
    return r.completion;
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.requireClient().getPrompt({ name, arguments: args });
  }

  /**
   * tools/call through the low-level request, not Client.callTool: callTool throws when structuredContent
   * breaks the outputSchema, and the playground must show such a result with its violations instead.
   */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallOutcome> {
    const started = performance.now();
    let client: Client;
    try {
      client = this.requireClient();
    } catch (err) {
      return { kind: 'error', error: err as SessionError, durationMs: 0, request: undefined, response: undefined };
    }
    const timeoutMs = options.timeoutMs ?? 60_000;
    const before = new Set(this.exchanges.keys());
    const findExchange = (): Pending | undefined => {
      for (const [id, x] of this.exchanges) {
        if (!before.has(id)) {
          this.exchanges.delete(id);
          return x;
        }
      }
      return undefined;
    };
    const tool = this.tools.find((t) => t.name === name);
    if (tool?.execution?.taskSupport === 'required') {
      try {
        const result = await this.callAsTask(client, name, args, options);
        const x = findExchange();
        return { kind: 'result', result, durationMs: performance.now() - started, request: x?.request, response: x?.response, responseBytes: x?.responseBytes ?? 0 };
      } catch (err) {
        const x = findExchange();
        return { kind: 'error', error: await this.callError(err, options, options.timeoutMs ?? 60_000), durationMs: performance.now() - started, request: x?.request, response: x?.response };
      }
    }
    const sink: ProgressSink | undefined = options.onProgress ? { cb: options.onProgress, viaTap: false } : undefined;
    let token: string | number | undefined;
    try {
      this.nextProgress = sink;
      const pending = client.request(
        // On 2026-07-28 a server logs only at the level a request asks for (setLoggingLevel is the 2025 way).
        { method: 'tools/call', params: { name, arguments: args, ...(client.getProtocolEra() === 'modern' ? { _meta: { [LOG_LEVEL_META_KEY]: 'debug' } } : {}) } },
        {
          signal: options.signal,
          timeout: timeoutMs,
          maxTotalTimeout: timeoutMs,
          // Still given so that the SDK puts a progressToken in the request; the tap delivers when it can.
          onprogress: sink ? (p) => !sink.viaTap && sink.cb({ progress: p.progress, total: p.total, message: p.message }) : undefined,
        },
      );
      this.nextProgress = undefined;
      for (const [t, v] of this.progressByToken) if (v === sink) token = t;
      const result = await pending;
      const x = findExchange();
      return { kind: 'result', result, durationMs: performance.now() - started, request: x?.request, response: x?.response, responseBytes: x?.responseBytes ?? 0 };
    } catch (err) {
      const x = findExchange();
      return { kind: 'error', error: await this.callError(err, options, timeoutMs), durationMs: performance.now() - started, request: x?.request, response: x?.response };
    } finally {
      this.nextProgress = undefined;
      if (token !== undefined) this.progressByToken.delete(token);
    }
  }

  /**
   * tools/call as a task (the tool's execution.taskSupport is "required"): the call answers with a task at once; its
   * status is polled (tasks/get) and reported while tasks/result waits for the result (requests the server makes on
   * the way, an elicitation, are answered by the handlers as usual). Aborting sends tasks/cancel.
   */
  private async callAsTask(client: Client, name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const created = await client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl: Math.max(timeoutMs, 60_000) } } }, CreateTaskResultSchema, {
      signal: options.signal,
      timeout: timeoutMs,
    });
    const { taskId } = created.task;
    options.onTaskStatus?.({ taskId, status: created.task.status, statusMessage: created.task.statusMessage });
    let done = false;
    const onAbort = () => {
      if (!done) void client.request({ method: 'tasks/cancel', params: { taskId } }, TaskSchema.partial(), { timeout: 5_000 }).catch(() => undefined);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const poll = async () => {
      let last = '';
      while (!done) {
        await new Promise((r) => setTimeout(r, created.task.pollInterval ?? 1000));
        if (done) return;
        const t = await client.request({ method: 'tasks/get', params: { taskId } }, TaskSchema, { timeout: 10_000 }).catch(() => undefined);
        if (!t || done) continue;
        const key = `${t.status}\u0000${t.statusMessage ?? ''}`;
        if (key !== last) options.onTaskStatus?.({ taskId, status: t.status, statusMessage: t.statusMessage });
        last = key;
        if (TERMINAL.has(t.status)) return;
      }
    };
    void poll();
    try {
      const result = await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultLoose, { signal: options.signal, timeout: timeoutMs, maxTotalTimeout: timeoutMs });
      return result;
    } finally {
      done = true;
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async callError(err: unknown, options: CallOptions, timeoutMs: number): Promise<SessionError> {
    if (options.signal?.aborted) return new SessionError('cancelled', 'Cancelled: the server was sent notifications/cancelled.');
    if (err instanceof SdkError) {
      if (err.code === SdkErrorCode.RequestTimeout) {
        return new SessionError('timeout', `No answer within ${Math.round(timeoutMs / 1000)} s (toolsmith.playground.timeoutSeconds): the call was cancelled.`);
      }
      if (err.code === SdkErrorCode.ConnectionClosed) {
        await new Promise((r) => setTimeout(r, 50));
        return new SessionError('crashed', `The server stopped during the call (${this.exitDescription()}).${this.stderrSummary()}`);
      }
      return new SessionError('protocol-error', this.mask(err.message), undefined, err.data);
    }
    if (err instanceof ProtocolError) {
      // A JSON-RPC error from the server: keep its code and data, say it is not a tool error.
      return new SessionError('protocol-error', this.mask(err.message), err.code, err.data);
    }
    if (err instanceof SessionError) return err;
    return new SessionError('protocol-error', this.mask(String((err as Error)?.message ?? err)));
  }
}

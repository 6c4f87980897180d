/**
 * The playground's host side without vscode: it answers the webview's messages with a McpSession,
 * validates arguments and structured results (ajv), keeps the history, and turns results into what
 * the webview can show. The vscode glue (panel.ts) only wires a webview and a Memento to it; the webview
 * tests wire a Chromium page to it instead.
 */
import {
  ProtocolError,
  type CallToolResult,
  type ContentBlock,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type GetPromptResult,
  type ReadResourceResult,
  type Tool,
} from '@modelcontextprotocol/client';
import {
  promptArgumentsSchema,
  type CannedReply,
  type ContentView,
  HistoryEntry,
  HostToWebview,
  JsonObject,
  LogEntry,
  PromptMessageView,
  PromptView,
  ResourceTemplateView,
  ServerRequestView,
  ResultView,
  ServerView,
  TimelineEntryView,
  ToolView,
  Violation,
  WebviewToHost,
} from '../../../common/playground-messages';
import { assessRisk } from '../../../common/risk';
import { errorText, type McpSession } from '../servers/session';
import type { TimelineEntry } from '../servers/timeline';
import { expandTemplate, missingVariables, templateVariables } from '../servers/templates';
import { validate } from './validate';
import { maskText } from '../servers/secrets';
import { joinSecretArgs, splitSecretArgs } from './secretArgs';
import type { JsonValue } from '../../../common/json';

/** Text longer than this is cut before it reaches the webview (the full text stays copyable from the host). */
export const TEXT_LIMIT = 1_000_000;
const BINARY_LIMIT = 8_000_000;
const RAW_LIMIT = 200_000;
const HISTORY_MAX = 30;
/** Binary blobs kept for "Save…" (the latest ones; each under BINARY_LIMIT). */
const BLOBS_KEPT = 20;
/** stderr lines kept with a failed call. */
const CALL_STDERR_LINES = 20;
/** How often queued log lines and progress reach the webview, and how many log lines one flush carries at most. */
const FLUSH_MS = 50;
/**
 * Most characters of message text one timeline post carries: the whole timeline (up to 1,000 × 32 K ≈ 32 MB) goes to
 * a webview that opens in pages of about 1 MB, never as one message.
 */
export const TIMELINE_PAGE_CHARS = 1_000_000;

/** Entries split into pages of at most `maxChars` characters of text (an entry bigger than that is a page alone). */
export function timelinePages<T extends { text: string }>(entries: readonly T[], maxChars = TIMELINE_PAGE_CHARS): T[][] {
  const pages: T[][] = [];
  let page: T[] = [];
  let chars = 0;
  for (const e of entries) {
    if (page.length && chars + e.text.length > maxChars) {
      pages.push(page);
      page = [];
      chars = 0;
    }
    page.push(e);
    chars += e.text.length;
  }
  if (page.length) pages.push(page);
  return pages;
}
const LOG_BURST = 200;

export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

/** VS Code's SecretStorage (context.secrets), as much as the controller uses. */
export interface SecretsLike {
  get(key: string): Thenable<string | undefined> | Promise<string | undefined>;
  store(key: string, value: string): Thenable<void> | Promise<void>;
}

export interface ControllerHost {
  post(message: HostToWebview): void;
  copy(text: string): Promise<void>;
  readClipboard(): Promise<string>;
  memento: MementoLike;
  /** Where secret argument values are kept between sessions; without it they are kept for this panel only. */
  secrets?: SecretsLike;
  timeoutMs(): number;
  /** Starts or restarts the session through the glue (trust check, ${input:} prompts). */
  start(restart: boolean): Promise<void>;
  showLog?(): void;
  goToDefinition?(tool: string): Promise<void>;
  /** Opens a URL outside the editor (a URL-mode elicitation, after the developer's click). */
  openExternal?(url: string): Promise<void>;
  /**
   * Asks where to save a file (a save dialog) and writes it; resolves with the path written, or undefined when the
   * developer cancelled. Without it nothing can be exported or saved.
   */
  saveFile?(suggestedName: string, content: Uint8Array, filters: Record<string, string[]>): Promise<string | undefined>;
  /** A language model the developer may ask for a sampling reply (VS Code's vscode.lm); without it the button says why not. */
  languageModel?: LanguageModelHost;
}

/** A sampling request as a language model is asked it: text messages, the system prompt, the token limit. */
export interface ModelRequest {
  messages: { role: 'user' | 'assistant'; text: string }[];
  systemPrompt?: string;
  maxTokens: number;
}

export interface LanguageModelHost {
  /** Whether a model can be asked now, or why not. */
  availability(): Promise<{ available: true; name: string } | { available: false; reason: string }>;
  /** The model's reply; rejects with why not (no consent, no model, stopped). */
  ask(request: ModelRequest, signal: AbortSignal): Promise<{ text: string; model: string }>;
}

/** Where the canned sampling replies are kept (workspace state, one list for the workspace's servers). */
export const CANNED_REPLIES_KEY = 'toolsmith.playground/cannedReplies';
const CANNED_REPLIES_MAX = 20;
const CANNED_REPLY_CHARS = 4000;

/** The text of a sampling message content (a block or blocks); other blocks by their type. */
function samplingText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => ((b as { type?: string })?.type === 'text' ? String((b as { text?: unknown }).text ?? '') : `[${(b as { type?: string })?.type ?? 'content'}]`)).join('\n');
}

export function modelRequestOf(p: CreateMessageRequestParams): ModelRequest {
  return { messages: p.messages.map((m) => ({ role: m.role, text: samplingText(m.content) })), systemPrompt: p.systemPrompt, maxTokens: p.maxTokens };
}

/** The error a sampling request refused by the developer gets (the spec's "User rejected sampling request"). */
export const SAMPLING_REJECTED_CODE = -1;

interface PendingAsk {
  view: ServerRequestView;
  /** A sampling request's params (what "Ask the model" sends). */
  sampling?: CreateMessageRequestParams;
  /** The running "Ask the model" request, to stop it. */
  model?: AbortController;
  resolve: (value: CreateMessageResult | ElicitResult) => void;
  reject: (err: Error) => void;
}

/** One sampling message content (a block, or a list of blocks with tools) as the webview shows it. */
function samplingContentViews(content: unknown): ContentView[] {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => {
    const t = (b as { type?: string })?.type;
    return t === 'text' || t === 'image' || t === 'audio' ? contentView(b as ContentBlock) : { type: 'unknown', json: cut(JSON.stringify(b, null, 2), RAW_LIMIT).text };
  });
}

export function samplingView(id: string, p: CreateMessageRequestParams): ServerRequestView {
  const params = p as CreateMessageRequestParams & { tools?: { name: string; description?: string }[]; toolChoice?: unknown };
  return {
    id,
    kind: 'sampling',
    messages: params.messages.flatMap((m) => samplingContentViews(m.content).map((content) => ({ role: m.role, content }))),
    systemPrompt: params.systemPrompt,
    modelPreferences: params.modelPreferences ? JSON.stringify(params.modelPreferences, null, 2) : undefined,
    maxTokens: params.maxTokens,
    temperature: params.temperature,
    stopSequences: params.stopSequences,
    includeContext: params.includeContext,
    tools: params.tools?.map((t) => ({ name: t.name, description: t.description })),
    toolChoice: params.toolChoice ? JSON.stringify(params.toolChoice) : undefined,
    raw: rawText(p),
  };
}

export function elicitationView(id: string, p: ElicitRequestParams): ServerRequestView {
  if (p.mode === 'url') return { id, kind: 'elicitation', mode: 'url', message: p.message, url: p.url, elicitationId: p.elicitationId, raw: rawText(p) };
  return { id, kind: 'elicitation', mode: 'form', message: p.message, schema: p.requestedSchema, raw: rawText(p) };
}

interface Stored {
  lastArgs: Record<string, JsonObject>;
  calls: HistoryEntry[];
}

export function toolView(t: Tool): ToolView {
  return {
    name: t.name,
    title: t.title ?? t.annotations?.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: t.annotations,
    risk: assessRisk(t.annotations),
  };
}

function cut(text: string, limit: number): { text: string; truncatedFrom?: number } {
  return text.length > limit ? { text: text.slice(0, limit), truncatedFrom: text.length } : { text };
}

function base64Bytes(b64: string): number {
  return Math.floor((b64.length * 3) / 4);
}

export function contentViews(result: CallToolResult, keepBlob?: BlobKeeper): ContentView[] {
  return (result.content ?? []).map((c) => contentView(c, keepBlob));
}

/** Whether a MIME type names text (a blob of that type is decoded and shown as text). */
export function isTextMime(mime: string | undefined): boolean {
  return !!mime && /^(text\/|application\/(json|xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|sql|graphql|ld\+json)\b|[^;]*\+(json|xml)\b)/i.test(mime);
}

/** Keeps a binary blob host-side so the webview can ask for it to be saved; returns its id (undefined: not kept). */
export type BlobKeeper = (base64: string, mimeType: string | undefined, uri: string) => string | undefined;

/** A resource's contents (embedded or read): text as text, a text blob decoded, a binary blob by size (saveable). */
function resourceContentView(r: { uri: string; mimeType?: string; text?: string; blob?: string }, keepBlob?: BlobKeeper): ContentView {
  if (typeof r.text === 'string') return { type: 'resource', uri: r.uri, mimeType: r.mimeType, ...cut(r.text, TEXT_LIMIT) };
  const blob = r.blob ?? '';
  if (isTextMime(r.mimeType)) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(blob, 'base64'));
      return { type: 'resource', uri: r.uri, mimeType: r.mimeType, decodedFrom: 'blob', ...cut(text, TEXT_LIMIT) };
    } catch {
      /* declared text, but not UTF-8: offered as bytes */
    }
  }
  const blobId = keepBlob?.(blob, r.mimeType, r.uri);
  return { type: 'resource', uri: r.uri, mimeType: r.mimeType, blobBytes: base64Bytes(blob), ...(blobId ? { blobId } : {}) };
}

function annotationsOf(c: { annotations?: unknown }): ContentView['annotations'] {
  const a = c.annotations as { audience?: unknown; priority?: unknown; lastModified?: unknown } | undefined;
  if (!a || typeof a !== 'object') return undefined;
  const out: NonNullable<ContentView['annotations']> = {};
  if (Array.isArray(a.audience)) out.audience = a.audience.filter((x): x is string => typeof x === 'string');
  if (typeof a.priority === 'number') out.priority = a.priority;
  if (typeof a.lastModified === 'string') out.lastModified = a.lastModified;
  return Object.keys(out).length ? out : undefined;
}

/** One content block (tool result or prompt message) as the webview shows it: big text cut, big binaries dropped. */
export function contentView(c: ContentBlock, keepBlob?: BlobKeeper): ContentView {
  const v = contentViewOf(c, keepBlob);
  const annotations = annotationsOf(c) ?? (c.type === 'resource' ? annotationsOf(c.resource as { annotations?: unknown }) : undefined);
  return annotations ? { ...v, annotations } : v;
}

function contentViewOf(c: ContentBlock, keepBlob?: BlobKeeper): ContentView {
  switch (c.type) {
    case 'text':
      return { type: 'text', ...cut(c.text, TEXT_LIMIT) };
    case 'image':
    case 'audio':
      return c.data.length > BINARY_LIMIT ? { type: c.type, data: '', mimeType: c.mimeType, droppedBytes: base64Bytes(c.data) } : { type: c.type, data: c.data, mimeType: c.mimeType };
    case 'resource_link':
      return { type: 'resource_link', uri: c.uri, name: c.name, title: c.title, mimeType: c.mimeType, description: c.description };
    case 'resource':
      return resourceContentView(c.resource, keepBlob);
    default:
      return { type: 'unknown', json: cut(JSON.stringify(c, null, 2), RAW_LIMIT).text };
  }
}

/** resources/read contents as the webview shows them. */
export function resourceContentViews(r: ReadResourceResult, keepBlob?: BlobKeeper): ContentView[] {
  return r.contents.map((c): ContentView => {
    const v = resourceContentView(c, keepBlob);
    const annotations = annotationsOf(c as { annotations?: unknown });
    return annotations ? { ...v, annotations } : v;
  });
}

export function promptMessageViews(r: GetPromptResult, keepBlob?: BlobKeeper): PromptMessageView[] {
  return r.messages.map((m) => ({ role: m.role, content: contentView(m.content, keepBlob) }));
}

function resourceSummary(m: Extract<HostToWebview, { type: 'resourceRead' }>): string {
  const first = m.contents[0];
  const text = first?.type === 'resource' ? (first.text ?? `binary, ${(first.blobBytes ?? 0).toLocaleString('en')} bytes`) : '';
  return `${m.contents.length} content${m.contents.length === 1 ? '' : 's'}${text ? `: ${text}` : ''}`.replace(/\s+/g, ' ').slice(0, 120);
}

export function templateView(t: { uriTemplate: string; name: string; title?: string; mimeType?: string; description?: string }): ResourceTemplateView {
  let variables: ResourceTemplateView['variables'] = [];
  try {
    variables = templateVariables(t.uriTemplate);
  } catch {
    /* not a template the SDK can parse: listed without a form, reading it says why */
  }
  return { uriTemplate: t.uriTemplate, name: t.name, title: t.title, mimeType: t.mimeType, description: t.description, variables };
}

/** "Missing required argument(s): language (Programming language)" from the violations of a prompt's arguments. */
function missingMessage(what: string, violations: Violation[], describe: (name: string) => string | undefined): string {
  const missing = violations.filter((v) => v.keyword === 'required').map((v) => v.path.slice(1).replace(/~1/g, '/').replace(/~0/g, '~'));
  const others = violations.filter((v) => v.keyword !== 'required').map((v) => `${v.path.slice(1) || what}: ${v.message}`);
  const parts: string[] = [];
  if (missing.length) {
    parts.push(`Missing required ${what}${missing.length === 1 ? '' : 's'}: ${missing.map((n) => (describe(n) ? `${n} (${describe(n)})` : n)).join(', ')}.`);
  }
  if (others.length) parts.push(others.join('; ') + '.');
  return parts.join(' ');
}

function rawText(message: unknown): string {
  if (message === undefined) return '';
  const s = JSON.stringify(message, null, 2);
  return s.length > RAW_LIMIT ? `${s.slice(0, RAW_LIMIT)}\n… (${s.length.toLocaleString('en')} characters in all; cut here)` : s;
}

/** A timeline entry as the webview lists it (and as it is exported): the secret tool arguments masked as in the history. */
export function timelineEntryView(e: TimelineEntry, maskArgs?: (tool: string, args: JsonObject) => JsonObject): TimelineEntryView {
  let text = e.text;
  if (maskArgs && !e.cut && e.direction === 'out' && e.kind === 'request' && e.method === 'tools/call') {
    try {
      const m = JSON.parse(text) as { params?: { name?: string; arguments?: JsonObject } };
      if (m.params?.arguments && typeof m.params.name === 'string') {
        m.params.arguments = maskArgs(m.params.name, m.params.arguments);
        text = JSON.stringify(m);
      }
    } catch {
      /* shown as it was recorded */
    }
  }
  return {
    seq: e.seq,
    at: e.at,
    direction: e.direction,
    kind: e.kind,
    method: e.method,
    id: e.id,
    durationMs: e.durationMs,
    chars: e.chars,
    text,
    ...(e.cut ? { cut: true } : {}),
    replayable: e.direction === 'out' && e.kind === 'request' && !!e.params,
    ...(e.probe ? { probe: e.probe } : {}),
  };
}

function summarize(result: ResultView): string {
  if (result.kind === 'error') return result.message.split('\n')[0].slice(0, 120);
  const first = result.content.find((c) => c.type === 'text') as { text: string } | undefined;
  const text = first ? first.text.replace(/\s+/g, ' ').slice(0, 120) : `${result.content.length} content block(s)`;
  return (result.isError ? 'tool error: ' : '') + text;
}

export class PlaygroundController {
  private readonly calls = new Map<string, AbortController>();
  private readonly disposers: (() => void)[] = [];
  private readonly storeKey: string;
  /** Server requests waiting for the developer, by id. */
  private readonly asks = new Map<string, PendingAsk>();
  private askSeq = 0;

  constructor(
    readonly serverId: string,
    readonly serverName: string,
    readonly session: McpSession,
    private readonly host: ControllerHost,
  ) {
    this.storeKey = `toolsmith.playground/${serverId}`;
    const onStatus = () => this.post({ type: 'server', server: this.serverView() });
    const onTools = () => this.post({ type: 'tools', tools: this.session.tools.map(toolView) });
    const onLog = (p: { level: string; logger?: string; data?: unknown }) =>
      this.log({ at: Date.now(), level: p.level, logger: p.logger, text: maskText(typeof p.data === 'string' ? p.data : JSON.stringify(p.data), this.session.spec), source: 'server' });
    const onWarning = (w: string) => this.log({ at: Date.now(), level: 'warning', text: w, source: 'playground' });
    const onEntry = (e: TimelineEntry) => this.queueTimeline(e);
    const onSubscriptions = () => this.post(this.subscriptionsView());
    const onUpdated = (uri: string) => this.post({ type: 'resourceUpdated', uri, at: Date.now() });
    const onStatusSubs = () => session.running && this.post(this.subscriptionsView());
    session.on('status', onStatus);
    session.on('status', onStatusSubs);
    session.on('toolsChanged', onTools);
    session.on('log', onLog);
    session.on('warning', onWarning);
    session.on('subscriptionsChanged', onSubscriptions);
    session.on('resourceUpdated', onUpdated);
    session.timeline.on('entry', onEntry);
    session.timeline.on('answered', onEntry);
    this.disposers.push(() => {
      session.off('status', onStatus);
      session.off('status', onStatusSubs);
      session.off('toolsChanged', onTools);
      session.off('log', onLog);
      session.off('warning', onWarning);
      session.off('subscriptionsChanged', onSubscriptions);
      session.off('resourceUpdated', onUpdated);
      session.timeline.off('entry', onEntry);
      session.timeline.off('answered', onEntry);
    });
  }

  /** Binary blobs the webview may ask to save, by id (the latest BLOBS_KEPT). */
  private readonly blobs = new Map<string, { base64: string; mimeType?: string; uri: string }>();
  private blobSeq = 0;
  readonly keepBlob: BlobKeeper = (base64, mimeType, uri) => {
    if (base64.length > BINARY_LIMIT) return undefined;
    const id = `b${++this.blobSeq}`;
    this.blobs.set(id, { base64, mimeType, uri });
    for (const k of this.blobs.keys()) {
      if (this.blobs.size <= BLOBS_KEPT) break;
      this.blobs.delete(k);
    }
    return id;
  };

  /** The secret arguments of a tools/call masked as in the history (the schema's secrets, the launch's values). */
  private readonly maskArgs = (tool: string, args: JsonObject): JsonObject => {
    const known = [...Object.values(this.session.spec.env ?? {}), ...(this.session.spec.secrets ?? [])];
    return splitSecretArgs(args, this.session.tools.find((t) => t.name === tool)?.inputSchema, known).clear;
  };

  subscriptionsView(): Extract<HostToWebview, { type: 'subscriptions' }> {
    return { type: 'subscriptions', canSubscribe: this.session.running && this.session.canSubscribe, uris: [...this.session.subscriptions] };
  }

  /** The whole timeline as the webview lists it. */
  timelineViews(): TimelineEntryView[] {
    return this.session.timeline.entries.map((e) => timelineEntryView(e, this.maskArgs));
  }

  /** Timeline entries to the webview in pages (TIMELINE_PAGE_CHARS); `reset` goes with the first page only. */
  private postTimeline(entries: TimelineEntryView[], reset: boolean): void {
    const pages = timelinePages(entries);
    if (reset && pages.length === 0) pages.push([]);
    pages.forEach((page, i) => this.host.post(this.timelineMessage(page, reset && i === 0)));
  }

  private timelineMessage(entries: TimelineEntryView[], reset = false): Extract<HostToWebview, { type: 'timeline' }> {
    const t = this.session.timeline;
    return { type: 'timeline', entries, ...(reset ? { reset } : {}), maxEntries: t.maxEntries, maxPayloadChars: t.maxPayloadChars, dropped: t.dropped };
  }

  /** The timeline as JSON, for the export (masked as shown; what was cut stays cut, with its full size). */
  timelineExport(): string {
    const t = this.session.timeline;
    const messages = this.timelineViews().map((e) => {
      let message: unknown = e.text;
      if (!e.cut) {
        try {
          message = JSON.parse(e.text);
        } catch {
          /* kept as text */
        }
      }
      return {
        seq: e.seq,
        at: new Date(e.at).toISOString(),
        direction: e.direction === 'out' ? 'client→server' : 'server→client',
        kind: e.kind,
        ...(e.method ? { method: e.method } : {}),
        ...(e.id !== undefined ? { id: e.id } : {}),
        ...(e.durationMs !== undefined ? { durationMs: e.durationMs } : {}),
        chars: e.chars,
        ...(e.cut ? { cut: true } : {}),
        message,
      };
    });
    return JSON.stringify(
      {
        server: this.serverName,
        serverInfo: this.session.serverInfo,
        protocolVersion: this.session.protocolVersion,
        exportedAt: new Date().toISOString(),
        limits: { maxEntries: t.maxEntries, maxPayloadChars: t.maxPayloadChars, droppedEntries: t.dropped },
        messages,
      },
      null,
      2,
    );
  }

  dispose(): void {
    for (const c of this.calls.values()) c.abort();
    // A closed panel cannot answer: sampling is refused, elicitation cancelled (the spec's "dismissed").
    for (const id of [...this.asks.keys()]) this.endAsk(id, 'The playground was closed.', 'cancel');
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.disposers.forEach((d) => d());
  }

  /**
   * Log lines and progress are coalesced before they reach the webview: a server that sends 100k notifications gets
   * one post per flush (the latest progress of each call, at most LOG_BURST log lines and a line saying how many were
   * left out) instead of 100k. Every other message flushes the queue first, so the order the webview sees is kept.
   */
  private queuedLogs: LogEntry[] = [];
  private droppedLogs = 0;
  private queuedProgress = new Map<string, Extract<HostToWebview, { type: 'progress' }>>();
  /** Timeline entries to post, by seq (a request updated with its duration replaces its queued copy). */
  private queuedTimeline = new Map<number, TimelineEntry>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  private post(m: HostToWebview): void {
    if (m.type === 'log') {
      if (this.queuedLogs.length < LOG_BURST) this.queuedLogs.push(m.entry);
      else this.droppedLogs++;
      this.scheduleFlush();
      return;
    }
    if (m.type === 'progress') {
      this.queuedProgress.set(m.callId, m);
      this.scheduleFlush();
      return;
    }
    this.flush();
    this.host.post(m);
  }

  private queueTimeline(e: TimelineEntry): void {
    this.queuedTimeline.set(e.seq, e);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Posts what is queued (log lines, then the latest progress of each call). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const logs = this.queuedLogs;
    const dropped = this.droppedLogs;
    const progress = [...this.queuedProgress.values()];
    const timeline = [...this.queuedTimeline.values()].slice(-this.session.timeline.maxEntries);
    this.queuedLogs = [];
    this.droppedLogs = 0;
    this.queuedProgress.clear();
    this.queuedTimeline.clear();
    for (const entry of logs) this.host.post({ type: 'log', entry });
    if (dropped)
      this.host.post({
        type: 'log',
        entry: {
          at: Date.now(),
          level: 'warning',
          text: `${dropped.toLocaleString('en')} more log lines in ${FLUSH_MS} ms were left out here (the output channel has them all).`,
          source: 'playground',
        },
      });
    for (const p of progress) this.host.post(p);
    if (timeline.length)
      this.postTimeline(
        timeline.map((e) => timelineEntryView(e, this.maskArgs)),
        false,
      );
  }

  private log(entry: LogEntry): void {
    this.post({ type: 'log', entry });
  }

  serverView(): ServerView {
    const s = this.session;
    return {
      id: this.serverId,
      name: this.serverName,
      status: s.status,
      serverInfo: s.serverInfo,
      protocolVersion: s.protocolVersion,
      error: s.lastError?.message,
    };
  }

  /** The workspace's canned sampling replies, newest first. */
  cannedReplies(): CannedReply[] {
    const list = this.host.memento.get<CannedReply[]>(CANNED_REPLIES_KEY);
    return Array.isArray(list) ? list.filter((r) => r && typeof r.text === 'string') : [];
  }

  /**
   * Keeps a reply to pick again. It is stored in the workspace state, a plain file: the launch's secrets (env
   * values, password inputs) are masked out first, as in the log.
   */
  async saveCannedReply(text: string, model: string): Promise<CannedReply[]> {
    const clean = maskText(text, this.session.spec).slice(0, CANNED_REPLY_CHARS);
    if (!clean.trim()) return this.cannedReplies();
    const reply: CannedReply = { text: clean, model: maskText(model, this.session.spec).trim().slice(0, 200) };
    const list = [reply, ...this.cannedReplies().filter((r) => r.text !== clean)].slice(0, CANNED_REPLIES_MAX);
    await this.host.memento.update(CANNED_REPLIES_KEY, list);
    this.post({ type: 'cannedReplies', replies: list });
    return list;
  }

  async languageModelView(): Promise<Extract<HostToWebview, { type: 'languageModel' }>> {
    if (!this.host.languageModel) return { type: 'languageModel', available: false, reason: 'No language model is offered to extensions here.' };
    try {
      const a = await this.host.languageModel.availability();
      return a.available ? { type: 'languageModel', available: true, name: a.name } : { type: 'languageModel', available: false, reason: a.reason };
    } catch (err) {
      return { type: 'languageModel', available: false, reason: `The language models could not be listed: ${(err as Error).message}` };
    }
  }

  /**
   * "Ask the model": the sampling request's messages to VS Code's language model (VS Code asks the developer's
   * consent on first use). The answer fills the reply field; the developer still sends it (or edits, or rejects).
   */
  async askModel(id: string): Promise<Extract<HostToWebview, { type: 'modelReply' }>> {
    const a = this.asks.get(id);
    let answer: Extract<HostToWebview, { type: 'modelReply' }>;
    if (!a?.sampling) answer = { type: 'modelReply', id, error: 'This request is no longer waiting for a reply.' };
    else if (!this.host.languageModel) answer = { type: 'modelReply', id, error: (await this.languageModelView()).reason };
    else {
      a.model?.abort();
      const ac = new AbortController();
      a.model = ac;
      try {
        const r = await this.host.languageModel.ask(modelRequestOf(a.sampling), ac.signal);
        answer = ac.signal.aborted ? { type: 'modelReply', id, error: 'Stopped.' } : { type: 'modelReply', id, text: r.text, model: r.model };
      } catch (err) {
        answer = { type: 'modelReply', id, error: ac.signal.aborted ? 'Stopped.' : ((err as Error)?.message ?? String(err)) };
      } finally {
        if (a.model === ac) a.model = undefined;
      }
    }
    this.post(answer);
    return answer;
  }

  /** Server requests not answered yet (the webview shows them again on ready). */
  pendingRequests(): ServerRequestView[] {
    return [...this.asks.values()].map((a) => a.view);
  }

  /** sampling/createMessage from the server: shown to the developer, who types the reply or refuses. */
  askSampling(params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult> {
    return this.ask((id) => samplingView(id, params), signal, params) as Promise<CreateMessageResult>;
  }

  /** elicitation/create from the server (form or URL mode): accept / decline / cancel by the developer. */
  askElicitation(params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitResult> {
    return this.ask((id) => elicitationView(id, params), signal) as Promise<ElicitResult>;
  }

  private ask(view: (id: string) => ServerRequestView, signal: AbortSignal, sampling?: CreateMessageRequestParams): Promise<CreateMessageResult | ElicitResult> {
    const id = `r${++this.askSeq}`;
    return new Promise((resolve, reject) => {
      const v = view(id);
      this.asks.set(id, { view: v, resolve, reject, sampling });
      signal.addEventListener('abort', () => this.endAsk(id, 'The server withdrew its request (cancelled or timed out).'), { once: true });
      this.post({ type: 'serverRequest', request: v });
    });
  }

  /** Ends a pending request without an answer from the developer: refused (sampling) or cancelled (elicitation). */
  private endAsk(id: string, reason: string, settle?: 'cancel'): void {
    const a = this.asks.get(id);
    if (!a) return;
    this.asks.delete(id);
    a.model?.abort();
    this.post({ type: 'serverRequestEnded', id, reason });
    if (settle !== 'cancel') a.reject(new Error(reason));
    else if (a.view.kind === 'sampling') a.reject(new ProtocolError(SAMPLING_REJECTED_CODE, 'User rejected sampling request'));
    else a.resolve({ action: 'cancel' });
  }

  private answerAsk(msg: Extract<WebviewToHost, { type: 'answerSampling' | 'rejectSampling' | 'answerElicitation' }>): void {
    const a = this.asks.get(msg.id);
    if (!a) return;
    a.model?.abort();
    if (msg.type === 'rejectSampling') {
      this.asks.delete(msg.id);
      this.post({ type: 'serverRequestEnded', id: msg.id, reason: 'Refused: the server was answered "User rejected sampling request" (-1).' });
      a.reject(new ProtocolError(SAMPLING_REJECTED_CODE, 'User rejected sampling request'));
      return;
    }
    if (msg.type === 'answerSampling') {
      if (a.view.kind !== 'sampling') return;
      this.asks.delete(msg.id);
      this.post({ type: 'serverRequestEnded', id: msg.id, reason: 'Replied.' });
      a.resolve({ role: 'assistant', model: msg.model.trim() || 'toolsmith-playground', content: { type: 'text', text: msg.text }, stopReason: 'endTurn' });
      return;
    }
    if (a.view.kind !== 'elicitation') return;
    if (msg.action === 'accept' && a.view.mode === 'form') {
      const content = msg.content ?? {};
      const check = validate(a.view.schema, content);
      if (!check.valid) {
        this.post({ type: 'serverRequestViolations', id: msg.id, violations: check.violations });
        return;
      }
      this.asks.delete(msg.id);
      this.post({ type: 'serverRequestEnded', id: msg.id, reason: 'Accepted.' });
      a.resolve({ action: 'accept', content: content as ElicitResult['content'] });
      return;
    }
    this.asks.delete(msg.id);
    this.post({ type: 'serverRequestEnded', id: msg.id, reason: msg.action === 'accept' ? 'Accepted.' : msg.action === 'decline' ? 'Declined.' : 'Cancelled.' });
    a.resolve({ action: msg.action });
  }

  private stored(): Stored {
    const s = this.host.memento.get<Stored>(this.storeKey);
    return { lastArgs: s?.lastArgs ?? {}, calls: s?.calls ?? [] };
  }

  /** Secret argument values by tool, then JSON pointer (see secretArgs.ts): loaded once from SecretStorage. */
  private secretArgs: Promise<Record<string, Record<string, JsonValue>>> | undefined;

  private loadSecretArgs(): Promise<Record<string, Record<string, JsonValue>>> {
    this.secretArgs ??= Promise.resolve(this.host.secrets?.get(`${this.storeKey}/secretArgs`))
      .then((text) => (text ? (JSON.parse(text) as Record<string, Record<string, JsonValue>>) : {}))
      .catch(() => ({}));
    return this.secretArgs;
  }

  /** Remembers a tool's last arguments: the clear part in workspaceState, the secret values in SecretStorage only. */
  private async rememberArgs(st: Stored, toolName: string, args: JsonObject, inputSchema: Tool['inputSchema'] | undefined): Promise<JsonObject> {
    const known = [...Object.values(this.session.spec.env ?? {}), ...(this.session.spec.secrets ?? [])];
    const split = splitSecretArgs(args, inputSchema, known);
    st.lastArgs[toolName] = split.clear;
    const all = await this.loadSecretArgs();
    const had = JSON.stringify(all[toolName] ?? {});
    if (Object.keys(split.secrets).length) all[toolName] = split.secrets;
    else delete all[toolName];
    if (this.host.secrets && JSON.stringify(all[toolName] ?? {}) !== had) await this.host.secrets.store(`${this.storeKey}/secretArgs`, JSON.stringify(all));
    return split.clear;
  }

  /** Sends the whole state (on ready, and when the panel is revealed for another tool). */
  async init(selected?: string): Promise<void> {
    const st = this.stored();
    const secrets = await this.loadSecretArgs();
    const lastArgs = Object.fromEntries(Object.entries(st.lastArgs).map(([tool, args]) => [tool, joinSecretArgs(args, secrets[tool])]));
    // The whole timeline follows: what was queued is in it (posting the queue first would send it twice).
    this.queuedTimeline.clear();
    this.post({ type: 'init', server: this.serverView(), tools: this.session.tools.map(toolView), selected, lastArgs, history: st.calls });
    this.postTimeline(this.timelineViews(), true);
    this.post(this.subscriptionsView());
  }

  async handle(msg: WebviewToHost): Promise<void> {
    switch (msg.type) {
      case 'ready':
        await this.init();
        this.post({ type: 'cannedReplies', replies: this.cannedReplies() });
        this.post(await this.languageModelView());
        for (const request of this.pendingRequests()) this.post({ type: 'serverRequest', request });
        return;
      case 'answerSampling':
      case 'rejectSampling':
      case 'answerElicitation':
        this.answerAsk(msg);
        return;
      case 'saveCannedReply':
        await this.saveCannedReply(msg.text, msg.model);
        return;
      case 'deleteCannedReply':
        await this.host.memento.update(
          CANNED_REPLIES_KEY,
          this.cannedReplies().filter((r) => r.text !== msg.text),
        );
        this.post({ type: 'cannedReplies', replies: this.cannedReplies() });
        return;
      case 'askModel':
        await this.askModel(msg.id);
        return;
      case 'stopModel':
        this.asks.get(msg.id)?.model?.abort();
        return;
      case 'openElicitationUrl': {
        const v = this.asks.get(msg.id)?.view;
        if (v?.kind === 'elicitation' && v.mode === 'url') await this.host.openExternal?.(v.url);
        return;
      }
      case 'call':
        await this.call(msg.callId, msg.tool, msg.args, !!msg.force, !!msg.dryRun);
        return;
      case 'cancel':
        this.calls.get(msg.callId)?.abort();
        return;
      case 'copy':
        await this.host.copy(msg.text);
        return;
      case 'paste':
        this.post({ type: 'pasted', text: await this.host.readClipboard() });
        return;
      case 'start':
      case 'restart':
        await this.host.start(msg.type === 'restart').catch(() => undefined);
        this.post({ type: 'server', server: this.serverView() });
        if (this.session.running) this.post({ type: 'tools', tools: this.session.tools.map(toolView) });
        return;
      case 'showLog':
        this.host.showLog?.();
        return;
      case 'goToDefinition':
        await this.host.goToDefinition?.(msg.tool);
        return;
      case 'listCatalog':
        await this.catalog();
        return;
      case 'readResource':
        await this.readResource(msg.uri);
        return;
      case 'replay':
        await this.replay(msg.seq);
        return;
      case 'exportTimeline':
        await this.exportTimeline();
        return;
      case 'clearTimeline':
        this.session.timeline.clear();
        this.queuedTimeline.clear();
        this.postTimeline([], true);
        return;
      case 'subscribe':
      case 'unsubscribe':
        try {
          if (msg.type === 'subscribe') await this.session.subscribeResource(msg.uri);
          else await this.session.unsubscribeResource(msg.uri);
        } catch (err) {
          this.log({ at: Date.now(), level: 'error', text: `resources/${msg.type} ${msg.uri} failed: ${errorText(err)}`, source: 'playground' });
          this.post(this.subscriptionsView());
        }
        return;
      case 'saveBlob': {
        const b = this.blobs.get(msg.blobId);
        if (!b || !this.host.saveFile) return;
        const name = decodeURIComponent(b.uri.split(/[/?#]/).filter(Boolean).pop() ?? 'resource') || 'resource';
        await this.host.saveFile(name, Buffer.from(b.base64, 'base64'), { [b.mimeType ?? 'All files']: ['*'] }).catch(() => undefined);
        return;
      }
      case 'readTemplate':
        await this.readTemplate(msg.uriTemplate, msg.values, !!msg.force);
        return;
      case 'getPrompt':
        await this.getPrompt(msg.name, msg.args, !!msg.force);
        return;
      case 'complete':
        try {
          const c = await this.session.complete(msg.ref, msg.argument, msg.value, msg.context);
          this.post({ type: 'completion', requestId: msg.requestId, values: c.values.slice(0, 100), hasMore: c.hasMore, total: c.total });
        } catch (err) {
          this.post({ type: 'completion', requestId: msg.requestId, values: [], error: (err as Error).message });
        }
        return;
    }
  }

  /** resources/read of one URI (a resource of the catalog, a link of a result, a history entry), recorded in the history. */
  async readResource(uri: string): Promise<Extract<HostToWebview, { type: 'resourceRead' }>> {
    const started = performance.now();
    let answer: Extract<HostToWebview, { type: 'resourceRead' }>;
    try {
      const r = await this.session.readResource(uri);
      answer = { type: 'resourceRead', uri, contents: resourceContentViews(r, this.keepBlob) };
    } catch (err) {
      answer = { type: 'resourceRead', uri, contents: [], error: errorText(err) };
    }
    this.post(answer);
    await this.record('resource', uri, {}, !answer.error, performance.now() - started, answer.error ?? resourceSummary(answer));
    return answer;
  }

  /** Sends a timeline request again; its messages come on the timeline, the outcome in a `replayed` message. */
  async replay(seq: number): Promise<Extract<HostToWebview, { type: 'replayed' }>> {
    let answer: Extract<HostToWebview, { type: 'replayed' }>;
    try {
      const r = await this.session.replay(seq, this.host.timeoutMs());
      answer =
        r.error !== undefined
          ? { type: 'replayed', seq, error: r.error }
          : { type: 'replayed', seq, result: cut(maskText(JSON.stringify(r.result, null, 2) ?? 'null', this.session.spec), RAW_LIMIT).text };
    } catch (err) {
      answer = { type: 'replayed', seq, error: errorText(err) };
    }
    this.post(answer);
    return answer;
  }

  async exportTimeline(): Promise<void> {
    if (!this.host.saveFile) {
      this.post({ type: 'timelineExported', error: 'Saving files is not available here.' });
      return;
    }
    const name = `${this.serverName.replace(/[^\w.-]+/g, '-')}-timeline-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
    try {
      const file = await this.host.saveFile(name, new TextEncoder().encode(this.timelineExport()), { JSON: ['json'] });
      this.post({ type: 'timelineExported', file });
    } catch (err) {
      this.post({ type: 'timelineExported', error: (err as Error).message });
    }
  }

  /** One history entry (tool call, prompts/get or resources/read), newest first, capped. */
  private async record(kind: HistoryEntry['kind'], name: string, args: JsonObject, ok: boolean, durationMs: number, summary: string, id = `${kind}-${Date.now().toString(36)}`): Promise<void> {
    const entry: HistoryEntry = { id, ...(kind === 'tool' ? {} : { kind }), tool: name, args, at: Date.now(), ok, durationMs: Math.round(durationMs), summary };
    const after = this.stored();
    after.calls = [entry, ...after.calls].slice(0, HISTORY_MAX);
    await this.host.memento.update(this.storeKey, after);
    this.post({ type: 'history', history: after.calls });
  }

  /**
   * Expands a resource template with the values given (the SDK's UriTemplate) and reads the resulting URI. Required
   * variables left empty are reported and nothing is sent, unless forced.
   */
  async readTemplate(uriTemplate: string, values: Record<string, string>, force = false): Promise<Extract<HostToWebview, { type: 'resourceRead' }>> {
    let answer: Extract<HostToWebview, { type: 'resourceRead' }>;
    let uri = '';
    try {
      const missing = force ? [] : missingVariables(uriTemplate, values);
      uri = expandTemplate(uriTemplate, values);
      if (missing.length) {
        answer = {
          type: 'resourceRead',
          uri,
          template: uriTemplate,
          contents: [],
          error: `Missing required variable${missing.length === 1 ? '' : 's'}: ${missing.map((v) => v.name).join(', ')}. Fill ${missing.length === 1 ? 'it' : 'them'} in to read ${uriTemplate}; nothing was sent.`,
          violations: missing.map((v) => ({ path: `/${v.name}`, message: 'is required', keyword: 'required' })),
        };
      } else {
        const started = performance.now();
        try {
          const r = await this.session.readResource(uri);
          answer = { type: 'resourceRead', uri, template: uriTemplate, contents: resourceContentViews(r, this.keepBlob) };
        } catch (err) {
          answer = { type: 'resourceRead', uri, template: uriTemplate, contents: [], error: errorText(err) };
        }
        await this.record('resource', uri, {}, !answer.error, performance.now() - started, answer.error ?? resourceSummary(answer));
      }
    } catch (err) {
      answer = {
        type: 'resourceRead',
        uri,
        template: uriTemplate,
        contents: [],
        error: uri ? (err as Error).message : `${uriTemplate} is not a URI template the SDK can expand: ${(err as Error).message}`,
      };
    }
    this.post(answer);
    return answer;
  }

  /**
   * prompts/get with the arguments given. The prompt's declared arguments (prompts/list) are checked first: a missing
   * required one is reported by name and nothing is sent, unless forced (to see what the server itself answers).
   */
  async getPrompt(name: string, args: Record<string, string>, force = false): Promise<Extract<HostToWebview, { type: 'promptGot' }>> {
    let answer: Extract<HostToWebview, { type: 'promptGot' }>;
    const declared: PromptView | undefined = this.session.prompts.find((p) => p.name === name);
    const check = declared && !force ? validate(promptArgumentsSchema(declared), args) : { valid: true, violations: [] };
    if (!check.valid) {
      const describe = (n: string) => declared?.arguments?.find((a) => a.name === n)?.description;
      answer = { type: 'promptGot', name, messages: [], violations: check.violations, error: `${missingMessage('argument', check.violations, describe)} prompts/get was not sent.` };
    } else {
      const started = performance.now();
      try {
        const r = await this.session.getPrompt(name, args);
        answer = { type: 'promptGot', name, description: r.description, messages: promptMessageViews(r, this.keepBlob), raw: rawText(r) };
      } catch (err) {
        const data = (err as { data?: unknown }).data;
        answer = { type: 'promptGot', name, messages: [], error: `${errorText(err)}${data !== undefined ? ` (${JSON.stringify(data)})` : ''}` };
      }
      const summary = answer.error ?? `${answer.messages.length} message${answer.messages.length === 1 ? '' : 's'}${answer.description ? `: ${answer.description}` : ''}`;
      await this.record('prompt', name, args, !answer.error, performance.now() - started, summary.replace(/\s+/g, ' ').slice(0, 120));
    }
    this.post(answer);
    return answer;
  }

  private async catalog(): Promise<void> {
    // Each list on its own: a server whose templates list fails still shows its resources and prompts.
    const [resources, templates, prompts] = await Promise.allSettled([this.session.listResources(), this.session.listResourceTemplates(), this.session.listPrompts()]);
    const failed = (
      [
        ['resources/list', resources],
        ['resources/templates/list', templates],
        ['prompts/list', prompts],
      ] as const
    )
      .filter(([, r]) => r.status === 'rejected')
      .map(([method, r]) => `${method} failed: ${errorText((r as PromiseRejectedResult).reason)}`);
    this.post({
      type: 'catalog',
      resources: resources.status === 'fulfilled' ? resources.value.map((r) => ({ uri: r.uri, name: r.name, title: r.title, mimeType: r.mimeType, description: r.description })) : [],
      templates: templates.status === 'fulfilled' ? templates.value.map(templateView) : [],
      prompts: prompts.status === 'fulfilled' ? prompts.value.map((p) => ({ name: p.name, title: p.title, description: p.description, arguments: p.arguments })) : [],
      ...(failed.length ? { error: failed.join('\n') } : {}),
      completions: !!this.session.capabilities?.completions,
    });
  }

  async call(callId: string, toolName: string, args: JsonObject, force: boolean, dryRun: boolean): Promise<ResultView | undefined> {
    const tool = this.session.tools.find((t) => t.name === toolName);
    if (tool && !force) {
      const check = validate(tool.inputSchema, args);
      if (!check.valid) {
        this.post({ type: 'validation', callId, violations: check.violations });
        return undefined;
      }
    }
    // Remember the arguments even when the call then fails: the author will fix and retry.
    const st = this.stored();
    // The history keeps no secret value at all (a re-run leaves those fields empty); the last arguments keep them apart.
    const known = [...Object.values(this.session.spec.env ?? {}), ...(this.session.spec.secrets ?? [])];
    const historyArgs = joinSecretArgs(splitSecretArgs(args, tool?.inputSchema, known).clear, undefined);
    if (!dryRun) await this.rememberArgs(st, toolName, args, tool?.inputSchema);
    await this.host.memento.update(this.storeKey, st);

    const ac = new AbortController();
    this.calls.set(callId, ac);
    this.post({ type: 'callStarted', callId, tool: toolName });
    // What the server writes on stderr meanwhile goes with a failed call (a traceback usually says why).
    const stderr: string[] = [];
    const onStderr = (line: string) => {
      stderr.push(line);
      if (stderr.length > CALL_STDERR_LINES) stderr.shift();
    };
    this.session.on('stderr', onStderr);
    const outcome = await this.session.callTool(toolName, args, {
      signal: ac.signal,
      timeoutMs: this.host.timeoutMs(),
      onProgress: (p) => this.post({ type: 'progress', callId, ...p }),
      onTaskStatus: (t) => this.post({ type: 'progress', callId, progress: 0, message: `task ${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''} (${t.taskId})` }),
    });
    this.calls.delete(callId);
    this.session.off('stderr', onStderr);
    const at = Date.now();

    let view: ResultView;
    if (outcome.kind === 'result') {
      const r = outcome.result;
      view = {
        kind: 'result',
        tool: toolName,
        at,
        durationMs: outcome.durationMs,
        isError: r.isError === true,
        content: contentViews(r, this.keepBlob),
        rawRequest: rawText(outcome.request),
        rawResponse: rawText(outcome.response),
        responseBytes: outcome.responseBytes,
        dryRun,
        ...(r.isError === true && stderr.length ? { stderr } : {}),
      };
      if (r.structuredContent !== undefined) {
        view.structuredContent = JSON.stringify(r.structuredContent).length > TEXT_LIMIT ? '(structuredContent too large to show)' : r.structuredContent;
        if (tool?.outputSchema) view.structuredViolations = validate(tool.outputSchema, r.structuredContent).violations;
      } else if (tool?.outputSchema && !r.isError) view.missingStructured = true;
    } else {
      const e = outcome.error;
      view = {
        kind: 'error',
        tool: toolName,
        at,
        durationMs: outcome.durationMs,
        errorKind: e.kind,
        message: e.message,
        code: e.code,
        data: e.data === undefined ? undefined : JSON.stringify(e.data, null, 2),
        rawRequest: outcome.request ? rawText(outcome.request) : undefined,
        rawResponse: outcome.response ? rawText(outcome.response) : undefined,
        // A crash's message carries the stderr tail already.
        ...(stderr.length && e.kind !== 'crashed' ? { stderr } : {}),
      };
    }
    this.post({ type: 'result', callId, result: view });

    await this.record('tool', toolName, historyArgs, view.kind === 'result' && !view.isError, view.durationMs, (dryRun ? '[dry run] ' : '') + summarize(view), callId);
    return view;
  }
}

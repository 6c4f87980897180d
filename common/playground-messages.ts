/**
 * Messages between the playground webview (webview/src/playground.ts) and its host
 * (client/src/playground/controller.ts). Every message is a typed `{ type, ... }` object.
 */

import type { RiskAssessment } from './risk';

export type JsonObject = { [key: string]: unknown };

export interface ToolView {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
  /** The risk level of its annotations (common/risk.ts), computed by the host as for the Servers tree. */
  risk: RiskAssessment;
}

export interface ServerView {
  id: string;
  name: string;
  status: 'stopped' | 'starting' | 'running' | 'stopping' | 'crashed' | 'failed';
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  error?: string;
}

export interface Violation {
  path: string;
  message: string;
  keyword: string;
}

/** A content block's annotations (MCP `Annotations`): who it is for, how much it matters, when it last changed. */
export interface ContentAnnotations {
  audience?: string[];
  priority?: number;
  lastModified?: string;
}

/**
 * A content block as the webview shows it (large text cut, with the original size). A resource blob whose MIME type
 * is text is decoded (`decodedFrom: 'blob'`); a binary one has a `blobId` the host can save it by (saveBlob).
 */
export type ContentView = (
  | { type: 'text'; text: string; truncatedFrom?: number }
  | { type: 'image' | 'audio'; data: string; mimeType: string; droppedBytes?: number }
  | { type: 'resource_link'; uri: string; name?: string; title?: string; mimeType?: string; description?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blobBytes?: number; truncatedFrom?: number; decodedFrom?: 'blob'; blobId?: string }
  | { type: 'unknown'; json: string }
) & { annotations?: ContentAnnotations };

export type ResultView =
  | {
      kind: 'result';
      tool: string;
      /** Epoch ms when the result arrived (shown with the tool's name: a result is never on screen unlabelled). */
      at: number;
      durationMs: number;
      isError: boolean;
      content: ContentView[];
      /** structuredContent pretty-printed (cut when huge) and its outputSchema check. */
      structuredContent?: unknown;
      structuredViolations?: Violation[];
      /** The tool declares an outputSchema but sent no structuredContent. */
      missingStructured?: boolean;
      rawRequest: string;
      rawResponse: string;
      responseBytes: number;
      dryRun?: boolean;
      /** What the server wrote on stderr during the call, shown with a tool error (masked, last lines only). */
      stderr?: string[];
    }
  | {
      kind: 'error';
      tool: string;
      at: number;
      durationMs: number;
      errorKind: string;
      message: string;
      code?: number;
      data?: string;
      rawRequest?: string;
      rawResponse?: string;
      /** What the server wrote on stderr during the call (masked, last lines only). */
      stderr?: string[];
    };

export interface HistoryEntry {
  id: string;
  /** What was run: a tool call (the default, entries stored before kinds existed), a prompts/get or a resources/read. */
  kind?: 'tool' | 'prompt' | 'resource';
  /** The tool's or prompt's name, or the resource's URI. */
  tool: string;
  args: JsonObject;
  at: number;
  ok: boolean;
  durationMs: number;
  summary: string;
}

export interface LogEntry {
  at: number;
  level: string;
  logger?: string;
  text: string;
  source: 'server' | 'stderr' | 'playground';
}

export interface ResourceView {
  uri: string;
  name?: string;
  title?: string;
  mimeType?: string;
  description?: string;
}
export interface PromptView {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}
/** A resources/templates/list entry, with the RFC 6570 variables of its uriTemplate (read by the SDK's UriTemplate). */
export interface ResourceTemplateView {
  uriTemplate: string;
  name: string;
  title?: string;
  mimeType?: string;
  description?: string;
  variables: TemplateVariable[];
}
export interface TemplateVariable {
  name: string;
  /** False for query variables ({?q} / {&q}): RFC 6570 drops an undefined one from the URI. */
  required: boolean;
  /** The expression it sits in, e.g. "{?q,limit}" (shown as the field's description). */
  expression: string;
}
/** What a completion/complete is about: a prompt (by name) or a resource template (by its uriTemplate). */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** One prompts/get message as the webview shows it: its role and one content block of any kind. */
export interface PromptMessageView {
  role: string;
  content: ContentView;
}

/**
 * A request the server sent to the client (sampling/createMessage, elicitation/create), waiting for the developer.
 * `raw` is the request's params as JSON.
 */
export type ServerRequestView =
  | {
      id: string;
      kind: 'sampling';
      messages: PromptMessageView[];
      systemPrompt?: string;
      /** modelPreferences as JSON (hints, cost/speed/intelligence priorities). */
      modelPreferences?: string;
      maxTokens: number;
      temperature?: number;
      stopSequences?: string[];
      includeContext?: string;
      tools?: { name: string; description?: string }[];
      toolChoice?: string;
      raw: string;
    }
  | { id: string; kind: 'elicitation'; mode: 'form'; message: string; schema: JsonObject; raw: string }
  | { id: string; kind: 'elicitation'; mode: 'url'; message: string; url: string; elicitationId?: string; raw: string };

/** A sampling reply kept to be picked again (workspace state, secrets masked). */
export interface CannedReply {
  text: string;
  model: string;
}

/** One JSON-RPC message of the server's timeline (client/src/servers/timeline.ts), as the webview lists it. */
export interface TimelineEntryView {
  seq: number;
  at: number;
  /** out: client → server; in: server → client. */
  direction: 'out' | 'in';
  kind: 'request' | 'response' | 'error' | 'notification';
  method?: string;
  id?: string | number;
  durationMs?: number;
  chars: number;
  /** The message as JSON (masked; cut when `cut`). */
  text: string;
  cut?: boolean;
  /** A client → server request kept whole: it can be sent again. */
  replayable: boolean;
  /** A message of the protocol-version probe (server/discover): on a sibling process (stdio) or in place (HTTP). */
  probe?: 'sibling' | 'in-place';
}

export type HostToWebview =
  | { type: 'init'; server: ServerView; tools: ToolView[]; selected?: string; lastArgs: Record<string, JsonObject>; history: HistoryEntry[] }
  | { type: 'server'; server: ServerView }
  | { type: 'tools'; tools: ToolView[] }
  | { type: 'select'; tool: string }
  | { type: 'validation'; callId: string; violations: Violation[] }
  | { type: 'callStarted'; callId: string; tool: string }
  | { type: 'progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'result'; callId: string; result: ResultView }
  | { type: 'history'; history: HistoryEntry[] }
  | { type: 'log'; entry: LogEntry }
  /** `completions`: the server declares the completions capability (its forms may ask completion/complete). */
  | { type: 'catalog'; resources: ResourceView[]; templates: ResourceTemplateView[]; prompts: PromptView[]; error?: string; completions?: boolean }
  /** A resources/read answer; `template` is set when the uri was expanded from that uriTemplate. */
  | { type: 'resourceRead'; uri: string; contents: ContentView[]; error?: string; template?: string; violations?: Violation[] }
  /**
   * A prompts/get answer. `violations` (missing required arguments...) means nothing was sent; `error` alone is the
   * server's refusal. `raw` is the result as JSON.
   */
  | { type: 'promptGot'; name: string; description?: string; messages: PromptMessageView[]; error?: string; violations?: Violation[]; raw?: string }
  | { type: 'pasted'; text: string }
  /** A completion/complete answer for one field of a template or prompt form (values empty when none or failed). */
  | { type: 'completion'; requestId: number; values: string[]; hasMore?: boolean; total?: number; error?: string }
  /**
   * Opens the resources and prompts section on one of them (from the Servers tree): a resource is read at once, a
   * template or a prompt with arguments waits for its values, a prompt without arguments is got at once.
   */
  | { type: 'showCatalog'; resource?: string; template?: string; prompt?: string }
  /** The server asks something of the developer (see ServerRequestView). */
  | { type: 'serverRequest'; request: ServerRequestView }
  /** A server request is over: answered, or withdrawn by the server (reason says which). */
  | { type: 'serverRequestEnded'; id: string; reason: string }
  /** The elicitation answer does not match the requestedSchema: nothing was sent. */
  | { type: 'serverRequestViolations'; id: string; violations: Violation[] }
  /** The canned sampling replies of this workspace, newest first. */
  | { type: 'cannedReplies'; replies: CannedReply[] }
  /** Whether "Ask the model" can be offered on a sampling request, and if not why (shown with the button). */
  | { type: 'languageModel'; available: boolean; name?: string; reason?: string }
  /** What the model answered to "Ask the model" (filled into the reply, not sent), or why it did not. */
  | { type: 'modelReply'; id: string; text?: string; model?: string; error?: string }
  /**
   * Timeline entries, new or updated (a request whose response came: same seq), in order; `reset` replaces the list.
   * The bounds are shown in the view.
   */
  | { type: 'timeline'; entries: TimelineEntryView[]; reset?: boolean; maxEntries: number; maxPayloadChars: number; dropped: number }
  /** A replayed request's outcome (its messages arrive on the timeline). */
  | { type: 'replayed'; seq: number; error?: string; result?: string }
  /** The export of the timeline was written (or not: `error`, or neither when the save dialog was cancelled). */
  | { type: 'timelineExported'; file?: string; error?: string }
  /** Which resources are subscribed to, and whether the server allows it (resources.subscribe). */
  | { type: 'subscriptions'; canSubscribe: boolean; uris: string[] }
  /** notifications/resources/updated: the resource changed on the server and can be read again. */
  | { type: 'resourceUpdated'; uri: string; at: number };

export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'call'; callId: string; tool: string; args: JsonObject; force?: boolean; dryRun?: boolean }
  | { type: 'cancel'; callId: string }
  | { type: 'copy'; text: string }
  | { type: 'paste' }
  | { type: 'start' }
  | { type: 'restart' }
  | { type: 'showLog' }
  | { type: 'listCatalog' }
  | { type: 'readResource'; uri: string }
  | { type: 'readTemplate'; uriTemplate: string; values: Record<string, string>; force?: boolean }
  /**
   * completion/complete for one argument of a prompt or one variable of a resource template, with the other values
   * typed so far as context. Sent only when the server declares the completions capability (see `catalog`).
   */
  | { type: 'complete'; requestId: number; ref: CompletionRef; argument: string; value: string; context: Record<string, string> }
  /** force: send even when required arguments are missing (to see what the server itself answers). */
  | { type: 'getPrompt'; name: string; args: Record<string, string>; force?: boolean }
  | { type: 'goToDefinition'; tool: string }
  /** The developer's reply to a sampling request: the text typed, under a model name. */
  | { type: 'answerSampling'; id: string; text: string; model: string }
  /** The developer refused a sampling request (the server gets an error, code -1). */
  | { type: 'rejectSampling'; id: string }
  /** Keeps a sampling reply in the workspace's canned replies (secrets masked), or drops one. */
  | { type: 'saveCannedReply'; text: string; model: string }
  | { type: 'deleteCannedReply'; text: string }
  /** Asks VS Code's language model for a reply to a sampling request (the answer comes back as modelReply); stopModel stops it. */
  | { type: 'askModel'; id: string }
  | { type: 'stopModel'; id: string }
  | { type: 'answerElicitation'; id: string; action: 'accept' | 'decline' | 'cancel'; content?: JsonObject }
  /** Opens the URL of a URL-mode elicitation (by request id: the webview never names the URL itself). */
  | { type: 'openElicitationUrl'; id: string }
  /** Sends a client → server request of the timeline again (same method and params, a new id). */
  | { type: 'replay'; seq: number }
  /** Saves the timeline as JSON through a save dialog (masked as shown). */
  | { type: 'exportTimeline' }
  | { type: 'clearTimeline' }
  | { type: 'subscribe'; uri: string }
  | { type: 'unsubscribe'; uri: string }
  /** Saves a binary resource blob (by the blobId of its ContentView) through a save dialog. */
  | { type: 'saveBlob'; blobId: string };

/** Destructive tools (by their annotations) ask for confirmation before each call. */
export function isDestructive(a: ToolView['annotations'] | undefined): boolean {
  return !!a && a.readOnlyHint !== true && (a.destructiveHint === true || (a.readOnlyHint === false && a.destructiveHint !== false));
}

/** The name of a boolean dry-run parameter, if the tool has one. */
export function dryRunParameter(t: ToolView): string | undefined {
  const props = t.inputSchema?.properties as Record<string, { type?: unknown }> | undefined;
  if (!props) return undefined;
  return Object.keys(props).find((k) => /^(dry[_-]?run|preview[_-]?only|simulate)$/i.test(k) && (props[k]?.type === 'boolean' || props[k]?.type === undefined));
}

/** A JSON object schema with one string property per field, the required ones required: the form the webview draws. */
export function stringFieldsSchema(fields: readonly { name: string; description?: string; required?: boolean }[]): JsonObject {
  const properties: Record<string, JsonObject> = {};
  for (const f of fields) properties[f.name] = { type: 'string', ...(f.description ? { description: f.description } : {}) };
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The arguments form of a prompt (prompts/list gives each argument a name, a description and required). */
export function promptArgumentsSchema(p: Pick<PromptView, 'arguments'>): JsonObject {
  return stringFieldsSchema(p.arguments ?? []);
}

/** The variables form of a resource template. */
export function templateVariablesSchema(t: Pick<ResourceTemplateView, 'variables'>): JsonObject {
  return stringFieldsSchema(t.variables.map((v) => ({ name: v.name, required: v.required, description: variableHint(v.expression) })));
}

/** What the RFC 6570 operator of a variable's expression does to its value, for the form (plain {x}: nothing to say). */
function variableHint(expression: string): string | undefined {
  switch (expression.charAt(1)) {
    case '?':
    case '&':
      return `query parameter ${expression}: left out of the URI when empty`;
    case '+':
      return `${expression}: reserved characters such as / and ? are kept as typed`;
    case '#':
      return `fragment ${expression}`;
    case '/':
      return `path segment ${expression}`;
    case '.':
      return `label ${expression}`;
    default:
      return undefined;
  }
}

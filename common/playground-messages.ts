/**
 * Messages between the playground webview (webview/src/playground.ts) and its host
 * (client/src/playground/controller.ts). Every message is a typed `{ type, ... }` object.
 */

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

/** A content block as the webview shows it (large text cut, with the original size). */
export type ContentView =
  | { type: 'text'; text: string; truncatedFrom?: number }
  | { type: 'image' | 'audio'; data: string; mimeType: string; droppedBytes?: number }
  | { type: 'resource_link'; uri: string; name?: string; title?: string; mimeType?: string; description?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blobBytes?: number; truncatedFrom?: number }
  | { type: 'unknown'; json: string };

export type ResultView =
  | {
      kind: 'result';
      tool: string;
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
    }
  | {
      kind: 'error';
      tool: string;
      durationMs: number;
      errorKind: string;
      message: string;
      code?: number;
      data?: string;
      rawRequest?: string;
      rawResponse?: string;
    };

export interface HistoryEntry {
  id: string;
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
  | { type: 'catalog'; resources: ResourceView[]; prompts: PromptView[]; error?: string }
  | { type: 'resourceRead'; uri: string; contents: ContentView[]; error?: string }
  | { type: 'promptGot'; name: string; text: string; error?: string }
  | { type: 'pasted'; text: string }
  /** Opens the resources and prompts section on one of them (from the Servers tree): a resource is read at once. */
  | { type: 'showCatalog'; resource?: string; prompt?: string };

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
  | { type: 'getPrompt'; name: string; args: Record<string, string> }
  | { type: 'goToDefinition'; tool: string };

export type Risk = 'low' | 'medium' | 'high' | 'critical' | 'unknown';

/**
 * The risk level shown next to a tool (RULES.md): Low = read-only; Medium = writes, not destructive, closed world;
 * High = destructive; Critical = destructive and open world. Without annotations nothing is claimed.
 */
export function riskOf(a: ToolView['annotations'] | undefined): Risk {
  if (!a || (a.readOnlyHint === undefined && a.destructiveHint === undefined && a.openWorldHint === undefined)) return 'unknown';
  if (a.readOnlyHint === true) return 'low';
  // The spec's defaults: destructiveHint and openWorldHint are true unless said otherwise.
  const destructive = a.destructiveHint !== false;
  const openWorld = a.openWorldHint !== false;
  if (!destructive) return 'medium';
  return openWorld ? 'critical' : 'high';
}

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

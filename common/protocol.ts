/**
 * Custom LSP requests/notifications between the extension client and the Toolsmith language server.
 * The client never analyses code: it asks the server through these. Each is a typed RequestType/NotificationType
 * (vscode-jsonrpc, which both vscode-languageclient and vscode-languageserver accept), so a call site gets its
 * params and result types from the method object: no casts, no type arguments.
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { JsonSchema, Language } from './json';
import type { Framework } from './frameworks';
import type { RiskAssessment } from './risk';

/** A 0-based LSP range, duplicated here so the client does not depend on server types. */
export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface ToolSummary {
  /** The tool name (undefined when not statically known). */
  name: string | undefined;
  title?: string;
  language: Language;
  framework: Framework;
  frameworkVersion?: string;
  uri: string;
  /** Range of the registration (registerTool call / decorated function). */
  range: LspRange;
  /** Range of the name literal. */
  nameRange: LspRange;
  /** The exact tools/list object predicted for this tool. */
  contract: JsonSchema;
  /** Parts that could not be resolved statically. */
  unresolved: { part: string; reason: string; uri: string; range: LspRange }[];
  /** Server identity inside the file (variable name), for grouping. */
  serverId: string;
  /**
   * The guard the registration runs under, as written (`clientSupportsRoots`, `!o.skipImageDownloads`): the tool is
   * listed only when it holds at run time. Absent: listed whenever the server starts.
   */
  condition?: { text: string; uri: string; range: LspRange };
  /** Number of findings per severity for this tool. */
  findings: { error: number; warning: number; info: number };
}

/** A prompt registered in a document, as prompts/list would publish it (the preview shows it next to the tools). */
export interface PromptSummary {
  name: string | undefined;
  uri: string;
  /** Range of the registration (registerPrompt / prompt() call). */
  range: LspRange;
  /** The exact prompts/list object predicted for it. */
  contract: JsonSchema;
  unresolved: { part: string; reason: string; uri: string; range: LspRange }[];
  serverId: string;
}

/** A resource (`resource`: a resources/list entry) or resource template (a resources/templates/list entry) registered in a document. */
export interface ResourceSummary {
  kind: 'resource' | 'template';
  name: string | undefined;
  uri: string;
  /** Range of the registration (registerResource / resource() call). */
  range: LspRange;
  /** The exact resources/list (or resources/templates/list) object predicted for it. */
  contract: JsonSchema;
  unresolved: { part: string; reason: string; uri: string; range: LspRange }[];
  serverId: string;
}

export interface ToolsParams {
  uri: string;
}
export interface ToolsResult {
  tools: ToolSummary[];
  /** The document's prompts and resources (absent from servers that predate them, and where none are registered). */
  prompts?: PromptSummary[];
  resources?: ResourceSummary[];
}
/** Tools defined in one document (open or on disk). */
export const ToolsRequest = new RequestType<ToolsParams, ToolsResult, void>('toolsmith/tools');

/** No parameters; sent as `{}`. */
export type WorkspaceToolsParams = Record<string, never>;
export interface WorkspaceToolsResult {
  tools: ToolSummary[];
}
/** Tools of the whole workspace (from the start-up scan, kept up to date). */
export const WorkspaceToolsRequest = new RequestType<WorkspaceToolsParams, WorkspaceToolsResult, void>('toolsmith/workspaceTools');

/** A server's entry: the file its start command runs (a `bin` script, `dist/index.js`, `pkg/__main__.py`...). */
export interface ServerToolsParams {
  uri: string;
  /**
   * The preview's question "which server publishes this tool": when the server predicted from `uri` does not construct
   * one publishing it (`uri` registers it on a parameter, say), the workspace's files that construct a server are
   * tried as entries, and the first whose prediction holds the tool answers.
   */
  tool?: { uri: string; name: string | null };
}
/** One server a whole-server prediction found, with its whole tools/list. */
export interface PredictedServer {
  /** The name it gives itself, when written literally. */
  name?: string;
  /** The variable (or parameter) its tools are registered on. */
  variable: string;
  framework?: Framework;
  /** Where it is constructed (or, when not `constructed`, where the variable its tools are registered on is declared). */
  uri: string;
  range: LspRange;
  /** False when no module of the entry's graph constructs it (tools registered on a parameter no followed call binds). */
  constructed: boolean;
  /** Its tools in registration order: `uri` of each is the file that registers it. */
  tools: ToolSummary[];
}
export interface ServerToolsResult {
  servers: PredictedServer[];
  /** Imports the prediction could not follow (a computed specifier, a module that is not there): tools they load are missing. */
  unresolved: { reason: string; uri: string; range: LspRange }[];
}
/**
 * The whole server an entry starts, predicted from the source (the analysis behind `toolsmith contract <entry>`):
 * its module graph followed, every registration on the servers it constructs. For the Servers view (a server that is
 * not running) and the preview's whole-list token count.
 */
export const ServerToolsRequest = new RequestType<ServerToolsParams, ServerToolsResult, void>('toolsmith/serverTools');

export interface ToolsChangedParams {
  uri: string;
}
/** Server -> client: the tools of a document changed (after analysis). */
export const ToolsChangedNotification = new NotificationType<ToolsChangedParams>('toolsmith/toolsChanged');

/** Findings (as diagnostics data) for one tool, for the preview. */
export interface ToolFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  uri: string;
  range: LspRange;
  hasFix: boolean;
}

/**
 * `initializationOptions` the server understands. `settings` is the `toolsmith` configuration section;
 * the rest exists for tests and benchmarks.
 */
export interface ToolsmithInitializationOptions {
  settings?: unknown;
  /** Debounce between a document change and its analysis, in ms (default DEFAULT_DIAGNOSTICS_DELAY_MS). */
  diagnosticsDelayMs?: number;
  /** Scan the workspace folders for tool files on start (default true). */
  workspaceScan?: boolean;
  /**
   * VS Code's `workspace.isTrusted` (default false): only then do the analysis workers convert TypeScript SDK 1.x
   * contracts with the workspace's own installed SDK and zod (code from its node_modules); otherwise the bundled copies.
   */
  workspaceTrusted?: boolean;
}

/** Client -> server: the workspace was trusted (VS Code's `onDidGrantWorkspaceTrust`; trust is never revoked without a reload). */
export interface WorkspaceTrustParams {
  trusted: boolean;
}
export const WorkspaceTrustNotification = new NotificationType<WorkspaceTrustParams>('toolsmith/workspaceTrust');
export const DEFAULT_DIAGNOSTICS_DELAY_MS = 150;

/** Arguments of the CodeLens commands `toolsmith.previewContract` and `toolsmith.openPlayground` (one object). */
export interface ToolCommandArgs {
  uri: string;
  /** The tool's name, or null when it is not statically known. */
  toolName: string | null;
}

export interface WorkspaceScannedParams {
  /** Files read by the scan. */
  filesScanned: number;
  /** Files that define at least one tool. */
  toolFiles: number;
  tools: number;
  durationMs: number;
}
/** Server -> client: the workspace scan finished (also sent again after a workspace folder change). */
export const WorkspaceScannedNotification = new NotificationType<WorkspaceScannedParams>('toolsmith/workspaceScanned');

export interface ToolFindingsParams {
  uri: string;
  toolName: string | null;
}
export interface ToolFindingsResult {
  findings: ToolFinding[];
  /** Risk of the tool (server/src/rules/util/risk.ts: the hints written, else what the name and handler say). */
  risk?: RiskAssessment;
}
/** Findings of one tool, for the preview (ToolFinding above). Params: the document and the tool's name. */
export const ToolFindingsRequest = new RequestType<ToolFindingsParams, ToolFindingsResult, void>('toolsmith/toolFindings');

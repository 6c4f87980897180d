/**
 * Custom LSP requests/notifications between the extension client and the Toolsmith language server.
 * The client never analyses code: it asks the server through these.
 */
import type { JsonSchema, Language, Framework } from '../server/src/analysis/model';

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
  /** Number of findings per severity for this tool. */
  findings: { error: number; warning: number; info: number };
}

export interface ToolsParams {
  uri: string;
}
export interface ToolsResult {
  tools: ToolSummary[];
}
/** Tools defined in one document (open or on disk). */
export const ToolsRequest = 'toolsmith/tools';

/** Tools of the whole workspace (from the start-up scan, kept up to date). */
export const WorkspaceToolsRequest = 'toolsmith/workspaceTools';
export interface WorkspaceToolsResult {
  tools: ToolSummary[];
}

/** Server -> client: the tools of a document changed (after analysis). */
export const ToolsChangedNotification = 'toolsmith/toolsChanged';
export interface ToolsChangedParams {
  uri: string;
}

/** Findings (as diagnostics data) for one tool, for the preview. */
export interface ToolFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  uri: string;
  range: LspRange;
  hasFix: boolean;
}

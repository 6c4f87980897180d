/**
 * The messages between the language server's main thread and its analysis worker (lsp/analysisPool.ts posts them,
 * lsp/analysisWorker.ts answers). Plain data: they cross the thread boundary by structured clone.
 */
import type { FileAnalysis } from '../service';
import type { AnalysisResult, ToolDefinition } from '../analysis/model';
import type { Finding } from '../rules/types';
import type { ToolsmithSettings } from '../../../common/settings';

/** workerData.role of an analysis worker: the same bundle (dist/server.js) runs as the server or as its worker. */
export const ANALYSIS_WORKER_ROLE = 'toolsmith-analysis';

/** One open document's version to analyse. */
export interface AnalysisJob {
  uri: string;
  file: string;
  version: number;
  text: string;
  settings: ToolsmithSettings;
  /** Jobs of one generation share one settings object in the worker (incremental.ts reuses a state under the same object only). */
  settingsGeneration: number;
  /** Bumped by the main thread when what the document imports changed: the worker's incremental state is then not reused. */
  epoch: number;
  /**
   * The client trusts the workspace: the worker may load the workspace's own SDK and zod to convert contracts
   * (contract/typescript/libraries.ts). A change of trust comes with a new settings generation (fresh states).
   */
  workspaceTrusted?: boolean;
  /** A closed file's analysis (server.ts convertInWorker): queued behind every open document's job. */
  background?: boolean;
  /**
   * The job whose answer (for this document, from this worker) the main thread holds, split per tool: the worker may
   * answer with an AnalysisDelta from it. Unset: answer in full.
   */
  baseJob?: number;
}

/**
 * A keystroke's result as what changed since the analysis of job `baseJob`: the re-analysed tool and its findings,
 * the file facts and file-level findings; the other tools and their findings are the base's, their offsets at or
 * after `from` moved by `delta` (lsp/offsets.ts). Structured clone of the whole result cost the worker and the main
 * thread ~20 ms a keystroke in a file of 80 tools; this is one tool's worth.
 */
export interface AnalysisDelta {
  baseJob: number;
  /** The re-analysed tool's index, -1 when the text did not change. */
  index: number;
  tool?: ToolDefinition;
  toolFindings?: Finding[];
  from: number;
  delta: number;
  files: AnalysisResult['files'];
  fileFindings: Finding[];
}

/** A message for the log, logged once per key by the main thread. */
export interface JobLog {
  key: string;
  message: string;
}

export type ToWorker =
  | { kind: 'analyze'; id: number; job: AnalysisJob }
  /** The text of an open document other files' analyses read instead of the disk (undefined: closed). */
  | { kind: 'overlay'; file: string; text: string | undefined }
  /** The document was closed: drop its incremental state. */
  | { kind: 'forget'; file: string };

export type FromWorker =
  /** Loaded and warmed up (the front-ends required): from now on a job's time is its own. */
  | { kind: 'ready' }
  /** `perTool`: how many of the findings (in order) belong to each tool, the rest being file-level (then the result can be a delta's base). */
  | { kind: 'done'; id: number; analysis: FileAnalysis; perTool?: number[]; logs: JobLog[]; incremental: boolean }
  | { kind: 'done'; id: number; delta: AnalysisDelta; logs: JobLog[]; incremental: true }
  | { kind: 'failed'; id: number; error: string };

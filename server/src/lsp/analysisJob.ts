/**
 * The messages between the language server's main thread and its analysis worker (lsp/analysisPool.ts posts them,
 * lsp/analysisWorker.ts answers). Plain data: they cross the thread boundary by structured clone.
 */
import type { FileAnalysis } from '../service';
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
  { kind: 'ready' } | { kind: 'done'; id: number; analysis: FileAnalysis; logs: JobLog[]; incremental: boolean } | { kind: 'failed'; id: number; error: string };

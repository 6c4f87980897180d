/**
 * dist/server.js: the language server (server.ts) or, when the same bundle is started as its analysis worker thread
 * (lsp/analysisPool.ts), the worker (lsp/analysisWorker.ts). One bundle: the worker needs the whole analysis, which
 * the server bundle already carries.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { ANALYSIS_WORKER_ROLE } from './lsp/analysisJob';

if (!isMainThread && (workerData as { role?: unknown } | null)?.role === ANALYSIS_WORKER_ROLE) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./lsp/analysisWorker') as typeof import('./lsp/analysisWorker')).serveAnalyses();
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./server');
}

/**
 * The analysis worker: runs the pipeline (service.ts, through the incremental path of incremental.ts) for open
 * documents off the language server's main thread, so a long analysis never holds the requests of other documents.
 * It holds what the analyses need between jobs: the open documents' texts (what an import of an open file reads)
 * and each document's incremental state.
 */
import { parentPort } from 'node:worker_threads';
import { analyzeFile, type FileAnalysis } from '../service';
import { createFileHost } from '../host';
import { analyzeFull, analyzeIncremental, type IncrementalState } from './incremental';
import { errorText } from './log';
import type { AnalysisDelta, AnalysisJob, FromWorker, JobLog, ToWorker } from './analysisJob';
import { DEFAULT_SETTINGS, type ToolsmithSettings } from '../../../common/settings';
import { setWorkspaceTrust } from '../contract/typescript/trust';

/** The open documents' texts and incremental states one worker keeps; `analyze` is one job. */
export class DocumentAnalyzer {
  private readonly overlays = new Map<string, string>();
  /** `answered`: the job whose result was last returned from this state (what the next answer may be a delta of). */
  private readonly states = new Map<string, { state: IncrementalState; epoch: number; answered?: number }>();
  private settings: { generation: number; value: ToolsmithSettings } | undefined;
  private readonly host = createFileHost((file) => this.overlays.get(file));

  setOverlay(file: string, text: string | undefined): void {
    if (text === undefined) this.overlays.delete(file);
    else this.overlays.set(file, text);
  }

  forget(file: string): void {
    this.states.delete(file);
    this.overlays.delete(file);
  }

  /**
   * The document's text through the incremental pipeline (full analysis when the edit does not allow a partial one).
   * Never throws. `id`: the job's, for a later job's `baseJob`; with it, an incremental step from the result of the
   * job `job.baseJob` also comes as a `delta` of it, and a result that can be a base says how its findings split
   * per tool (`perTool`).
   */
  analyze(job: AnalysisJob, id?: number): { analysis: FileAnalysis; logs: JobLog[]; incremental: boolean; perTool?: number[]; delta?: AnalysisDelta } {
    const { file, text } = job;
    const logs: JobLog[] = [];
    const log = (m: string) => logs.push({ key: `${file}\n${m.split('\n')[0]}`, message: m });
    if (this.settings?.generation !== job.settingsGeneration) this.settings = { generation: job.settingsGeneration, value: job.settings };
    const settings = this.settings.value;
    // Workspace code is loaded in this worker thread only, and only for a job of a trusted workspace.
    setWorkspaceTrust(job.workspaceTrusted === true);
    this.overlays.set(file, text);
    const prev = this.states.get(file);
    try {
      const step = prev && prev.epoch === job.epoch ? analyzeIncremental(prev.state, text, this.host, settings, log) : undefined;
      const result = step ?? analyzeFull(file, text, this.host, settings, log);
      this.states.set(file, { state: result.state, epoch: job.epoch, answered: id });
      const { perTool } = result.state;
      if (step && job.baseJob !== undefined && prev?.answered === job.baseJob) {
        const { index, from, delta } = step.change;
        const toolFindings = index >= 0 ? perTool[index] : undefined;
        const fileFindings = result.analysis.findings.slice(perTool.reduce((n, list) => n + list.length, 0));
        const tool = index >= 0 ? result.state.result.tools[index] : undefined;
        return { analysis: result.analysis, logs, incremental: true, delta: { baseJob: job.baseJob, index, tool, toolFindings, from, delta, files: result.state.result.files, fileFindings } };
      }
      return { analysis: result.analysis, logs, incremental: step !== undefined, perTool: perTool.map((list) => list.length) };
    } catch (err) {
      this.states.delete(file);
      logs.push({ key: `incremental:${file}\n${String(err)}`, message: `incremental analysis of ${file} failed, analysing the whole file: ${errorText(err)}` });
      try {
        return { analysis: analyzeFile(file, text, this.host, settings, log), logs, incremental: false };
      } catch (again) {
        logs.push({ key: `${file}\n${String(again)}`, message: `analysis of ${file} failed: ${errorText(again)}` });
        return { analysis: { file, result: { tools: [], files: [] }, findings: [], internalError: errorText(again) }, logs, incremental: false };
      }
    }
  }
}

/**
 * Analysed once when a worker starts, before it says it is ready: the front-ends (the TypeScript compiler is most of
 * the bundle) load then, not inside the first job, whose time budget would pay for them.
 */
const WARM_UP = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "warm-up", version: "1.0.0" });
server.registerTool("warm_up", { description: "Loads the front-end." }, async () => ({ content: [] }));
`;

const WARM_UP_PY = `from mcp.server.fastmcp import FastMCP
mcp = FastMCP("warm-up")
@mcp.tool()
def warm_up() -> str:
    """Loads the front-end."""
    return ""
`;

/** Serves the main thread's jobs, one at a time, in the order posted. */
export function serveAnalyses(): void {
  const port = parentPort;
  if (!port) throw new Error('the analysis worker runs in a worker thread');
  const analyzer = new DocumentAnalyzer();
  analyzeFile('/toolsmith-warm-up/server.ts', WARM_UP, createFileHost(), DEFAULT_SETTINGS);
  analyzeFile('/toolsmith-warm-up/server.py', WARM_UP_PY, createFileHost(), DEFAULT_SETTINGS);
  port.postMessage({ kind: 'ready' } satisfies FromWorker);
  port.on('message', (message: ToWorker) => {
    if (message.kind === 'overlay') analyzer.setOverlay(message.file, message.text);
    else if (message.kind === 'forget') analyzer.forget(message.file);
    else {
      let reply: FromWorker;
      try {
        const { analysis, logs, incremental, perTool, delta } = analyzer.analyze(message.job, message.id);
        // A keystroke's answer is what changed (one tool's worth to clone), not the whole result.
        reply = delta ? { kind: 'done', id: message.id, delta, logs, incremental: true } : { kind: 'done', id: message.id, analysis, perTool, logs, incremental };
        port.postMessage(reply);
      } catch (err) {
        // A result that cannot be cloned (a bug of ours) is reported, never left unanswered.
        reply = { kind: 'failed', id: message.id, error: errorText(err) };
        port.postMessage(reply);
      }
    }
  });
}

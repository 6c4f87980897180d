/**
 * LSP wiring only: documents, diagnostics, code actions, hover, code lens, custom requests. The analysis lives in
 * analysis/, contract/ and rules/; the LSP pieces live in lsp/ (scheduler, index, actions, hover, lenses).
 */
import {
  TextDocuments,
  TextDocumentSyncKind,
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  CodeLensRefreshRequest,
  DiagnosticSeverity,
  type CancellationToken,
  type Diagnostic,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Worker } from 'node:worker_threads';
import { analyzeFile, type FileAnalysis } from './service';
import { createFileHost } from './host';
import { MAX_SOURCE_BYTES, formatBytes } from './sourceFile';
import { sourceKindOf } from './analysis/analyze';
import { DEFAULT_SETTINGS, normalizeSettings, type ToolsmithSettings } from '../../common/settings';
import { mayDefineTools } from '../../common/frameworks';
import {
  DEFAULT_DIAGNOSTICS_DELAY_MS,
  ToolFindingsRequest,
  ToolsChangedNotification,
  ToolsRequest,
  WorkspaceScannedNotification,
  WorkspaceToolsRequest,
  ServerToolsRequest,
  type ServerToolsResult,
  WorkspaceTrustNotification,
  type ToolsmithInitializationOptions,
  type WorkspaceScannedParams,
} from '../../common/protocol';
import { DiagnosticsScheduler } from './lsp/scheduler';
import { SpanMapper } from './lsp/spans';
import { toDiagnostic } from './lsp/diagnostics';
import { codeActions, FIX_ALL_KIND } from './lsp/codeActions';
import { hoverAt } from './lsp/hover';
import { codeLenses } from './lsp/codeLens';
import { LensSync, lensKey } from './lsp/lensSync';
import { surfaceSummaries, toolSummaries } from './lsp/summaries';
import { ServerToolsCache } from './lsp/serverTools';
import { WorkspaceIndex, scanFolders } from './lsp/workspaceIndex';
import { fileToUri, forgetDocumentFile, registerDocumentFile, uriToFile } from './lsp/paths';
import { OnceLogger, errorText } from './lsp/log';
import { createGuardedConnection } from './lsp/frameGuard';
import { OpenDocuments, type DocumentAnalysis, type OpenDocument } from './lsp/openDocuments';
import { AnalysisPool, DEFAULT_TIME_BUDGET_SECONDS, timeBudgetMsOf, type AnalysisOutcome } from './lsp/analysisPool';
import { ANALYSIS_WORKER_ROLE, type AnalysisJob } from './lsp/analysisJob';
import { toolFindings } from './lsp/toolFindings';
import { convertedOnMainThread } from './contract/typescript/libraries';
import { setTrustedElsewhere } from './contract/typescript/trust';

const connection = createGuardedConnection();
const documents = new TextDocuments(TextDocument);
const logger = new OnceLogger((m) => connection.console.error(m));

/** Server-wide state: what initialize told us, the settings in force, the workspace scans. */
interface ServerState {
  settings: ToolsmithSettings;
  /** Bumped on every settings change so cached analyses made under the old settings are not reused. */
  settingsGeneration: number;
  /** The client trusts the workspace (VS Code's `workspace.isTrusted`): the analysis workers may load its SDK and zod; the main thread never does. */
  workspaceTrusted: boolean;
  /** How long one analysis of an open document may run (toolsmith.analysis.timeBudgetSeconds). */
  timeBudgetMs: number;
  workspaceScan: boolean;
  workspaceFolders: string[];
  shuttingDown: boolean;
  capabilities: { pullConfiguration: boolean; registerConfiguration: boolean; registerWatchers: boolean; workspaceFolders: boolean; codeLensRefresh: boolean };
  /** The scans started so far, chained (toolsmith/workspaceTools waits for them). */
  scanDone: Promise<void>;
}
const server: ServerState = {
  settings: DEFAULT_SETTINGS,
  settingsGeneration: 0,
  workspaceTrusted: false,
  timeBudgetMs: DEFAULT_TIME_BUDGET_SECONDS * 1000,
  workspaceScan: true,
  workspaceFolders: [],
  shuttingDown: false,
  capabilities: { pullConfiguration: false, registerConfiguration: false, registerWatchers: false, workspaceFolders: false, codeLensRefresh: false },
  scanDone: Promise.resolve(),
};

const openDocuments = new OpenDocuments();
const host = createFileHost((file) => openDocuments.ofFile(file)?.document.getText());
const index = new WorkspaceIndex();

/** Each file's tools as last notified (name, contract, unresolved count), open or not, to tell the client when they changed. */
const notifiedTools = new Map<string, ToolKey[]>();

const EXTENSION_BY_LANGUAGE: Record<string, string> = { python: '.py', typescript: '.ts', typescriptreact: '.tsx', javascript: '.js', javascriptreact: '.jsx' };

/** The file name a document is analysed under (its path, or a synthetic name for an untitled document). */
function fileOfDocument(doc: TextDocument): string | undefined {
  const file = uriToFile(doc.uri);
  if (sourceKindOf(file)) return file;
  const ext = EXTENSION_BY_LANGUAGE[doc.languageId];
  if (!ext || doc.uri.startsWith('file:')) return undefined;
  const synthetic = `${doc.uri}${ext}`;
  registerDocumentFile(synthetic, doc.uri);
  return synthetic;
}

const EMPTY_ANALYSIS = (file: string): FileAnalysis => ({ file, result: { tools: [], files: [] }, findings: [] });

/** The one pipeline, guarded: the server never dies on user code, and logs each failure once. */
function analyze(file: string, text: string): FileAnalysis {
  try {
    return analyzeFile(file, text, host, server.settings, (m) => logger.once(`${file}\n${m.split('\n')[0]}`, m));
  } catch (err) {
    logger.once(`${file}\n${String(err)}`, `analysis of ${file} failed: ${errorText(err)}`);
    return EMPTY_ANALYSIS(file);
  }
}

/**
 * Open documents are analysed by the analysis workers (lsp/analysisPool.ts), off this thread: a long analysis holds
 * nothing but its own document. The worker is this same bundle, started with the worker role (main.ts).
 */
const pool = new AnalysisPool({
  spawn: () => {
    const worker = new Worker(__filename, { workerData: { role: ANALYSIS_WORKER_ROLE }, stdout: true, stderr: true });
    // stdout is the LSP channel: what a worker prints goes to the log instead.
    worker.stdout.on('data', (d: Buffer) => connection.console.log(`analysis worker: ${d.toString().trimEnd()}`));
    worker.stderr.on('data', (d: Buffer) => connection.console.log(`analysis worker: ${d.toString().trimEnd()}`));
    return worker;
  },
  budgetMs: () => server.timeBudgetMs,
  overlays: function* () {
    for (const doc of documents.all()) {
      const file = openDocuments.get(doc.uri)?.file;
      if (file) yield [file, doc.getText()];
    }
  },
  log: (m) => connection.console.log(m),
});

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The one diagnostic of a version the worker gave up on. */
function abandonedMessage(outcome: Extract<AnalysisOutcome, { kind: 'over-budget' | 'crashed' }>): string {
  if (outcome.kind === 'crashed') return `Toolsmith: analysis stopped: ${outcome.reason}. Other documents are still analysed; the next edit tries again.`;
  return `Toolsmith: analysis stopped after ${seconds(outcome.ms)}: this file took longer than the time budget for one analysis (${seconds(outcome.budgetMs)}; generated or unusually large code?), so other documents are served first. Raise "toolsmith.analysis.timeBudgetSeconds" to analyse it.`;
}

let nextJobId = 1;

/**
 * The analysis of a document's current version: the cached one, the job in flight for it, or a new job.
 * Undefined when the job was superseded (a newer version or a close) before it finished.
 */
function analysisOf(doc: TextDocument): Promise<DocumentAnalysis | undefined> {
  const open = openDocuments.get(doc.uri);
  const file = open?.file;
  if (!open || !file) return Promise.resolve(undefined);
  const cached = open.analysis;
  const generation = server.settingsGeneration;
  if (cached && cached.version === doc.version && cached.settingsGeneration === generation && cached.epoch === open.epoch) return Promise.resolve(cached);
  const pending = open.pending;
  if (pending && pending.version === doc.version && pending.settingsGeneration === generation && pending.epoch === open.epoch) return pending.promise;
  const text = doc.getText();
  const base = { uri: doc.uri, file, version: doc.version, text, settingsGeneration: generation, epoch: open.epoch };
  // The size budget: an open document larger than the file host reads (a bundle, generated code) is not analysed;
  // a 4 MB single line held every request of every document for ~30 s (test/protocol/budget.test.ts).
  const bytes = text.length > MAX_SOURCE_BYTES / 4 ? Buffer.byteLength(text, 'utf8') : text.length;
  if (bytes > MAX_SOURCE_BYTES) {
    logger.once(`too-large:${file}:${formatBytes(bytes)}`, `${file} not analysed: ${formatBytes(bytes)} is over the ${formatBytes(MAX_SOURCE_BYTES)} limit`);
    const skipped = `Toolsmith: not analysed: ${formatBytes(bytes)} is over the ${formatBytes(MAX_SOURCE_BYTES)} limit for one file (a bundle or generated code, not a tool definition).`;
    pool.cancel(doc.uri);
    pool.forget(file);
    return Promise.resolve(record(open, { ...base, analysis: EMPTY_ANALYSIS(file), skipped }));
  }
  const job: AnalysisJob = { ...base, settings: server.settings, workspaceTrusted: server.workspaceTrusted };
  const id = nextJobId++;
  const promise = pool.analyze(job).then((outcome) => {
    if (open.pending?.id === id) open.pending = undefined;
    if (openDocuments.get(open.uri) !== open || outcome.kind === 'cancelled') return undefined;
    if (outcome.kind === 'done') {
      for (const l of outcome.logs) logger.once(l.key, l.message);
      return record(open, { ...base, analysis: outcome.analysis });
    }
    logger.once(
      `abandoned:${file}:${outcome.kind}`,
      `${file} (version ${job.version}): ${outcome.kind === 'crashed' ? outcome.reason : `analysis stopped after ${seconds(outcome.ms)} (time budget ${seconds(outcome.budgetMs)})`}`,
    );
    return record(open, { ...base, analysis: EMPTY_ANALYSIS(file), skipped: abandonedMessage(outcome) });
  });
  open.pending = { id, version: job.version, settingsGeneration: generation, epoch: open.epoch, promise };
  return promise;
}

/** Keeps a finished analysis as the document's last one (unless a newer one finished first) and in the index. */
function record(open: OpenDocument, entry: DocumentAnalysis): DocumentAnalysis {
  const last = open.analysis;
  if (!last || last.version < entry.version || (last.version === entry.version && (last.settingsGeneration < entry.settingsGeneration || last.epoch <= entry.epoch))) {
    open.analysis = entry;
    index.set({ file: entry.file, uri: entry.uri, text: entry.text, analysis: entry.analysis, open: true });
  }
  return entry;
}

/** How long a request waits for the current version's analysis before it answers from the last one. */
const STALE_ANSWER_AFTER_MS = 300;

/**
 * What hover, code lens and code actions answer from: the current version's analysis when it is there (or comes
 * within STALE_ANSWER_AFTER_MS), else the last one, so a long analysis never holds them. Waits only when there is
 * no earlier analysis at all (a document just opened).
 */
async function answeringAnalysis(doc: TextDocument): Promise<DocumentAnalysis | undefined> {
  const current = analysisOf(doc);
  const last = () => openDocuments.get(doc.uri)?.analysis;
  if (!last()) return (await current) ?? last();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), STALE_ANSWER_AFTER_MS)));
  try {
    return (await Promise.race([current, late])) ?? last();
  } finally {
    clearTimeout(timer);
  }
}

/** Whole servers predicted from their entries (`toolsmith/serverTools`), until a workspace file changes. */
const serverTools = new ServerToolsCache(host, () => server.settings);

function mapperFor(file: string, text: string): SpanMapper {
  return new SpanMapper((f) => host.readFile(f), new Map([[file, text]]));
}

/** Asks the editor to request code lenses again, when it supports that. */
function refreshCodeLenses(): void {
  if (server.capabilities.codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
}

/** Refreshes the editor's lenses only when its last answer differs from the analysis (see lsp/lensSync.ts). */
const lensSync = new LensSync(() => {
  connection.console.log('code lenses: the editor has not asked for the current lenses since the last analysis; asking it to refresh');
  refreshCodeLenses();
});

interface ToolKey {
  name: string | undefined;
  contract: unknown;
  unresolved: number;
}

/**
 * A contract's JSON text, computed once per contract object: the incremental path keeps the untouched tools'
 * contract objects from one keystroke to the next (and never mutates them), so typing serialises only the edited one.
 */
const contractTexts = new WeakMap<object, string>();
function contractText(contract: unknown): string {
  if (!contract || typeof contract !== 'object') return JSON.stringify(contract ?? null);
  let text = contractTexts.get(contract);
  if (text === undefined) contractTexts.set(contract, (text = JSON.stringify(contract)));
  return text;
}

function sameTools(a: readonly ToolKey[], b: readonly ToolKey[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.name !== y.name || x.unresolved !== y.unresolved) return false;
    if (x.contract !== y.contract && contractText(x.contract) !== contractText(y.contract)) return false;
  }
  return true;
}

function notifyToolsChanged(uri: string, analysis: FileAnalysis): void {
  const tools = analysis.result.tools.map((t): ToolKey => ({ name: t.name.value, contract: t.contract, unresolved: t.unresolved.length }));
  if (sameTools(notifiedTools.get(uri) ?? [], tools)) return;
  if (tools.length) notifiedTools.set(uri, tools);
  else notifiedTools.delete(uri);
  void connection.sendNotification(ToolsChangedNotification, { uri });
}

/**
 * Diagnostics each analysed file contributes to each file: a finding may sit in an imported schema file, where the
 * fix has to be made, so a file's diagnostics are the union of its own findings and those its importers put there.
 * target uri -> source file -> diagnostics.
 */
const contributions = new Map<string, Map<string, Diagnostic[]>>();
/** Closed files last published with a non-empty list (an empty list is sent once to clear them). */
const diskPublished = new Set<string>();

/** While set, publishes are collected and sent once at the end (a file and its importers re-analysed together). */
let batched: Set<string> | undefined;

function inBatch(fn: () => void): void {
  const outer = batched;
  const mine = outer ?? new Set<string>();
  batched = mine;
  try {
    fn();
  } finally {
    batched = outer;
    if (!outer) for (const uri of mine) publish(uri);
  }
}

function publish(uri: string): void {
  if (batched) {
    batched.add(uri);
    return;
  }
  const diagnostics = [...(contributions.get(uri)?.values() ?? [])].flat();
  const doc = documents.get(uri);
  if (doc) {
    const own = openDocuments.get(uri)?.analysis;
    const version = own && own.version === doc.version ? doc.version : undefined;
    void connection.sendDiagnostics({ uri, version, diagnostics });
    return;
  }
  if (!diagnostics.length && !diskPublished.has(uri)) return;
  void connection.sendDiagnostics({ uri, diagnostics });
  if (diagnostics.length) diskPublished.add(uri);
  else diskPublished.delete(uri);
}

/** Records what `source` contributes now (replacing what it contributed before) and republishes the affected files. */
function contribute(source: string, findings: FileAnalysis['findings'], mapper: SpanMapper, own: Diagnostic[] = []): void {
  const byTarget = new Map<string, Diagnostic[]>([[fileToUri(source), own]]);
  for (const f of findings) {
    const uri = fileToUri(f.span.file);
    byTarget.set(uri, [...(byTarget.get(uri) ?? []), toDiagnostic(f, mapper)]);
  }
  const affected = new Set(byTarget.keys());
  for (const [target, sources] of contributions) {
    if (!byTarget.has(target) && sources.delete(source)) affected.add(target);
  }
  for (const [target, diagnostics] of byTarget) {
    let sources = contributions.get(target);
    if (!sources) contributions.set(target, (sources = new Map<string, Diagnostic[]>()));
    sources.set(source, diagnostics);
  }
  // The source's own file first: its versioned publish is what the editor waits for.
  const ownUri = fileToUri(source);
  publish(ownUri);
  for (const uri of affected) if (uri !== ownUri) publish(uri);
}

function withdraw(source: string): void {
  for (const [target, sources] of contributions) if (sources.delete(source)) publish(target);
}

function publishDocument(entry: DocumentAnalysis): void {
  const mapper = mapperFor(entry.file, entry.text);
  const own = entry.skipped
    ? [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Information, source: 'toolsmith', message: entry.skipped }]
    : [];
  contribute(entry.file, entry.analysis.findings, mapper, own);
  notifyToolsChanged(entry.uri, entry.analysis);
  lensSync.analysed(entry.uri, lensKey(codeLenses(entry.analysis, entry.file, entry.uri, mapper)));
}

/** Analyses a closed file from disk, updates the index and publishes (or clears) its diagnostics. */
function analyzeDisk(file: string, text = host.readFile(file)): FileAnalysis | undefined {
  if (openDocuments.ofFile(file)) return undefined;
  const uri = fileToUri(file);
  if (text === undefined) {
    index.delete(file);
    withdraw(file);
    return undefined;
  }
  const analysis = analyze(file, text);
  index.set({ file, uri, text, analysis, open: false });
  contribute(file, analysis.findings, mapperFor(file, text));
  notifyToolsChanged(uri, analysis);
  convertInWorker(file, uri, text, analysis);
  return analysis;
}

/** Per closed file, the text a worker was last asked to convert (an answer for an older text is dropped). */
const closedInWorker = new Map<string, string>();
let closedJobVersion = 0;

/**
 * A closed file of a trusted workspace that this thread converted with the bundled copies (it never loads workspace
 * code) while the workspace has other releases: an analysis worker analyses it again with the workspace's copies,
 * queued behind every open document's job, and its answer replaces this one. A job stopped by the time budget or a
 * crash is tried once more (the first job of a worker also loads the copies); after that the bundled answer stays.
 */
function convertInWorker(file: string, uri: string, text: string, analysis: FileAnalysis, attempt = 1): void {
  if (!server.workspaceTrusted || !analysis.result.files.some((f) => convertedOnMainThread(f.converters))) return;
  closedInWorker.set(file, text);
  // Its own job key: an open document's versions never supersede it, nor it them.
  const job: AnalysisJob = {
    uri: `${uri}#closed`,
    file,
    version: ++closedJobVersion,
    text,
    settings: server.settings,
    settingsGeneration: server.settingsGeneration,
    epoch: 0,
    workspaceTrusted: true,
    background: true,
  };
  void pool.analyze(job).then((outcome) => {
    // A closed file keeps no state in the workers.
    if (!openDocuments.ofFile(file)) pool.forget(file);
    if (closedInWorker.get(file) !== text || openDocuments.ofFile(file) || index.get(file)?.text !== text) return;
    if (outcome.kind === 'over-budget' || outcome.kind === 'crashed') {
      const why = outcome.kind === 'crashed' ? outcome.reason : `stopped after ${seconds(outcome.ms)} (time budget ${seconds(outcome.budgetMs)})`;
      if (attempt === 1) return convertInWorker(file, uri, text, analysis, 2);
      logger.once(`closed-worker:${file}`, `${file}: converting it with the workspace's copies in an analysis worker failed twice (${why}); it keeps the bundled copies' contract until it changes`);
    }
    closedInWorker.delete(file);
    if (outcome.kind !== 'done') return;
    for (const l of outcome.logs) logger.once(l.key, l.message);
    index.set({ file, uri, text, analysis: outcome.analysis, open: false });
    contribute(file, outcome.analysis.findings, mapperFor(file, text));
    notifyToolsChanged(uri, outcome.analysis);
  });
}

/** Re-analyses everything that imports `file` (open documents through the scheduler, closed files from disk). */
function reanalyzeDependents(file: string): void {
  for (const dependent of index.dependentsOf(file)) {
    const open = openDocuments.ofFile(dependent);
    if (open) {
      open.epoch++; // what it imports changed: every tool may differ
      scheduler.schedule(open.uri, 0);
    } else {
      analyzeDisk(dependent);
    }
  }
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One scheduled run: analyse the current version, publish only if no newer version arrived meanwhile. */
async function analyzeAndPublish(uri: string, token: CancellationToken): Promise<void> {
  await yieldTurn();
  const doc = documents.get(uri);
  if (!doc || token.isCancellationRequested) return;
  const version = doc.version;
  // A newer version (or settings, or imports) cancels this run: its job is abandoned in the pool too.
  let cancelled!: () => void;
  const onCancel = new Promise<undefined>((resolve) => (cancelled = () => resolve(undefined)));
  const subscription = token.onCancellationRequested(() => {
    pool.cancel(uri, version);
    cancelled();
  });
  let entry: DocumentAnalysis | undefined;
  try {
    entry = await Promise.race([analysisOf(doc), onCancel]);
  } finally {
    subscription.dispose();
  }
  if (!entry || token.isCancellationRequested) return;
  // Let queued didChange notifications in: a newer version supersedes this one and publishes itself.
  await yieldTurn();
  if (token.isCancellationRequested || documents.get(uri)?.version !== version) return;
  publishDocument(entry);
  const open = openDocuments.get(uri);
  if (open && open.propagatedText !== entry.text) {
    const first = open.propagatedText === undefined;
    open.propagatedText = entry.text;
    // On open the dependents already saw this text on disk (or in the scan); after an edit they must be redone.
    if (!first) reanalyzeDependents(entry.file);
  }
}

const scheduler = new DiagnosticsScheduler(DEFAULT_DIAGNOSTICS_DELAY_MS, analyzeAndPublish, (uri, err) => logger.once(`run:${uri}:${String(err)}`, `diagnostics for ${uri} failed: ${errorText(err)}`));

// ---- workspace scan ----

async function scanWorkspace(folders: string[]): Promise<void> {
  const started = Date.now();
  let toolFiles = 0;
  let tools = 0;
  const { filesScanned } = await scanFolders(folders, {
    cancelled: () => server.shuttingDown,
    visit(file, text) {
      if (openDocuments.ofFile(file)) return;
      const analysis = analyzeDisk(file, text);
      if (analysis?.result.tools.length) {
        toolFiles++;
        tools += analysis.result.tools.length;
      }
    },
  });
  const params: WorkspaceScannedParams = { filesScanned, toolFiles, tools, durationMs: Date.now() - started };
  connection.console.log(`workspace scan: ${filesScanned} files read, ${toolFiles} define tools (${tools} tools), ${params.durationMs} ms`);
  void connection.sendNotification(WorkspaceScannedNotification, params);
}

function startScan(folders: string[]): void {
  if (!server.workspaceScan || folders.length === 0) return;
  const previous = server.scanDone;
  server.scanDone = previous.then(() => scanWorkspace(folders)).catch((err) => logger.once(`scan:${String(err)}`, `workspace scan failed: ${errorText(err)}`));
}

// ---- settings ----

async function applySettings(pushed: unknown): Promise<void> {
  if (server.capabilities.pullConfiguration) {
    try {
      const pulled: unknown = await connection.workspace.getConfiguration('toolsmith');
      server.settings = normalizeSettings(pulled);
      server.timeBudgetMs = timeBudgetMsOf(pulled);
    } catch (err) {
      logger.once(`config:${String(err)}`, `could not read the toolsmith settings: ${errorText(err)}`);
      if (pushed !== undefined) server.settings = normalizeSettings(pushed);
      if (pushed !== undefined) server.timeBudgetMs = timeBudgetMsOf(pushed);
    }
  } else if (pushed !== undefined) {
    server.settings = normalizeSettings(pushed);
    server.timeBudgetMs = timeBudgetMsOf(pushed);
  }
  server.settingsGeneration++;
  serverTools.invalidate();
  for (const doc of documents.all()) scheduler.schedule(doc.uri, 0);
  for (const entry of index.all()) if (!entry.open) analyzeDisk(entry.file);
}

// ---- LSP handlers ----

connection.onInitialize((params): InitializeResult => {
  const init = (params.initializationOptions ?? {}) as ToolsmithInitializationOptions;
  if (init.settings) server.settings = normalizeSettings(init.settings);
  if (init.settings) server.timeBudgetMs = timeBudgetMsOf(init.settings);
  if (typeof init.diagnosticsDelayMs === 'number' && Number.isFinite(init.diagnosticsDelayMs)) scheduler.delayMs = Math.max(0, init.diagnosticsDelayMs);
  if (init.workspaceScan === false) server.workspaceScan = false;
  server.workspaceTrusted = init.workspaceTrusted === true;
  setTrustedElsewhere(server.workspaceTrusted);
  const c = params.capabilities;
  server.capabilities = {
    pullConfiguration: !!c.workspace?.configuration,
    registerConfiguration: !!c.workspace?.didChangeConfiguration?.dynamicRegistration,
    registerWatchers: !!c.workspace?.didChangeWatchedFiles?.dynamicRegistration,
    workspaceFolders: !!c.workspace?.workspaceFolders,
    codeLensRefresh: !!c.workspace?.codeLens?.refreshSupport,
  };
  if (params.workspaceFolders?.length) server.workspaceFolders = params.workspaceFolders.map((f) => uriToFile(f.uri));
  else if (params.rootUri) server.workspaceFolders = [uriToFile(params.rootUri)];
  else if (params.rootPath) server.workspaceFolders = [params.rootPath];
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      codeLensProvider: { resolveProvider: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'toolsmith-language-server', version: '0.1.0' },
  };
});

connection.onInitialized(() => {
  pool.warm();
  if (server.capabilities.registerConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'toolsmith' });
  if (server.capabilities.registerWatchers) {
    void connection.client.register(DidChangeWatchedFilesNotification.type, {
      watchers: [{ globPattern: '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py}' }],
    });
  }
  if (server.capabilities.workspaceFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      for (const removed of e.removed) {
        const root = uriToFile(removed.uri);
        for (const entry of index.all()) {
          if (entry.open || !entry.file.startsWith(root)) continue;
          index.delete(entry.file);
          withdraw(entry.file);
        }
      }
      startScan(e.added.map((f) => uriToFile(f.uri)));
    });
  }
  // Pull the settings first so the scan's diagnostics already honour them.
  const ready = server.capabilities.pullConfiguration ? applySettings(undefined) : Promise.resolve();
  void ready.then(() => startScan(server.workspaceFolders));
});

connection.onShutdown(() => {
  server.shuttingDown = true;
  pool.dispose();
  lensSync.dispose();
});

connection.onNotification(WorkspaceTrustNotification, (params) => {
  const trusted = params?.trusted === true;
  if (trusted === server.workspaceTrusted) return;
  server.workspaceTrusted = trusted;
  setTrustedElsewhere(trusted);
  // As a settings change: analyses made under the other trust are not reused, open documents are analysed again.
  server.settingsGeneration++;
  serverTools.invalidate();
  for (const doc of documents.all()) scheduler.schedule(doc.uri, 0);
  // And the closed files converted with copies of the SDK and schema libraries (the others do not depend on trust).
  for (const entry of index.all()) if (!entry.open && entry.analysis.result.files.some((f) => f.converters)) analyzeDisk(entry.file);
});

connection.onDidChangeConfiguration((change) => {
  const pushed = (change.settings as { toolsmith?: unknown } | null | undefined)?.toolsmith;
  void applySettings(pushed);
});

connection.onDidChangeWatchedFiles((params) =>
  inBatch(() => {
    serverTools.invalidate();
    for (const change of params.changes) {
      const file = uriToFile(change.uri);
      if (!sourceKindOf(file) || openDocuments.ofFile(file)) continue;
      if (change.type === FileChangeType.Deleted) analyzeDisk(file, undefined);
      else if (index.get(file) || change.type === FileChangeType.Created || index.dependentsOf(file).length) analyzeDisk(file);
      else {
        // A changed file the scan skipped may now define tools.
        const text = host.readFile(file);
        if (text !== undefined && mayDefineTools(text)) analyzeDisk(file, text);
      }
      reanalyzeDependents(file);
    }
  }),
);

documents.onDidOpen((e) => {
  openDocuments.open(e.document, fileOfDocument(e.document));
});
documents.onDidChangeContent((e) => {
  serverTools.invalidate();
  const open = openDocuments.get(e.document.uri);
  if (!open?.file) return;
  open.document = e.document;
  const first = open.firstContentPending;
  open.firstContentPending = false;
  scheduler.schedule(e.document.uri, first ? 0 : undefined);
});
documents.onDidClose((e) => {
  serverTools.invalidate();
  const uri = e.document.uri;
  const file = openDocuments.close(uri)?.file;
  lensSync.closed(uri);
  scheduler.cancel(uri);
  pool.cancel(uri);
  if (file) pool.forget(file);
  notifiedTools.delete(uri);
  if (!file) return;
  if (!uri.startsWith('file:')) {
    index.delete(file);
    withdraw(file);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
    forgetDocumentFile(file);
    return;
  }
  // Back to the disk content: the file keeps its workspace diagnostics (or they are cleared), dependents see the saved text.
  diskPublished.add(uri);
  inBatch(() => {
    if (!analyzeDisk(file)) publish(uri);
    reanalyzeDependents(file);
  });
});

/** The current version's analysis for requests that want it exact (the tools and findings the preview shows). */
async function currentAnalysis(doc: TextDocument): Promise<DocumentAnalysis | undefined> {
  return (await analysisOf(doc)) ?? openDocuments.get(doc.uri)?.analysis;
}

connection.onRequest(ToolsRequest, async (params) => {
  try {
    const doc = documents.get(params.uri);
    if (doc) {
      const entry = await currentAnalysis(doc);
      if (!entry) return { tools: [] };
      const mapper = mapperFor(entry.file, entry.text);
      return { tools: toolSummaries(entry.analysis, doc.uri, mapper), ...surfaceSummaries(entry.analysis, doc.uri, mapper) };
    }
    const file = uriToFile(params.uri);
    if (!sourceKindOf(file)) return { tools: [] };
    const indexed = index.get(file);
    const text = indexed?.text ?? host.readFile(file);
    if (text === undefined) return { tools: [] };
    const analysis = indexed?.analysis ?? analyze(file, text);
    const mapper = mapperFor(file, text);
    return { tools: toolSummaries(analysis, params.uri, mapper), ...surfaceSummaries(analysis, params.uri, mapper) };
  } catch (err) {
    logger.once(`tools:${String(err)}`, `toolsmith/tools failed for ${params.uri}: ${errorText(err)}`);
    return { tools: [] };
  }
});

// Preview: the findings of one tool (same document lookup as toolsmith/tools).
connection.onRequest(ToolFindingsRequest, async (params) => {
  try {
    const doc = documents.get(params.uri);
    const entry = doc ? await currentAnalysis(doc) : undefined;
    const file = entry?.file ?? uriToFile(params.uri);
    const text = entry?.text ?? index.get(file)?.text ?? host.readFile(file);
    if (text === undefined || !sourceKindOf(file)) return { findings: [] };
    const analysis = entry?.analysis ?? index.get(file)?.analysis ?? analyze(file, text);
    return toolFindings(analysis, params.toolName, mapperFor(file, text));
  } catch (err) {
    logger.once(`toolFindings:${String(err)}`, `toolsmith/toolFindings failed for ${params.uri}: ${errorText(err)}`);
    return { findings: [] };
  }
});

connection.onRequest(WorkspaceToolsRequest, async () => {
  await server.scanDone;
  const tools = [];
  for (const entry of index.all()) {
    if (entry.analysis.result.tools.length === 0) continue;
    const doc = entry.open ? documents.get(entry.uri) : undefined;
    const current = doc ? await currentAnalysis(doc) : undefined;
    const analysis = current?.analysis ?? entry.analysis;
    const text = current?.text ?? entry.text;
    tools.push(...toolSummaries(analysis, entry.uri, mapperFor(entry.file, text)));
  }
  return { tools };
});

// The whole server an entry starts: the Servers view (a server that is not running) and the preview's whole-list cost.
connection.onRequest(ServerToolsRequest, async (params) => {
  try {
    const file = uriToFile(params.uri);
    if (!sourceKindOf(file)) return { servers: [], unresolved: [] };
    const direct = serverTools.get(file);
    const wanted = params.tool;
    if (!wanted) return direct;
    const holds = (r: ServerToolsResult) => r.servers.some((s) => s.constructed && s.tools.some((t) => t.uri === wanted.uri && t.name === (wanted.name ?? undefined)));
    if (holds(direct)) return direct;
    // The files that construct a server, as entries: the first whose whole server publishes the tool.
    await server.scanDone;
    for (const e of index.all()) {
      if (e.file === file || !e.analysis.result.files.some((f) => f.file === e.file && f.servers.length > 0)) continue;
      const r = serverTools.get(e.file);
      if (holds(r)) return r;
    }
    return direct;
  } catch (err) {
    logger.once(`serverTools:${String(err)}`, `toolsmith/serverTools failed for ${params.uri}: ${errorText(err)}`);
    return { servers: [], unresolved: [] };
  }
});

connection.onHover(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  const entry = doc && (await answeringAnalysis(doc));
  if (!entry) return null;
  return hoverAt(entry.analysis, entry.file, params.position, mapperFor(entry.file, entry.text));
});

// Answered from the current text, analysed now if the scheduled analysis has not run yet (analysisOf): the very
// first request, sent right after didOpen, gets the lenses. While a long analysis runs, the last lenses answer.
connection.onCodeLens(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  const entry = doc && (await answeringAnalysis(doc));
  if (!entry) return [];
  const lenses = codeLenses(entry.analysis, entry.file, entry.uri, mapperFor(entry.file, entry.text));
  lensSync.answered(entry.uri, lensKey(lenses));
  return lenses;
});

connection.onCodeAction(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  const entry = doc && (await answeringAnalysis(doc));
  // An earlier version's fixes would edit text that has moved since: none until the current one is analysed.
  if (!entry || entry.version !== documents.get(params.textDocument.uri)?.version) return [];
  // Findings in this file: its own, and those of files importing it (a schema file shows its importers' findings).
  const foreign = index.all().flatMap((e) => (e.file === entry.file ? [] : e.analysis.findings.filter((f) => f.span.file === entry.file)));
  return codeActions(params, [...entry.analysis.findings, ...foreign], entry.file, mapperFor(entry.file, entry.text));
});

// A bug of ours must not take the editor's diagnostics down: log it once and keep serving.
process.on('uncaughtException', (err) => logger.once(`uncaught:${String(err)}`, `internal error: ${errorText(err)}`));
process.on('unhandledRejection', (err) => logger.once(`rejection:${String(err)}`, `internal error: ${errorText(err)}`));

documents.listen(connection);
connection.listen();

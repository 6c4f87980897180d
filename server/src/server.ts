/**
 * LSP wiring only: documents, diagnostics, code actions, hover, code lens, custom requests. The analysis lives in
 * analysis/, contract/ and rules/; the LSP pieces live in lsp/ (scheduler, index, actions, hover, lenses).
 */
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  CodeLensRefreshRequest,
  type CancellationToken,
  type Diagnostic,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { analyzeFile, type FileAnalysis } from './service';
import { createFileHost } from './host';
import { sourceKindOf } from './analysis/analyze';
import { DEFAULT_SETTINGS, normalizeSettings, type ToolsmithSettings } from '../../common/settings';
import {
  DEFAULT_DIAGNOSTICS_DELAY_MS,
  ToolsChangedNotification,
  ToolsRequest,
  WorkspaceScannedNotification,
  WorkspaceToolsRequest,
  type ToolsmithInitializationOptions,
  type ToolsParams,
  type ToolsResult,
  type WorkspaceScannedParams,
  type WorkspaceToolsResult,
} from '../../common/protocol';
import { DiagnosticsScheduler } from './lsp/scheduler';
import { SpanMapper } from './lsp/spans';
import { toDiagnostic } from './lsp/diagnostics';
import { codeActions, FIX_ALL_KIND } from './lsp/codeActions';
import { hoverAt } from './lsp/hover';
import { codeLenses } from './lsp/codeLens';
import { LensSync, lensKey } from './lsp/lensSync';
import { toolSummaries } from './lsp/summaries';
import { WorkspaceIndex, scanFolders } from './lsp/workspaceIndex';
import { fileToUri, forgetDocumentFile, registerDocumentFile, uriToFile } from './lsp/paths';
import { OnceLogger, errorText } from './lsp/log';
import { analyzeFull, analyzeIncremental, type IncrementalState } from './lsp/incremental';
import { toolFindings } from './lsp/toolFindings';
import { ToolFindingsRequest, type ToolFindingsParams, type ToolFindingsResult } from '../../common/protocol';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
const logger = new OnceLogger((m) => connection.console.error(m));

let settings: ToolsmithSettings = DEFAULT_SETTINGS;
/** Bumped on every settings change so cached analyses made under the old settings are not reused. */
let settingsGeneration = 0;
let workspaceScan = true;
let workspaceFolders: string[] = [];
let shuttingDown = false;
const capabilities = { pullConfiguration: false, registerConfiguration: false, registerWatchers: false, workspaceFolders: false, codeLensRefresh: false };

/** Open documents by the file name the model uses for them. */
const openByFile = new Map<string, TextDocument>();
const host = createFileHost((file) => openByFile.get(file)?.getText());
const index = new WorkspaceIndex();

interface DocumentAnalysis {
  uri: string;
  file: string;
  version: number;
  text: string;
  settingsGeneration: number;
  analysis: FileAnalysis;
}
const documentAnalyses = new Map<string, DocumentAnalysis>();
/** Text of each open file when its dependents were last re-analysed (a re-analysis caused by a dependency does not propagate). */
const propagatedText = new Map<string, string>();
/** Each document's tools as last notified (name, contract, unresolved count), to tell the client when they changed. */
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
    return analyzeFile(file, text, host, settings, (m) => logger.once(`${file}\n${m.split('\n')[0]}`, m));
  } catch (err) {
    logger.once(`${file}\n${String(err)}`, `analysis of ${file} failed: ${errorText(err)}`);
    return EMPTY_ANALYSIS(file);
  }
}

/** Per open document: what the next keystroke's incremental analysis starts from. */
const incrementalStates = new Map<string, IncrementalState>();

/** A document's text through the incremental pipeline (full analysis when the edit does not allow a partial one). */
function analyzeDocumentText(uri: string, file: string, text: string): FileAnalysis {
  const log = (m: string) => logger.once(`${file}\n${m.split('\n')[0]}`, m);
  try {
    const prev = incrementalStates.get(uri);
    const step = (prev && prev.file === file ? analyzeIncremental(prev, text, host, settings, log) : undefined) ?? analyzeFull(file, text, host, settings, log);
    incrementalStates.set(uri, step.state);
    return step.analysis;
  } catch (err) {
    incrementalStates.delete(uri);
    logger.once(`incremental:${file}\n${String(err)}`, `incremental analysis of ${file} failed, analysing the whole file: ${errorText(err)}`);
    return analyze(file, text);
  }
}

/** The analysis of a document's current version (cached; analysed now when the cache is stale). */
function analysisOf(doc: TextDocument): DocumentAnalysis | undefined {
  const file = fileOfDocument(doc);
  if (!file) return undefined;
  const cached = documentAnalyses.get(doc.uri);
  if (cached && cached.version === doc.version && cached.settingsGeneration === settingsGeneration) return cached;
  const text = doc.getText();
  const entry: DocumentAnalysis = { uri: doc.uri, file, version: doc.version, text, settingsGeneration, analysis: analyzeDocumentText(doc.uri, file, text) };
  documentAnalyses.set(doc.uri, entry);
  index.set({ file, uri: doc.uri, text, analysis: entry.analysis, open: true });
  return entry;
}

function mapperFor(file: string, text: string): SpanMapper {
  return new SpanMapper((f) => host.readFile(f), new Map([[file, text]]));
}

/** Asks the editor to request code lenses again, when it supports that. */
function refreshCodeLenses(): void {
  if (capabilities.codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
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
    const own = documentAnalyses.get(uri);
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
function contribute(source: string, findings: FileAnalysis['findings'], mapper: SpanMapper): void {
  const byTarget = new Map<string, Diagnostic[]>([[fileToUri(source), []]]);
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
  contribute(entry.file, entry.analysis.findings, mapper);
  notifyToolsChanged(entry.uri, entry.analysis);
  lensSync.analysed(entry.uri, lensKey(codeLenses(entry.analysis, entry.file, entry.uri, mapper)));
}

/** Analyses a closed file from disk, updates the index and publishes (or clears) its diagnostics. */
function analyzeDisk(file: string, text = host.readFile(file)): FileAnalysis | undefined {
  if (openByFile.has(file)) return undefined;
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
  return analysis;
}

/** Re-analyses everything that imports `file` (open documents through the scheduler, closed files from disk). */
function reanalyzeDependents(file: string): void {
  for (const dependent of index.dependentsOf(file)) {
    const doc = openByFile.get(dependent);
    if (doc) {
      documentAnalyses.delete(doc.uri);
      incrementalStates.delete(doc.uri); // what it imports changed: every tool may differ
      scheduler.schedule(doc.uri, 0);
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
  const entry = analysisOf(doc);
  if (!entry) return;
  // Let queued didChange notifications in: a newer version supersedes this one and publishes itself.
  await yieldTurn();
  if (token.isCancellationRequested || documents.get(uri)?.version !== version) return;
  publishDocument(entry);
  if (propagatedText.get(entry.file) !== entry.text) {
    const first = !propagatedText.has(entry.file);
    propagatedText.set(entry.file, entry.text);
    // On open the dependents already saw this text on disk (or in the scan); after an edit they must be redone.
    if (!first) reanalyzeDependents(entry.file);
  }
}

const scheduler = new DiagnosticsScheduler(DEFAULT_DIAGNOSTICS_DELAY_MS, analyzeAndPublish, (uri, err) =>
  logger.once(`run:${uri}:${String(err)}`, `diagnostics for ${uri} failed: ${errorText(err)}`),
);

// ---- workspace scan ----

let scanDone: Promise<void> = Promise.resolve();

async function scanWorkspace(folders: string[]): Promise<void> {
  const started = Date.now();
  let toolFiles = 0;
  let tools = 0;
  const { filesScanned } = await scanFolders(folders, {
    cancelled: () => shuttingDown,
    visit(file, text) {
      if (openByFile.has(file)) return;
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
  if (!workspaceScan || folders.length === 0) return;
  const previous = scanDone;
  scanDone = previous.then(() => scanWorkspace(folders)).catch((err) => logger.once(`scan:${String(err)}`, `workspace scan failed: ${errorText(err)}`));
}

// ---- settings ----

async function applySettings(pushed: unknown): Promise<void> {
  if (capabilities.pullConfiguration) {
    try {
      const pulled: unknown = await connection.workspace.getConfiguration('toolsmith');
      settings = normalizeSettings(pulled);
    } catch (err) {
      logger.once(`config:${String(err)}`, `could not read the toolsmith settings: ${errorText(err)}`);
      if (pushed !== undefined) settings = normalizeSettings(pushed);
    }
  } else if (pushed !== undefined) {
    settings = normalizeSettings(pushed);
  }
  settingsGeneration++;
  for (const doc of documents.all()) scheduler.schedule(doc.uri, 0);
  for (const entry of index.all()) if (!entry.open) analyzeDisk(entry.file);
}

// ---- LSP handlers ----

connection.onInitialize((params): InitializeResult => {
  const init = (params.initializationOptions ?? {}) as ToolsmithInitializationOptions;
  if (init.settings) settings = normalizeSettings(init.settings);
  if (typeof init.diagnosticsDelayMs === 'number' && Number.isFinite(init.diagnosticsDelayMs)) scheduler.delayMs = Math.max(0, init.diagnosticsDelayMs);
  if (init.workspaceScan === false) workspaceScan = false;
  const c = params.capabilities;
  capabilities.pullConfiguration = !!c.workspace?.configuration;
  capabilities.registerConfiguration = !!c.workspace?.didChangeConfiguration?.dynamicRegistration;
  capabilities.registerWatchers = !!c.workspace?.didChangeWatchedFiles?.dynamicRegistration;
  capabilities.workspaceFolders = !!c.workspace?.workspaceFolders;
  capabilities.codeLensRefresh = !!c.workspace?.codeLens?.refreshSupport;
  if (params.workspaceFolders?.length) workspaceFolders = params.workspaceFolders.map((f) => uriToFile(f.uri));
  else if (params.rootUri) workspaceFolders = [uriToFile(params.rootUri)];
  else if (params.rootPath) workspaceFolders = [params.rootPath];
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
  if (capabilities.registerConfiguration) void connection.client.register(DidChangeConfigurationNotification.type, { section: 'toolsmith' });
  if (capabilities.registerWatchers) {
    void connection.client.register(DidChangeWatchedFilesNotification.type, {
      watchers: [{ globPattern: '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py}' }],
    });
  }
  if (capabilities.workspaceFolders) {
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
  const ready = capabilities.pullConfiguration ? applySettings(undefined) : Promise.resolve();
  void ready.then(() => startScan(workspaceFolders));
});

connection.onShutdown(() => {
  shuttingDown = true;
  lensSync.dispose();
});

connection.onDidChangeConfiguration((change) => {
  const pushed = (change.settings as { toolsmith?: unknown } | null | undefined)?.toolsmith;
  void applySettings(pushed);
});

connection.onDidChangeWatchedFiles((params) => inBatch(() => {
  for (const change of params.changes) {
    const file = uriToFile(change.uri);
    if (!sourceKindOf(file) || openByFile.has(file)) continue;
    if (change.type === FileChangeType.Deleted) analyzeDisk(file, undefined);
    else if (index.get(file) || change.type === FileChangeType.Created || index.dependentsOf(file).length) analyzeDisk(file);
    else {
      // A changed file the scan skipped may now define tools.
      const text = host.readFile(file);
      if (text !== undefined && /registerTool|\.tool\b|add_tool|FastMCP|MCPServer|McpServer/.test(text)) analyzeDisk(file, text);
    }
    reanalyzeDependents(file);
  }
}));

const justOpened = new Set<string>();
documents.onDidOpen((e) => {
  const file = fileOfDocument(e.document);
  if (file) openByFile.set(file, e.document);
  justOpened.add(e.document.uri);
});
documents.onDidChangeContent((e) => {
  const file = fileOfDocument(e.document);
  if (!file) return;
  openByFile.set(file, e.document);
  const opened = justOpened.delete(e.document.uri);
  scheduler.schedule(e.document.uri, opened ? 0 : undefined);
});
documents.onDidClose((e) => {
  const uri = e.document.uri;
  justOpened.delete(uri);
  lensSync.closed(uri);
  scheduler.cancel(uri);
  documentAnalyses.delete(uri);
  incrementalStates.delete(uri);
  notifiedTools.delete(uri);
  const file = fileOfDocument(e.document);
  if (!file) return;
  openByFile.delete(file);
  propagatedText.delete(file);
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

connection.onRequest(ToolsRequest, (params: ToolsParams): ToolsResult => {
  try {
    const doc = documents.get(params.uri);
    if (doc) {
      const entry = analysisOf(doc);
      return { tools: entry ? toolSummaries(entry.analysis, doc.uri, mapperFor(entry.file, entry.text)) : [] };
    }
    const file = uriToFile(params.uri);
    if (!sourceKindOf(file)) return { tools: [] };
    const indexed = index.get(file);
    const text = indexed?.text ?? host.readFile(file);
    if (text === undefined) return { tools: [] };
    const analysis = indexed?.analysis ?? analyze(file, text);
    return { tools: toolSummaries(analysis, params.uri, mapperFor(file, text)) };
  } catch (err) {
    logger.once(`tools:${String(err)}`, `toolsmith/tools failed for ${params.uri}: ${errorText(err)}`);
    return { tools: [] };
  }
});

// Preview: the findings of one tool (same document lookup as toolsmith/tools).
connection.onRequest(ToolFindingsRequest, (params: ToolFindingsParams): ToolFindingsResult => {
  try {
    const doc = documents.get(params.uri);
    const entry = doc ? analysisOf(doc) : undefined;
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

connection.onRequest(WorkspaceToolsRequest, async (): Promise<WorkspaceToolsResult> => {
  await scanDone;
  const tools = [];
  for (const entry of index.all()) {
    if (entry.analysis.result.tools.length === 0) continue;
    const doc = entry.open ? documents.get(entry.uri) : undefined;
    const current = doc ? analysisOf(doc) : undefined;
    const analysis = current?.analysis ?? entry.analysis;
    const text = current?.text ?? entry.text;
    tools.push(...toolSummaries(analysis, entry.uri, mapperFor(entry.file, text)));
  }
  return { tools };
});

connection.onHover((params) => {
  const doc = documents.get(params.textDocument.uri);
  const entry = doc && analysisOf(doc);
  if (!entry) return null;
  return hoverAt(entry.analysis, entry.file, params.position, mapperFor(entry.file, entry.text));
});

// Answered from the current text, analysed now if the scheduled analysis has not run yet (analysisOf): the very
// first request, sent right after didOpen, gets the lenses.
connection.onCodeLens((params) => {
  const doc = documents.get(params.textDocument.uri);
  const entry = doc && analysisOf(doc);
  if (!entry) return [];
  const lenses = codeLenses(entry.analysis, entry.file, entry.uri, mapperFor(entry.file, entry.text));
  lensSync.answered(entry.uri, lensKey(lenses));
  return lenses;
});

connection.onCodeAction((params) => {
  const doc = documents.get(params.textDocument.uri);
  const entry = doc && analysisOf(doc);
  if (!entry) return [];
  // Findings in this file: its own, and those of files importing it (a schema file shows its importers' findings).
  const foreign = index.all().flatMap((e) => (e.file === entry.file ? [] : e.analysis.findings.filter((f) => f.span.file === entry.file)));
  return codeActions(params, [...entry.analysis.findings, ...foreign], entry.file, mapperFor(entry.file, entry.text));
});

// A bug of ours must not take the editor's diagnostics down: log it once and keep serving.
process.on('uncaughtException', (err) => logger.once(`uncaught:${String(err)}`, `internal error: ${errorText(err)}`));
process.on('unhandledRejection', (err) => logger.once(`rejection:${String(err)}`, `internal error: ${errorText(err)}`));

documents.listen(connection);
connection.listen();

/**
 * LSP wiring only: documents, diagnostics, custom requests. The analysis lives in analysis/, contract/ and rules/.
 */
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  DiagnosticSeverity,
  type Diagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyzeFile, type FileAnalysis } from './service';
import { createFileHost } from './host';
import { sourceKindOf } from './analysis/analyze';
import { DEFAULT_SETTINGS, normalizeSettings, type ToolsmithSettings } from '../../common/settings';
import { ToolsRequest, type ToolsParams, type ToolsResult, type ToolSummary } from '../../common/protocol';
import type { Span } from './analysis/model';
import { LineIndex } from './positions';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let settings: ToolsmithSettings = DEFAULT_SETTINGS;
const analyses = new Map<string, FileAnalysis>();

function uriToFile(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}
function fileToUri(file: string): string {
  return file.includes('://') || file.startsWith('untitled:') ? file : pathToFileURL(file).toString();
}
const openDocumentByFile = new Map<string, TextDocument>();
const host = createFileHost((file) => openDocumentByFile.get(file)?.getText());

function rangeOf(span: Span) {
  const doc = openDocumentByFile.get(span.file);
  if (doc) return { start: doc.positionAt(span.start), end: doc.positionAt(span.end) };
  const text = host.readFile(span.file) ?? '';
  const index = new LineIndex(text);
  return { start: index.position(span.start), end: index.position(span.end) };
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information };

function analyzeDocument(doc: TextDocument): FileAnalysis | undefined {
  const file = uriToFile(doc.uri);
  if (!sourceKindOf(file)) return undefined;
  const analysis = analyzeFile(file, doc.getText(), host, settings, (m) => connection.console.error(m));
  analyses.set(doc.uri, analysis);
  const diagnostics: Diagnostic[] = analysis.findings
    .filter((f) => f.span.file === file)
    .map((f) => ({
      range: rangeOf(f.span),
      severity: SEVERITY[f.severity],
      source: 'toolsmith',
      code: f.ruleId,
      codeDescription: { href: `https://github.com/toolsmith/toolsmith/blob/main/docs/rules/${f.ruleId}.md` },
      message: f.message,
    }));
  void connection.sendDiagnostics({ uri: doc.uri, diagnostics });
  return analysis;
}

function summaries(analysis: FileAnalysis, uri: string): ToolSummary[] {
  return analysis.result.tools.map((t) => {
    const counts = { error: 0, warning: 0, info: 0 };
    for (const f of analysis.findings) if (f.tool === t.name.value) counts[f.severity]++;
    return {
      name: t.name.value,
      title: t.title?.value,
      language: t.language,
      framework: t.framework,
      frameworkVersion: t.frameworkVersion,
      uri,
      range: rangeOf(t.registration.span),
      nameRange: rangeOf(t.name.span),
      contract: t.contract,
      unresolved: t.unresolved.map((u) => ({ part: u.part, reason: u.reason, uri: fileToUri(u.span.file), range: rangeOf(u.span) })),
      serverId: t.server.id,
      findings: counts,
    };
  });
}

connection.onInitialize((params) => {
  const init = params.initializationOptions as { settings?: unknown } | undefined;
  if (init?.settings) settings = normalizeSettings(init.settings);
  return {
    capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
    serverInfo: { name: 'toolsmith-language-server', version: '0.1.0' },
  };
});

connection.onDidChangeConfiguration((change) => {
  const s = (change.settings as { toolsmith?: unknown } | undefined)?.toolsmith;
  if (s) settings = normalizeSettings(s);
  for (const doc of documents.all()) analyzeDocument(doc);
});

documents.onDidOpen((e) => {
  openDocumentByFile.set(uriToFile(e.document.uri), e.document);
});
documents.onDidClose((e) => {
  openDocumentByFile.delete(uriToFile(e.document.uri));
  analyses.delete(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});
documents.onDidChangeContent((e) => {
  openDocumentByFile.set(uriToFile(e.document.uri), e.document);
  analyzeDocument(e.document);
});

connection.onRequest(ToolsRequest, (params: ToolsParams): ToolsResult => {
  const doc = documents.get(params.uri);
  let analysis = analyses.get(params.uri);
  if (!analysis) {
    const file = uriToFile(params.uri);
    const text = doc?.getText() ?? host.readFile(file);
    if (text === undefined || !sourceKindOf(file)) return { tools: [] };
    analysis = analyzeFile(file, text, host, settings, (m) => connection.console.error(m));
  }
  return { tools: summaries(analysis, params.uri) };
});

documents.listen(connection);
connection.listen();

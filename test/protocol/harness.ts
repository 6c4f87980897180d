/**
 * A small LSP client for protocol tests and the latency benchmark: spawns the bundled server
 * (`node dist/server.js --stdio`) and speaks LSP to it over stdio, as VS Code does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  ShutdownRequest,
  ExitNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  PublishDiagnosticsNotification,
  ConfigurationRequest,
  RegistrationRequest,
  CodeLensRefreshRequest,
  CodeActionRequest,
  HoverRequest,
  CodeLensRequest,
  LogMessageNotification,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type InitializeResult,
  type ClientCapabilities,
  type CodeAction,
  type Command,
  type Hover,
  type CodeLens,
  type Range,
  type Position,
  type WorkspaceEdit,
  type Registration,
  type FileEvent,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  ToolsRequest,
  WorkspaceToolsRequest,
  ServerToolsRequest,
  WorkspaceScannedNotification,
  ToolsChangedNotification,
  type ToolsResult,
  type WorkspaceToolsResult,
  type ServerToolsResult,
  type WorkspaceScannedParams,
  type ToolsmithInitializationOptions,
} from '../../common/protocol';

export const ROOT = path.resolve(__dirname, '../..');
export const SERVER = path.join(ROOT, 'dist/server.js');

export interface StartOptions {
  /** Workspace folders (absolute paths). None: no scan. */
  workspaceFolders?: string[];
  initializationOptions?: ToolsmithInitializationOptions;
  /**
   * The `toolsmith` settings section the client answers `workspace/configuration` with. When set, the client
   * advertises pull configuration support (as VS Code does); when undefined it does not.
   */
  configuration?: Record<string, unknown>;
  /** Advertise dynamic registration of file watchers and configuration (VS Code does). */
  dynamicRegistration?: boolean;
  codeLensRefresh?: boolean;
  /** Node options for the server process (e.g. a heap cap: `--max-old-space-size=200`). */
  nodeArgs?: string[];
}

type Event =
  | { kind: 'diagnostics'; at: number; params: PublishDiagnosticsParams }
  | { kind: 'scanned'; at: number; params: WorkspaceScannedParams }
  | { kind: 'toolsChanged'; at: number; uri: string }
  | { kind: 'log'; at: number; message: string; type: number }
  | { kind: 'configurationRequest'; at: number; sections: (string | undefined)[] }
  | { kind: 'registration'; at: number; registration: Registration }
  | { kind: 'codeLensRefresh'; at: number };

export function fileUri(file: string): string {
  return pathToFileURL(file).toString();
}

export function languageOf(file: string): string {
  return file.endsWith('.py') ? 'python' : /\.(m|c)?jsx?$/.test(file) ? 'javascript' : 'typescript';
}

export class LspClient {
  readonly events: Event[] = [];
  readonly documents = new Map<string, TextDocument>();
  stderr = '';
  configuration: Record<string, unknown> | undefined;
  private waiters: { check: () => boolean; resolve: () => void }[] = [];
  private exited = false;
  initializeResult!: InitializeResult;

  private constructor(
    readonly process: ChildProcess,
    readonly connection: ProtocolConnection,
  ) {}

  static async start(options: StartOptions = {}): Promise<LspClient> {
    if (!fs.existsSync(SERVER)) {
      throw new Error(`${SERVER} does not exist: build first (node esbuild.mjs, or run the layer with node scripts/test-layer.mjs protocol)`);
    }
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), SERVER, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const client = new LspClient(child, connection);
    client.configuration = options.configuration;
    child.stderr.on('data', (d: Buffer) => (client.stderr += d.toString()));
    child.on('exit', () => {
      client.exited = true;
      client.wake();
    });
    client.wire();
    connection.listen();
    const capabilities: ClientCapabilities = {
      workspace: {
        configuration: options.configuration !== undefined,
        workspaceFolders: true,
        didChangeConfiguration: { dynamicRegistration: !!options.dynamicRegistration },
        didChangeWatchedFiles: { dynamicRegistration: !!options.dynamicRegistration },
        codeLens: { refreshSupport: !!options.codeLensRefresh },
        applyEdit: true,
        workspaceEdit: { documentChanges: true },
      },
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: false },
        publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true, dataSupport: true, relatedInformation: true },
        codeAction: {
          isPreferredSupport: true,
          dataSupport: true,
          codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'source', 'source.fixAll', 'source.organizeImports'] } },
        },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        codeLens: {},
      },
    };
    const folders = options.workspaceFolders ?? [];
    client.initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: folders[0] ? fileUri(folders[0]) : null,
      workspaceFolders: folders.map((f) => ({ uri: fileUri(f), name: path.basename(f) })),
      capabilities,
      initializationOptions: options.initializationOptions ?? { workspaceScan: folders.length > 0 },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  private wire(): void {
    const c = this.connection;
    c.onNotification(PublishDiagnosticsNotification.type, (params) => this.push({ kind: 'diagnostics', at: performance.now(), params }));
    c.onNotification(WorkspaceScannedNotification, (params) => this.push({ kind: 'scanned', at: performance.now(), params }));
    c.onNotification(ToolsChangedNotification, (params) => this.push({ kind: 'toolsChanged', at: performance.now(), uri: params.uri }));
    c.onNotification(LogMessageNotification.type, (p) => this.push({ kind: 'log', at: performance.now(), message: p.message, type: p.type }));
    c.onRequest(ConfigurationRequest.type, (params) => {
      this.push({ kind: 'configurationRequest', at: performance.now(), sections: params.items.map((i) => i.section) });
      return params.items.map((i) => (i.section === 'toolsmith' ? (this.configuration ?? null) : null));
    });
    c.onRequest(RegistrationRequest.type, (params) => {
      for (const registration of params.registrations) this.push({ kind: 'registration', at: performance.now(), registration });
    });
    c.onRequest(CodeLensRefreshRequest.type, () => {
      this.push({ kind: 'codeLensRefresh', at: performance.now() });
    });
    c.onRequest('window/workDoneProgress/create', () => null);
  }

  private push(e: Event): void {
    this.events.push(e);
    this.wake();
  }

  private wake(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  }

  get alive(): boolean {
    return !this.exited && this.process.exitCode === null;
  }

  /** Resolves when `check` holds (checked now and after every event); rejects after `timeoutMs` with `what`. */
  waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${this.exited ? ' (the server exited)' : ''}\nserver stderr:\n${this.stderr}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ check: () => check() || this.exited, resolve: done });
    }).then(() => {
      if (!check()) throw new Error(`the server exited while waiting for ${what}\nserver stderr:\n${this.stderr}`);
    });
  }

  diagnosticsEvents(uri: string): { at: number; params: PublishDiagnosticsParams }[] {
    return this.events.flatMap((e) => (e.kind === 'diagnostics' && e.params.uri === uri ? [{ at: e.at, params: e.params }] : []));
  }

  /** The diagnostics published for `uri` for exactly `version` (the newest publish of it). */
  async diagnosticsFor(uri: string, version?: number, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    const want = version ?? this.documents.get(uri)?.version;
    const find = () =>
      this.diagnosticsEvents(uri)
        .filter((e) => want === undefined || e.params.version === want)
        .at(-1)?.params;
    await this.waitFor(() => find() !== undefined, `diagnostics of ${uri}${want !== undefined ? ` version ${want}` : ''}`, timeoutMs);
    return find()!;
  }

  /** The next diagnostics published for `uri` after event index `since` (for closed files, which have no version). */
  async nextDiagnostics(uri: string, since: number, timeoutMs = 10_000): Promise<PublishDiagnosticsParams> {
    const find = () => this.events.slice(since).find((e) => e.kind === 'diagnostics' && e.params.uri === uri) as { params: PublishDiagnosticsParams } | undefined;
    await this.waitFor(() => find() !== undefined, `diagnostics of ${uri}`, timeoutMs);
    return find()!.params;
  }

  async scanned(timeoutMs = 20_000): Promise<WorkspaceScannedParams> {
    const find = () => this.events.find((e) => e.kind === 'scanned') as { params: WorkspaceScannedParams } | undefined;
    await this.waitFor(() => find() !== undefined, 'the workspace scan', timeoutMs);
    return find()!.params;
  }

  get mark(): number {
    return this.events.length;
  }

  async open(uri: string, text: string, languageId = languageOf(uri)): Promise<TextDocument> {
    const doc = TextDocument.create(uri, languageId, 1, text);
    this.documents.set(uri, doc);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return doc;
  }

  /** Opens a file from disk. */
  async openFile(file: string): Promise<TextDocument> {
    return this.open(fileUri(file), fs.readFileSync(file, 'utf8'), languageOf(file));
  }

  /** Replaces the whole text (or applies incremental changes); returns the new version. */
  async change(uri: string, change: string | TextDocumentContentChangeEvent[]): Promise<number> {
    const doc = this.documents.get(uri);
    if (!doc) throw new Error(`${uri} is not open`);
    const changes: TextDocumentContentChangeEvent[] = typeof change === 'string' ? [{ text: change }] : change;
    const next = TextDocument.update(doc, changes, doc.version + 1);
    this.documents.set(uri, next);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: next.version }, contentChanges: changes });
    return next.version;
  }

  async close(uri: string): Promise<void> {
    this.documents.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  text(uri: string): string {
    const doc = this.documents.get(uri);
    if (!doc) throw new Error(`${uri} is not open`);
    return doc.getText();
  }

  async changeConfiguration(configuration: Record<string, unknown>): Promise<void> {
    this.configuration = configuration;
    // VS Code's client pushes the section too (synchronize.configurationSection), and the server may pull it.
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { toolsmith: configuration } });
  }

  async watchedFilesChanged(changes: FileEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
  }

  codeActions(uri: string, range: Range, only?: string[]): Promise<(CodeAction | Command)[] | null> {
    const diagnostics = this.diagnosticsEvents(uri).at(-1)?.params.diagnostics ?? [];
    const overlapping = diagnostics.filter((d) => !before(d.range.end, range.start) && !before(range.end, d.range.start));
    return this.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics: overlapping, only } });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  codeLens(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  }

  tools(uri: string): Promise<ToolsResult> {
    return this.connection.sendRequest(ToolsRequest, { uri });
  }

  workspaceTools(): Promise<WorkspaceToolsResult> {
    return this.connection.sendRequest(WorkspaceToolsRequest, {});
  }

  serverTools(uri: string): Promise<ServerToolsResult> {
    return this.connection.sendRequest(ServerToolsRequest, { uri });
  }

  /**
   * Applies a workspace edit as VS Code would: to open documents through didChange (so the server sees it),
   * returns the new text of every edited document.
   */
  async applyEdit(edit: WorkspaceEdit): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const perUri = new Map<string, { range: Range; newText: string }[]>();
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) perUri.set(uri, [...edits]);
    for (const dc of edit.documentChanges ?? []) {
      if ('textDocument' in dc) perUri.set(dc.textDocument.uri, [...(perUri.get(dc.textDocument.uri) ?? []), ...dc.edits.filter((e): e is { range: Range; newText: string } => 'range' in e)]);
    }
    for (const [uri, edits] of perUri) {
      const doc = this.documents.get(uri);
      if (!doc) throw new Error(`edit for ${uri}, which is not open`);
      const text = TextDocument.applyEdits(doc, edits);
      await this.change(uri, text);
      out.set(uri, text);
    }
    return out;
  }

  logs(): string[] {
    return this.events.flatMap((e) => (e.kind === 'log' ? [e.message] : []));
  }

  async stop(): Promise<void> {
    if (this.alive) {
      try {
        await withTimeout(this.connection.sendRequest(ShutdownRequest.type), 3000);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // fall through to kill
      }
    }
    await new Promise<void>((resolve) => {
      if (!this.alive) return resolve();
      const timer = setTimeout(() => {
        this.process.kill('SIGKILL');
        resolve();
      }, 2000);
      this.process.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.connection.dispose();
  }
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms))]);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A fresh temporary directory (removed by the caller). */
export function tempDir(prefix = 'toolsmith-protocol-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export { writeTree } from '../util/tree';

/**
 * The Preview Contract panel: one webview that follows one tool. It asks the language server for the tool's contract
 * and findings (the client never analyses code), builds the view-model, follows the source as it changes
 * (debounced), and compares with the live server on request.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { CodeActionKind, CodeActionRequest, CodeActionTriggerKind, type CodeAction as LspCodeAction, type LanguageClient } from 'vscode-languageclient/node';
import {
  ToolsRequest,
  WorkspaceToolsRequest,
  ServerToolsRequest,
  ToolFindingsRequest,
  ToolsChangedNotification,
  type ToolSummary,
  type ToolFinding,
  type ToolFindingsResult,
  type LspRange,
} from '../../../common/protocol';
import { buildPreview, previewKey, type LiveView, type PreviewView } from '../../../common/preview-model';
import type { HostToPreview, PreviewToHost } from '../../../common/preview-messages';
import type { JsonSchema } from '../../../server/src/analysis/model';
import { previewHtml } from './html';
import { getTokenizer } from './tokens';
import { clientConfiguration, CLIENT_TARGETS, resolveLaunch, type SourceLaunch } from './launch';
import { compareWithLive } from './live';
import { detectCandidate, type ServerConfig } from '../servers/discovery';
import type { ServerManager } from '../servers/manager';
import type { McpSession } from '../servers/session';

/** The servers the live comparison reads: the server manager's sessions, the ones the Servers view and playground show. */
export interface PreviewServers {
  manager: ServerManager;
  /** Starts (or restarts) a server the way the Servers view's Start does: a detected one is confirmed first. */
  start(config: ServerConfig, restart: boolean): Promise<McpSession | undefined>;
}

export interface PreviewDeps {
  client: LanguageClient;
  log: vscode.LogOutputChannel | vscode.OutputChannel;
  servers: PreviewServers;
  extensionUri: vscode.Uri;
}

const DEBOUNCE_MS = 300;

function toRange(r: LspRange): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

export class PreviewPanel implements vscode.Disposable {
  static current: PreviewPanel | undefined;
  static readonly viewType = 'toolsmith.preview';

  private readonly disposables: vscode.Disposable[] = [];
  private tool: ToolSummary | undefined;
  private view: PreviewView | undefined;
  private live: LiveView | undefined;
  private findings: ToolFinding[] = [];
  private risk: ToolFindingsResult['risk'];
  private timer: NodeJS.Timeout | undefined;
  private ready = false;
  private refreshing: Promise<void> = Promise.resolve();
  /** The whole tools/list of the followed tool's server (`serverContracts`); stale after a save. */
  private wholeServer: { key: string; stale: boolean; tools: ToolSummary[] | undefined } | undefined;

  static show(deps: PreviewDeps, tool: ToolSummary): PreviewPanel {
    if (PreviewPanel.current) {
      PreviewPanel.current.panel.reveal(vscode.ViewColumn.Beside, true);
      PreviewPanel.current.follow(tool);
      return PreviewPanel.current;
    }
    const panel = vscode.window.createWebviewPanel(
      PreviewPanel.viewType,
      'Preview Contract',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview')],
      },
    );
    PreviewPanel.current = new PreviewPanel(panel, deps, tool);
    return PreviewPanel.current;
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly deps: PreviewDeps,
    tool: ToolSummary,
  ) {
    this.tool = tool;
    const webview = panel.webview;
    const asset = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview', f)).toString();
    webview.html = previewHtml({ cspSource: webview.cspSource, scriptUri: asset('preview.js'), styleUri: asset('preview.css'), codiconUri: asset('codicon.css') });
    this.setTitle();
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      webview.onDidReceiveMessage((m: PreviewToHost) => void this.onMessage(m).catch((err) => this.error(err))),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.watches(e.document.uri.toString())) this.schedule();
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (this.wholeServer) this.wholeServer.stale = true;
        if (this.watches(d.uri.toString())) this.schedule();
      }),
      deps.client.onNotification(ToolsChangedNotification, (p) => {
        if (this.watches(p.uri)) this.schedule();
      }),
    );
  }

  private watches(uri: string): boolean {
    return !!this.tool && (uri === this.tool.uri || this.tool.unresolved.some((u) => u.uri === uri));
  }

  private setTitle(): void {
    this.panel.title = `Contract: ${this.tool?.name ?? 'tool'}`;
  }

  private post(m: HostToPreview): void {
    void this.panel.webview.postMessage(m);
  }

  follow(tool: ToolSummary): void {
    const changed = !this.tool || previewKey(this.tool) !== previewKey(tool);
    this.tool = tool;
    if (changed) this.live = undefined;
    this.setTitle();
    void this.refresh();
  }

  /** Debounced: typing re-renders at most every DEBOUNCE_MS. */
  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), DEBOUNCE_MS);
  }

  refresh(): Promise<void> {
    this.refreshing = this.refreshing.then(() => this.doRefresh()).catch((err) => this.error(err));
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    const previous = this.tool;
    if (!previous) return;
    const { tools, prompts, resources } = await this.deps.client.sendRequest(ToolsRequest, { uri: previous.uri });
    // Same name; else (renamed while typing) the tool registered at the same place.
    const tool =
      tools.find((t) => t.name === previous.name && t.serverId === previous.serverId) ??
      tools.find((t) => t.name === previous.name) ??
      tools.find((t) => t.range.start.line <= previous.range.start.line && t.range.end.line >= previous.range.start.line);
    if (!tool) {
      this.view = undefined;
      this.post({ type: 'message', text: `${previous.name ?? 'The tool'} is no longer registered in ${path.basename(vscode.Uri.parse(previous.uri).fsPath)}.` });
      return;
    }
    this.tool = tool;
    this.setTitle();
    const { findings, risk } = await this.findingsOf(tool);
    this.findings = findings;
    this.risk = risk;
    const view = buildPreview({
      tool,
      serverContracts: await this.serverContracts(tool, tools),
      findings: this.findings,
      risk: this.risk,
      tokenizer: await getTokenizer(),
      prompts,
      resources,
    });
    // A server that already runs (the playground's, say) is compared at once: no "Start the server" for it.
    if (!this.live || this.live.state === 'running') this.live = await this.compare(false);
    view.live = this.live;
    this.view = view;
    if (this.ready) this.post({ type: 'render', view });
  }

  /**
   * The contracts of the whole tools/list of the tool's server, for the "whole list" token count: the server predicted
   * from its entry (`toolsmith/serverTools`, the tools of every module it imports), asked again when another tool is
   * followed or a file is saved; while typing, the followed tool's own contract is replaced in it. Without an answer
   * (an older language server), the tools of its file on the same server.
   */
  private async serverContracts(tool: ToolSummary, fileTools: ToolSummary[]): Promise<JsonSchema[]> {
    const key = `${tool.uri}\u0000${tool.name ?? ''}`;
    if (this.wholeServer?.key !== key || this.wholeServer.stale) {
      let tools: ToolSummary[] | undefined;
      try {
        const { entry } = await this.serverFiles();
        const r = await this.deps.client.sendRequest(ServerToolsRequest, { uri: vscode.Uri.file(entry).toString(), tool: { uri: tool.uri, name: tool.name ?? null } });
        tools = r.servers.find((s) => s.tools.some((t) => t.uri === tool.uri && t.name === tool.name))?.tools;
      } catch (err) {
        this.deps.log.appendLine(`toolsmith/serverTools unavailable (${String(err)}); counting the tools of the file`);
      }
      this.wholeServer = { key, stale: false, tools };
    }
    const whole = this.wholeServer.tools;
    if (!whole) return fileTools.filter((t) => t.serverId === tool.serverId).map((t) => t.contract);
    return whole.map((t) => (t.uri === tool.uri && t.name === tool.name ? tool.contract : t.contract));
  }

  private async findingsOf(tool: ToolSummary): Promise<ToolFindingsResult> {
    try {
      return await this.deps.client.sendRequest(ToolFindingsRequest, { uri: tool.uri, toolName: tool.name ?? null });
    } catch (err) {
      // An older server without the request: fall back to the diagnostics inside the tool's registration.
      this.deps.log.appendLine(`toolsmith/toolFindings unavailable (${String(err)}); using diagnostics`);
      const uri = vscode.Uri.parse(tool.uri);
      const range = toRange(tool.range);
      const findings: ToolFinding[] = vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.source === 'toolsmith' && range.contains(d.range))
        .map((d) => ({
          ruleId: String(typeof d.code === 'object' ? d.code.value : d.code),
          severity: d.severity === vscode.DiagnosticSeverity.Error ? 'error' : d.severity === vscode.DiagnosticSeverity.Warning ? 'warning' : 'info',
          message: d.message,
          uri: tool.uri,
          range: { start: { line: d.range.start.line, character: d.range.start.character }, end: { line: d.range.end.line, character: d.range.end.character } },
          hasFix: true,
        }));
      return { findings };
    }
  }

  /**
   * The file that starts the tool's server (a tool may be registered in a module the entry imports) and every source
   * file of that server (for staleness): the tool's file, the files of the other tools on the same server, the file
   * that constructs the server. The entry is the first of them that starts a stdio server (the playground's test).
   */
  private async serverFiles(): Promise<{ entry: string; sources: string[] }> {
    const tool = this.tool!;
    const own = vscode.Uri.parse(tool.uri).fsPath;
    const files = [own];
    try {
      const { tools } = await this.deps.client.sendRequest(WorkspaceToolsRequest, {});
      for (const t of tools) if (t.serverId === tool.serverId && t.uri.startsWith('file:')) files.push(vscode.Uri.parse(t.uri).fsPath);
    } catch {
      /* the workspace index is optional here */
    }
    const constructedIn = tool.serverId.split('#')[0];
    if (path.isAbsolute(constructedIn)) files.push(constructedIn);
    const sources = [...new Set(files)].filter((f) => fs.existsSync(f));
    const entry = sources.find((f) => {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === f);
      const text = doc?.getText() ?? fs.readFileSync(f, 'utf8');
      return !!detectCandidate(f, text);
    });
    return { entry: entry ?? own, sources };
  }

  private launchSpec(file: string): SourceLaunch | { error: string } {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(this.tool!.uri));
    const pythonPath = vscode.workspace
      .getConfiguration('python', folder?.uri)
      .get<string>('defaultInterpreterPath')
      ?.replace(/\$\{workspaceFolder\}/g, folder?.uri.fsPath ?? '');
    return resolveLaunch(file, { workspaceRoot: folder?.uri.fsPath, pythonPath: pythonPath && pythonPath !== 'python' ? pythonPath : undefined });
  }

  private postLive(): void {
    if (this.view && this.live) {
      this.view.live = this.live;
      this.post({ type: 'live', key: this.view.key, live: this.live });
    }
  }

  /**
   * Lists the live tools (starting the server when `start`) and compares them with the prediction. The session is
   * the server manager's: the server the playground runs for this file, else one started through the manager.
   */
  private async compare(start: boolean, restart = false): Promise<LiveView> {
    const tool = this.tool!;
    const { entry: file, sources } = await this.serverFiles();
    const resolved = this.launchSpec(file);
    const launch = 'error' in resolved ? undefined : resolved;
    const { manager } = this.deps.servers;
    let config = await manager.configForFile(file);
    const existing = config ? manager.existingSession(config.id) : undefined;
    let session = existing?.running ? existing : undefined;
    const idle: LiveView = { state: 'idle', summary: 'The server is not running. Start it to compare this prediction with what it publishes.', canRestart: false, canStart: true };
    if (!session && !start && !restart) return idle;
    if (!config && 'error' in resolved) return { state: 'error', summary: resolved.error, canRestart: false, canStart: false };
    try {
      if (restart || (!session && start)) {
        if (!vscode.workspace.isTrusted)
          return { state: 'error', summary: 'This workspace is in Restricted Mode: Toolsmith never starts servers in an untrusted workspace.', canRestart: false, canStart: false };
        if (!config && launch) config = manager.addSourceServer(file, launch);
        session = config ? await this.deps.servers.start(config, restart) : undefined;
      }
      if (!session?.running) return idle;
      // Started from the preview's own launch, the process runs its entry file (compiled output, say); else the source.
      const entryFile = config?.origin === 'source' && launch ? launch.entryFile : file;
      const startedAt = session.startedAt ?? Date.now();
      // The SDK's Tool objects are JSON values.
      const liveTools = (await session.listTools()) as unknown as JsonSchema[];
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === tool.uri);
      const sourceFiles = [...new Set([...sources, ...tool.unresolved.map((u) => vscode.Uri.parse(u.uri).fsPath)])].filter((f) => fs.existsSync(f));
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(tool.uri));
      const diff = compareWithLive({
        toolName: tool.name,
        predicted: tool.contract,
        liveTools,
        unresolved: tool.unresolved,
        session: { startedAt, entryFile },
        sourceFiles,
        unsaved: !!doc?.isDirty,
        framework: tool.framework,
        frameworkVersion: tool.frameworkVersion,
        spec: launch,
        workspaceRoot: folder?.uri.fsPath,
      });
      const summary =
        diff.status === 'same'
          ? 'The prediction matches the running server exactly.'
          : diff.status === 'different'
            ? `${diff.differences.length} field${diff.differences.length === 1 ? '' : 's'} differ${diff.differences.length === 1 ? 's' : ''} from the running server.`
            : diff.status === 'missing-live'
              ? `The running server does not publish ${tool.name ?? 'this tool'}.`
              : 'The source no longer registers this tool.';
      return { state: 'running', summary, diff, startedAt: new Date(startedAt).toISOString(), canRestart: true, canStart: false };
    } catch (err) {
      return { state: 'error', summary: `The server could not be queried: ${err instanceof Error ? err.message : String(err)}`, canRestart: true, canStart: true };
    }
  }

  private async onMessage(m: PreviewToHost): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        if (this.view) this.post({ type: 'render', view: this.view });
        else await this.refresh();
        return;
      case 'copyJson':
        if (!this.view) return;
        await vscode.env.clipboard.writeText(this.view.json);
        void vscode.window.showInformationMessage(`Copied the tools/list entry of ${this.view.name ?? 'the tool'}.`);
        return;
      case 'copyConfig': {
        const spec = this.launchSpec((await this.serverFiles()).entry);
        if ('error' in spec) {
          void vscode.window.showErrorMessage(spec.error);
          return;
        }
        await vscode.env.clipboard.writeText(clientConfiguration(spec, m.target));
        const target = CLIENT_TARGETS.find((t) => t.target === m.target)!;
        void vscode.window.showInformationMessage(`Copied the ${target.label} configuration (${spec.command}). Paste it into ${target.where}.`);
        return;
      }
      case 'reveal': {
        const editor = await vscode.window.showTextDocument(vscode.Uri.parse(m.uri), { viewColumn: vscode.ViewColumn.One, selection: toRange(m.range) });
        editor.revealRange(toRange(m.range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        return;
      }
      case 'fix':
        await this.applyFix(m.index);
        return;
      case 'openDocs': {
        const local = vscode.Uri.joinPath(this.deps.extensionUri, 'docs', 'rules', `${m.ruleId}.md`);
        if (fs.existsSync(local.fsPath)) await vscode.commands.executeCommand('markdown.showPreview', local);
        else await vscode.env.openExternal(vscode.Uri.parse(`https://github.com/toolsmith/toolsmith/blob/main/docs/rules/${encodeURIComponent(m.ruleId)}.md`));
        return;
      }
      case 'live':
        this.live = { state: 'starting', summary: m.action === 'restart' ? 'Restarting the server…' : 'Starting the server and reading tools/list…', canRestart: false, canStart: false };
        this.postLive();
        this.live = await this.compare(true, m.action === 'restart');
        this.postLive();
        return;
      case 'save': {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === this.tool?.uri);
        await doc?.save();
        return;
      }
    }
  }

  /**
   * Applies the quick fix the language server offers for a finding (the same code action the editor shows).
   * Asked of the language server itself: the actions `vscode.executeCodeActionProvider` hands back carry no
   * diagnostics, so they cannot be told apart by rule when several findings share a range (limit: integer, bounds,
   * description), whereas the server's own answer names the diagnostic each action fixes.
   */
  private async applyFix(index: number): Promise<void> {
    const finding = this.view?.findings[index];
    if (!finding) return;
    const uri = vscode.Uri.parse(finding.uri);
    // The server answers for documents it has open: opening it (no editor) makes the client sync it first.
    await vscode.workspace.openTextDocument(uri);
    const client = this.deps.client;
    const answer = await client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: finding.uri },
      range: finding.range,
      context: { diagnostics: [], only: [CodeActionKind.QuickFix], triggerKind: CodeActionTriggerKind.Invoked },
    });
    const sameRange = (r: LspRange) =>
      r.start.line === finding.range.start.line && r.start.character === finding.range.start.character && r.end.line === finding.range.end.line && r.end.character === finding.range.end.character;
    const matching = (answer ?? []).filter((a): a is LspCodeAction => 'edit' in a && !!a.edit && !!a.diagnostics?.some((d) => String(d.code) === finding.ruleId && sameRange(d.range)));
    if (!matching.length) {
      void vscode.window.showInformationMessage(`No quick fix is available for ${finding.ruleId} here: see its documentation.`);
      return;
    }
    const preferred = matching.filter((a) => a.isPreferred);
    const chosen =
      matching.length === 1
        ? matching[0]
        : await vscode.window
            .showQuickPick(
              matching.map((a) => ({ label: a.title, description: a.isPreferred ? 'preferred' : undefined, action: a })),
              { title: `Fix ${finding.ruleId}`, placeHolder: preferred[0]?.title },
            )
            .then((p) => p?.action);
    if (!chosen?.edit) return;
    const edit = await client.protocol2CodeConverter.asWorkspaceEdit(chosen.edit);
    if (!(await vscode.workspace.applyEdit(edit))) void vscode.window.showWarningMessage(`The fix for ${finding.ruleId} could not be applied (the file changed meanwhile?).`);
  }

  private error(err: unknown): void {
    this.deps.log.appendLine(`Preview Contract: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (PreviewPanel.current === this) PreviewPanel.current = undefined;
    for (const d of this.disposables) d.dispose();
    this.disposables.length = 0;
    this.panel.dispose();
  }
}

/**
 * vscode glue of the playground: discovery over the workspace, the Servers tree, the commands, one output
 * channel per server, and one webview panel per server driven by PlaygroundController. The logic lives in
 * vscode-free modules (servers/*, controller.ts); this file only connects them to VS Code.
 */
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ServerToolsRequest, WorkspaceToolsRequest, type ToolSummary } from '../../../common/protocol';
import type { HostToWebview, WebviewToHost } from '../../../common/playground-messages';
import { candidateConfigs, describeLaunch, detectCandidate, discoverConfigured, LaunchCancelled, type DiscoveryResult, type ServerConfig, type WorkspaceReader } from '../servers/discovery';
import { LaunchRefused, ServerManager } from '../servers/manager';
import { mcpJsonFromDetected } from '../servers/mcpJson';
import { maskEnv, maskText } from '../servers/secrets';
import { sessionFailure, startFailureMessage } from '../servers/startFailure';
import type { ClientHandlers, McpSession } from '../servers/session';
import type { Root } from '@modelcontextprotocol/client';
import { ServersTree, type Node } from '../servers/tree';
import type { LanguageModelHost, PlaygroundController } from './controller';
import { playgroundBundle } from './lazy';
import { makeNonce, playgroundHtml } from './html';

export interface PlaygroundDeps {
  client?: LanguageClient | (() => LanguageClient | undefined);
  log: vscode.LogOutputChannel | vscode.OutputChannel;
}

const CONFIRMED_KEY = 'toolsmith.playground.confirmedCandidates';
const SOURCE_EXT = /\.(ts|mts|cts|js|mjs|cjs|py)$/;

function reader(folder: vscode.WorkspaceFolder): WorkspaceReader {
  return {
    root: folder.uri.fsPath,
    async readText(p) {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(p)));
      } catch {
        return undefined;
      }
    },
    async exists(p) {
      try {
        await vscode.workspace.fs.stat(vscode.Uri.file(p));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** What the playground's parts share: the server manager, the Servers tree, one output channel per server. */
interface Playground {
  context: vscode.ExtensionContext;
  manager: ServerManager;
  tree: ServersTree;
  channel: (c: ServerConfig) => vscode.OutputChannel;
  /** The discovery in progress, if any (commands wait for it before picking a server). */
  refreshing: () => Promise<void> | undefined;
  lsp: () => LanguageClient | undefined;
  panels: Map<string, { panel: vscode.WebviewPanel; controller: PlaygroundController }>;
}

/** The server manager, and how to start one of its servers with the author in the loop (for the preview). */
export interface PlaygroundRegistration {
  manager: ServerManager;
  startServer: (c: ServerConfig, restart: boolean) => Promise<McpSession | undefined>;
  /** Starts the server if needed and opens its playground on `tool`; with `args`, calls it there once the panel is up. */
  openPlayground: (c: ServerConfig, tool?: string, args?: Record<string, unknown>) => Promise<void>;
  /** The discovery in progress, if any. */
  refreshing: () => Promise<void> | undefined;
}

export function registerPlayground(context: vscode.ExtensionContext, deps: PlaygroundDeps): PlaygroundRegistration {
  const channels = new Map<string, vscode.OutputChannel>();
  // The server's requests go to the playground of the session that received them (pg is set just below).
  const ref: { pg?: Playground } = {};
  const manager = createManager({
    roots: () => workspaceRoots(),
    sampling: (params, ctx) => controllerFor(ref.pg, ctx.session).askSampling(params, ctx.signal),
    elicitation: (params, ctx) => controllerFor(ref.pg, ctx.session).askElicitation(params, ctx.signal),
  });
  const channel = (c: ServerConfig): vscode.OutputChannel => {
    let ch = channels.get(c.id);
    if (!ch) {
      ch = vscode.window.createOutputChannel(`MCP: ${c.name}`);
      channels.set(c.id, ch);
      context.subscriptions.push(ch);
    }
    return ch;
  };
  logSessions(manager, channel);
  const lsp = () => (typeof deps.client === 'function' ? deps.client() : deps.client);
  // A stopped server shows the tools predicted for its script by the language server (toolsmith/serverTools).
  const tree = new ServersTree(
    manager,
    () => vscode.workspace.isTrusted,
    async (file) => lsp()?.sendRequest(ServerToolsRequest, { uri: vscode.Uri.file(file).toString() }),
  );
  // A saved source file may change what a stopped server is predicted to list.
  context.subscriptions.push(vscode.workspace.onDidSaveTextDocument(() => tree.refresh()));
  context.subscriptions.push(vscode.window.registerTreeDataProvider('toolsmith.servers', tree));
  const discovery = watchDiscovery(context, deps.log, manager, tree);
  const pg: Playground = {
    context,
    manager,
    tree,
    channel,
    refreshing: discovery.refreshing,
    lsp,
    panels: new Map(),
  };
  ref.pg = pg;
  const rootsChanged = () => {
    for (const c of manager.configs) void manager.existingSession(c.id)?.notifyRootsChanged();
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(rootsChanged),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('toolsmith.playground.roots') && rootsChanged()),
  );
  restartOnSave(pg);
  registerCommands(pg, discovery.scheduleRefresh);
  return {
    manager,
    startServer: (c, restart) => startServer(pg, c, restart),
    openPlayground: async (c, tool, args) => {
      let s = manager.existingSession(c.id);
      if (!s?.running) s = await startServer(pg, c).catch(() => undefined);
      if (s) openPanel(pg, c, s, tool, undefined, tool && args ? { tool, args } : undefined);
    },
    refreshing: discovery.refreshing,
  };
}

const folder = () => vscode.workspace.workspaceFolders?.[0];

/**
 * The roots the client offers servers: the toolsmith.playground.roots setting when set (paths or file: URIs), else
 * the workspace folders.
 */
function workspaceRoots(): Root[] {
  const configured = vscode.workspace.getConfiguration('toolsmith.playground').get<string[]>('roots', []);
  if (Array.isArray(configured) && configured.length) {
    const base = folder()?.uri.fsPath ?? process.cwd();
    return configured
      .filter((r): r is string => typeof r === 'string' && r.trim() !== '')
      .map((r) => {
        const uri = /^[a-z][a-z0-9+.-]*:/i.test(r) && !/^[a-z]:[\\/]/i.test(r) ? vscode.Uri.parse(r) : vscode.Uri.file(path.resolve(base, r));
        return { uri: uri.toString(), name: path.basename(uri.fsPath) || uri.toString() };
      });
  }
  return (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name }));
}

/** The playground controller of a session, its panel opened when it is not (the server asks: the developer must see it). */
function controllerFor(pg: Playground | undefined, session: McpSession): PlaygroundController {
  const c = pg?.manager.configs.find((x) => pg.manager.existingSession(x.id) === session);
  if (!pg || !c) throw new Error('No playground is attached to this server session.');
  if (!pg.panels.has(c.id)) openPanel(pg, c, session);
  return pg.panels.get(c.id)!.controller;
}

function createManager(handlers: ClientHandlers): ServerManager {
  const inputCache = new Map<string, string>();
  return new ServerManager({
    isTrusted: () => vscode.workspace.isTrusted,
    resolveContext: (c) => {
      const f = folder();
      const ws = f ? reader(f) : undefined;
      return {
        workspaceFolder: f?.uri.fsPath ?? process.cwd(),
        env: process.env,
        inputCache,
        readText: async (p) => ws?.readText(p),
        promptInput: async (input) =>
          input.type === 'pickString' && input.options?.length
            ? vscode.window.showQuickPick(input.options, { title: input.description ?? input.id, ignoreFocusOut: true })
            : vscode.window.showInputBox({ title: `${c.name}: ${input.description ?? input.id}`, password: input.password === true, value: input.default, ignoreFocusOut: true }),
      };
    },
    // The first session loads the MCP stack (dist/playground.js).
    createSession: (spec, options) => new (playgroundBundle().McpSession)(spec, options),
    sessionOptions: { handlers },
  });
}

/** Each session's life, stderr and log notifications in its server's output channel. */
function logSessions(manager: ServerManager, channel: (c: ServerConfig) => vscode.OutputChannel): void {
  manager.on('session', (c, s) => {
    const ch = channel(c);
    s.on('status', (st) => {
      if (st === 'starting') {
        // Secret env values never reach a log: the env is listed masked, and masked out of the command line too.
        ch.appendLine(`[${stamp()}] starting: ${maskText(describeLaunch(s.spec), s.spec)} (cwd ${s.spec.cwd ?? '.'})`);
        const env = maskEnv(s.spec.env);
        if (Object.keys(env).length)
          ch.appendLine(
            `[${stamp()}] env: ${Object.entries(env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`,
          );
      } else if (st === 'running') {
        // The tools are listed right after this: their count comes with toolsChanged, not here (it would say 0).
        ch.appendLine(`[${stamp()}] running: ${s.serverInfo?.name ?? '?'} ${s.serverInfo?.version ?? ''}, protocol ${s.protocolVersion ?? '?'}`);
      } else ch.appendLine(`[${stamp()}] ${st}${s.lastError && (st === 'crashed' || st === 'failed') ? `: ${s.lastError.message}` : ''}`);
    });
    s.on('toolsChanged', (tools) => ch.appendLine(`[${stamp()}] tools/list: ${tools.length} tool${tools.length === 1 ? '' : 's'}${tools.length ? ` (${tools.map((t) => t.name).join(', ')})` : ''}`));
    s.on('stderr', (line) => ch.appendLine(line));
    s.on('warning', (w) => ch.appendLine(`[${stamp()}] warning: ${w}`));
    s.on('log', (p) => ch.appendLine(`[${stamp()}] log ${p.level}${p.logger ? ` [${p.logger}]` : ''}: ${maskText(typeof p.data === 'string' ? p.data : JSON.stringify(p.data), s.spec)}`));
  });
}

/** Discovery over the workspace (mcp.json, settings, detected servers), redone when what it reads changes. */
function watchDiscovery(
  context: vscode.ExtensionContext,
  log: PlaygroundDeps['log'],
  manager: ServerManager,
  tree: ServersTree,
): { scheduleRefresh: () => void; refreshing: () => Promise<void> | undefined } {
  let refreshing: Promise<void> | undefined;
  const refresh = async (): Promise<void> => {
    const f = folder();
    if (!f) {
      manager.setDiscovery({ servers: [], skipped: [], problems: [] }, []);
      return;
    }
    const ws = reader(f);
    let result: DiscoveryResult;
    try {
      result = await discoverConfigured(ws, vscode.workspace.getConfiguration('toolsmith').get('servers'));
    } catch (err) {
      result = { servers: [], skipped: [], problems: [{ file: f.uri.fsPath, message: String(err) }] };
    }
    const found: { file: string; language: 'typescript' | 'python' }[] = [];
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(f, '**/*.{ts,mts,js,mjs,py}'), '**/{node_modules,.venv,venv,.git,dist,out,build,__pycache__,.cache,test,tests}/**', 400);
    for (const uri of files) {
      const text = await ws.readText(uri.fsPath);
      const lang = text !== undefined ? detectCandidate(uri.fsPath, text) : undefined;
      if (lang) found.push({ file: uri.fsPath, language: lang });
    }
    const confirmed = new Set(context.workspaceState.get<string[]>(CONFIRMED_KEY, []));
    manager.setDiscovery(result, await candidateConfigs(ws, found, result.servers, confirmed));
    await manager.prune();
  };
  const scheduleRefresh = debounce(() => {
    refreshing = refresh().catch((err) => log.appendLine(`Playground discovery failed: ${err}`));
  }, 500);
  scheduleRefresh();

  const configWatcher = vscode.workspace.createFileSystemWatcher('**/{.vscode/mcp.json,.mcp.json,mcp.json}');
  const sourceWatcher = vscode.workspace.createFileSystemWatcher('**/*.{ts,mts,js,mjs,py}', false, true, false);
  for (const w of [configWatcher, sourceWatcher]) {
    context.subscriptions.push(w, w.onDidCreate(scheduleRefresh), w.onDidDelete(scheduleRefresh));
  }
  context.subscriptions.push(configWatcher.onDidChange(scheduleRefresh));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('toolsmith.servers') && scheduleRefresh()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      tree.refresh();
      scheduleRefresh();
    }),
  );
  return { scheduleRefresh, refreshing: () => refreshing };
}

/** Restart on save (setting), debounced per server: a burst of saves restarts once. */
function restartOnSave({ context, manager, channel }: Playground): void {
  const restarts = new Map<string, ReturnType<typeof setTimeout>>();
  context.subscriptions.push(
    vscode.workspace.onDidSaveTextDocument((doc) => {
      if (!vscode.workspace.getConfiguration('toolsmith.playground').get<boolean>('restartOnSave', false)) return;
      if (!SOURCE_EXT.test(doc.uri.fsPath) && !doc.uri.fsPath.endsWith('.env')) return;
      for (const c of manager.configs) {
        const s = manager.existingSession(c.id);
        if (!s?.running) continue;
        const rel = path.relative(c.watchRoot, doc.uri.fsPath);
        if (rel.startsWith('..') || path.isAbsolute(rel) || /(^|[\\/])node_modules[\\/]/.test(rel)) continue;
        clearTimeout(restarts.get(c.id));
        restarts.set(
          c.id,
          setTimeout(() => {
            restarts.delete(c.id);
            void restartSaved(manager, channel, c.id, path.basename(doc.uri.fsPath));
          }, 400),
        );
      }
    }),
  );
}

/**
 * One restart on save. When the configuration changed what runs (command, args, env, envFile, cwd) since the author
 * last started it, a click is needed first: a save must not run an edited command unseen.
 */
async function restartSaved(manager: ServerManager, channel: (c: ServerConfig) => vscode.OutputChannel, id: string, saved: string): Promise<void> {
  const c = manager.config(id);
  if (!c) return;
  const changed = manager.changedSinceLaunch(id);
  if (changed.length) {
    channel(c).appendLine(`[${stamp()}] ${saved} saved: not restarted, the configuration's ${changed.join(', ')} changed since the last start`);
    const restart = 'Restart';
    const choice = await vscode.window.showWarningMessage(
      `${c.name}: its ${changed.join(', ')} changed since it was started. Restart it with the new configuration?`,
      { modal: true, detail: `It will run:\n${maskText(describeLaunch({ command: c.command, args: c.args }), { env: c.env })}${c.cwd ? `\nin ${c.cwd}` : ''}` },
      restart,
    );
    if (choice !== restart) return;
  }
  channel(c).appendLine(`[${stamp()}] ${saved} saved: restarting`);
  await manager.restart(id).catch((err: unknown) => channel(c).appendLine(err instanceof Error ? err.message : String(err)));
}

/** Starts (or restarts) a server, with the author in the loop: a detected server runs only once confirmed. */
async function startServer({ context, manager, tree, channel }: Playground, c: ServerConfig, restart = false): Promise<McpSession | undefined> {
  if (c.detected && !c.detected.confirmed) {
    const run = 'Run it';
    const choice = await vscode.window.showInformationMessage(
      `Run ${path.basename(c.detected.sourceFile)} as an MCP server?`,
      {
        modal: true,
        detail: `Toolsmith detected an MCP server on stdio in ${c.name}. It will run:\n${describeLaunch({ command: c.command, args: c.args })}\nin ${c.cwd}. You are asked once per file.`,
      },
      run,
    );
    if (choice !== run) return undefined;
    const list = new Set(context.workspaceState.get<string[]>(CONFIRMED_KEY, []));
    list.add(c.id.replace(/^detected:/, ''));
    await context.workspaceState.update(CONFIRMED_KEY, [...list]);
    c.detected.confirmed = true;
  }
  try {
    return await vscode.window.withProgress({ location: { viewId: 'toolsmith.servers' }, title: `Starting ${c.name}` }, () => (restart ? manager.restart(c.id) : manager.start(c.id)));
  } catch (err) {
    if (err instanceof LaunchCancelled) return undefined;
    const message = (err as Error).message;
    const showLog = 'Show Log';
    if (err instanceof LaunchRefused && err.reason === 'untrusted') {
      void vscode.window.showWarningMessage(message, 'Manage Workspace Trust').then((a) => a && vscode.commands.executeCommand('workbench.trust.manage'));
    } else {
      // The likely cause and the stderr lines that say it, read from the session (a refusal has none).
      const s = manager.existingSession(c.id);
      const failure = err instanceof LaunchRefused ? undefined : sessionFailure(s, (dir) => fs.existsSync(dir));
      const text = failure ? maskText(startFailureMessage(c.name, failure), s?.spec) : message.split('\n')[0];
      void vscode.window.showErrorMessage(text, showLog).then((a) => a === showLog && channel(c).show(true));
    }
    throw err;
  } finally {
    tree.refresh();
  }
}

async function pickServer({ manager, refreshing }: Playground, arg: unknown, filter?: (c: ServerConfig) => boolean): Promise<ServerConfig | undefined> {
  const n = arg as Node | { serverId?: string } | undefined;
  if (n && 'kind' in n && 'config' in n) return n.config;
  if (n && 'serverId' in n && n.serverId) return manager.config(n.serverId);
  await refreshing();
  const candidates = manager.configs.filter(filter ?? (() => true));
  if (candidates.length <= 1) return candidates[0];
  const picked = await vscode.window.showQuickPick(
    candidates.map((c) => ({ label: c.name, description: `${c.origin} · ${manager.existingSession(c.id)?.status ?? 'stopped'}`, c })),
    { title: 'MCP server' },
  );
  return picked?.c;
}

/** Opens (or reveals) the server's playground on a tool, or on a resource (read at once) or prompt of its catalog. */
function openPanel(
  pg: Playground,
  c: ServerConfig,
  session: McpSession,
  tool?: string,
  catalog?: { resource?: string; template?: string; prompt?: string },
  autoCall?: { tool: string; args: Record<string, unknown> },
): void {
  const { context, panels, channel } = pg;
  const showCatalog: HostToWebview | undefined = catalog ? { type: 'showCatalog', ...catalog } : undefined;
  // A call the walkthrough asked for runs through the controller as if the panel had sent it, so it shows there.
  const call = (controller: PlaygroundController) => {
    if (autoCall) void controller.handle({ type: 'call', callId: `walkthrough-${Date.now()}`, tool: autoCall.tool, args: autoCall.args });
    autoCall = undefined;
  };
  const open = panels.get(c.id);
  if (open) {
    open.panel.reveal(undefined, false);
    if (tool) void open.panel.webview.postMessage({ type: 'select', tool });
    if (showCatalog) void open.panel.webview.postMessage(showCatalog);
    call(open.controller);
    return;
  }
  const root = vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview');
  const panel = vscode.window.createWebviewPanel('toolsmith.playground', `Playground: ${c.name}`, vscode.ViewColumn.Active, {
    enableScripts: true,
    localResourceRoots: [root],
    retainContextWhenHidden: true,
  });
  panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'toolsmith.svg');
  const nonce = makeNonce();
  panel.webview.html = playgroundHtml({
    cspSource: panel.webview.cspSource,
    nonce,
    scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'playground.js')).toString(),
    styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'playground.css')).toString(),
    codiconUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'codicon.css')).toString(),
    title: `Playground: ${c.name}`,
  });
  let initialTool = tool;
  let initialCatalog = showCatalog;
  // The session is running, so the MCP stack is loaded already: this require is a cache hit.
  const { PlaygroundController } = playgroundBundle();
  const controller = new PlaygroundController(c.id, c.name, session, {
    post: (m) => {
      if (m.type === 'init' && initialTool) {
        m.selected = initialTool;
        initialTool = undefined;
      }
      void panel.webview.postMessage(m);
      // The catalog request goes after the state it opens in.
      if (m.type === 'init' && initialCatalog) {
        void panel.webview.postMessage(initialCatalog);
        initialCatalog = undefined;
      }
    },
    copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
    readClipboard: () => Promise.resolve(vscode.env.clipboard.readText()),
    memento: context.workspaceState,
    secrets: context.secrets,
    timeoutMs: () => 1000 * Math.max(1, vscode.workspace.getConfiguration('toolsmith.playground').get<number>('timeoutSeconds', 60)),
    start: async (restart) => void (await startServer(pg, c, restart)),
    showLog: () => channel(c).show(true),
    goToDefinition: (name) => goToDefinition(pg, c, name),
    openExternal: async (url) => void (await vscode.env.openExternal(vscode.Uri.parse(url, true))),
    languageModel: vscodeLanguageModel(c.name),
    saveFile: async (name, content, filters) => {
      const base = folder()?.uri ?? vscode.Uri.file(process.cwd());
      const target = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.joinPath(base, name), filters, title: `Playground: ${c.name}` });
      if (!target) return undefined;
      await vscode.workspace.fs.writeFile(target, content);
      return target.fsPath;
    },
  });
  const sub = panel.webview.onDidReceiveMessage(async (m: WebviewToHost) => {
    await controller.handle(m);
    if (m.type === 'ready') call(controller);
  });
  panel.onDidDispose(() => {
    sub.dispose();
    controller.dispose();
    panels.delete(c.id);
  });
  panels.set(c.id, { panel, controller });
}

/**
 * "Ask the model" on a sampling request: VS Code's language model API (vscode.lm), when VS Code offers a model to
 * extensions. VS Code itself asks the developer's consent the first time (with the justification below); the
 * toolsmith.playground.sampling.languageModel setting turns the button off.
 */
function vscodeLanguageModel(serverName: string): LanguageModelHost {
  const enabled = () => vscode.workspace.getConfiguration('toolsmith.playground').get<boolean>('sampling.languageModel', true);
  const models = async () => (typeof vscode.lm?.selectChatModels === 'function' ? await vscode.lm.selectChatModels() : []);
  return {
    availability: async () => {
      if (!enabled()) return { available: false, reason: 'turned off by the setting toolsmith.playground.sampling.languageModel.' };
      const [model] = await models();
      return model ? { available: true, name: model.name } : { available: false, reason: 'VS Code offers no language model to extensions here (no chat model is installed, enabled or signed in).' };
    },
    ask: async (request, signal) => {
      if (!enabled()) throw new Error('turned off by the setting toolsmith.playground.sampling.languageModel.');
      const [model] = await models();
      if (!model) throw new Error('VS Code offers no language model to extensions here.');
      const tokens = new vscode.CancellationTokenSource();
      signal.addEventListener('abort', () => tokens.cancel(), { once: true });
      // The chat API has no system role: the system prompt goes first, as a user message saying so.
      const messages = [
        ...(request.systemPrompt ? [vscode.LanguageModelChatMessage.User(`System prompt: ${request.systemPrompt}`)] : []),
        ...request.messages.map((m) => (m.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(m.text) : vscode.LanguageModelChatMessage.User(m.text))),
      ];
      try {
        const response = await model.sendRequest(
          messages,
          { justification: `The MCP server "${serverName}" asks for a model reply (sampling) in the Toolsmith playground.`, modelOptions: { maxTokens: request.maxTokens } },
          tokens.token,
        );
        let text = '';
        for await (const chunk of response.text) text += chunk;
        return { text, model: model.id };
      } catch (err) {
        if (err instanceof vscode.LanguageModelError && err.code === vscode.LanguageModelError.NoPermissions.name)
          throw new Error('no consent to use the language model (VS Code asked, and it was not given).', { cause: err });
        throw err;
      } finally {
        tokens.dispose();
      }
    },
  };
}

async function goToDefinition({ lsp }: Playground, c: ServerConfig, name: string): Promise<void> {
  const client = lsp();
  if (!client) {
    void vscode.window.showWarningMessage('The Toolsmith language server is not running: cannot look up tool definitions.');
    return;
  }
  let tools: ToolSummary[];
  try {
    tools = (await client.sendRequest(WorkspaceToolsRequest, {})).tools ?? [];
  } catch (err) {
    void vscode.window.showWarningMessage(`Could not ask the language server for the workspace's tools: ${(err as Error).message}`);
    return;
  }
  const matches = tools.filter((t) => t.name === name);
  // Several servers may define the same name: prefer the one inside this server's folder.
  const inside = matches.filter((t) => !path.relative(c.watchRoot, vscode.Uri.parse(t.uri).fsPath).startsWith('..'));
  const target = (inside.length ? inside : matches)[0];
  if (!target) {
    void vscode.window.showInformationMessage(`No registerTool / @tool definition of "${name}" was found in the workspace.`);
    return;
  }
  const r = target.nameRange ?? target.range;
  const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
  await vscode.window.showTextDocument(vscode.Uri.parse(target.uri), { selection: range, preview: false });
}

function registerCommands(pg: Playground, scheduleRefresh: () => void): void {
  const { context, manager, tree, channel, refreshing } = pg;
  const run = (fn: () => Promise<unknown>) => fn().catch(() => undefined);
  context.subscriptions.push(
    vscode.commands.registerCommand('toolsmith.refreshServers', async () => {
      scheduleRefresh();
      await new Promise((r) => setTimeout(r, 600));
      await refreshing();
      tree.refresh();
    }),
    vscode.commands.registerCommand('toolsmith.startServer', (arg?: unknown) =>
      run(async () => {
        const c = await pickServer(pg, arg);
        if (c) await startServer(pg, c);
      }),
    ),
    vscode.commands.registerCommand('toolsmith.stopServer', (arg?: unknown) =>
      run(async () => {
        const c = await pickServer(pg, arg, (x) => !!manager.existingSession(x.id)?.running);
        if (c) await manager.stop(c.id);
        tree.refresh();
      }),
    ),
    vscode.commands.registerCommand('toolsmith.restartServer', (arg?: unknown) =>
      run(async () => {
        const c = await pickServer(pg, arg);
        if (c) await startServer(pg, c, true);
      }),
    ),
    vscode.commands.registerCommand('toolsmith.createMcpJson', () => run(() => createMcpJson(pg))),
    vscode.commands.registerCommand('toolsmith.showServerLog', async (arg?: unknown) => {
      const c = await pickServer(pg, arg);
      if (c) channel(c).show(true);
    }),
    vscode.commands.registerCommand('toolsmith.subscribeResource', (arg?: unknown) => run(() => setSubscribed(pg, arg, true))),
    vscode.commands.registerCommand('toolsmith.unsubscribeResource', (arg?: unknown) => run(() => setSubscribed(pg, arg, false))),
    vscode.commands.registerCommand('toolsmith.goToToolDefinition', async (arg?: unknown) => {
      const n = arg as Node | undefined;
      if (n?.kind === 'tool') await goToDefinition(pg, n.config, n.tool.name);
    }),
    vscode.commands.registerCommand('toolsmith.openPlayground', (arg?: unknown) =>
      run(async () => {
        // From the tree (a server or a tool node), or from the "Run in playground" CodeLens: { uri, toolName }.
        const lens = arg as { uri?: string; toolName?: string } | undefined;
        let c: ServerConfig | undefined;
        let tool: string | undefined;
        let catalog: { resource?: string; template?: string; prompt?: string } | undefined;
        if (lens && typeof lens === 'object' && 'toolName' in lens) {
          tool = lens.toolName;
          await refreshing();
          const file = lens.uri ? vscode.Uri.parse(lens.uri).fsPath : undefined;
          const running = manager.configs.filter((x) => manager.existingSession(x.id)?.tools.some((t) => t.name === tool));
          const byFolder = manager.configs.filter((x) => file && !path.relative(x.watchRoot, file).startsWith('..')).sort((a, b) => b.watchRoot.length - a.watchRoot.length);
          const bySource = manager.configs.filter((x) => x.detected?.sourceFile === file || x.args.some((a) => file && a.endsWith(path.basename(file))));
          c = running[0] ?? bySource[0] ?? (byFolder.length === 1 ? byFolder[0] : await pickServer(pg, undefined));
        } else {
          c = await pickServer(pg, arg);
          const n = arg as Node | undefined;
          if (n?.kind === 'tool') tool = n.tool.name;
          if (n?.kind === 'resource') catalog = { resource: n.resource.uri };
          if (n?.kind === 'template') catalog = { template: n.template.uriTemplate };
          if (n?.kind === 'prompt') catalog = { prompt: n.prompt.name };
        }
        if (!c) {
          void vscode.window.showInformationMessage('No MCP server to run this tool: add one to .vscode/mcp.json or the toolsmith.servers setting.');
          return;
        }
        let s = manager.existingSession(c.id);
        if (!s?.running) s = await startServer(pg, c);
        if (s) openPanel(pg, c, s, tool, catalog);
      }),
    ),
    { dispose: () => void manager.stopAll() },
  );
}

/** resources/subscribe or resources/unsubscribe for a resource of the Servers tree; a refusal is shown. */
async function setSubscribed({ manager, tree }: Playground, arg: unknown, on: boolean): Promise<void> {
  const n = arg as Node | undefined;
  if (n?.kind !== 'resource') return;
  const s = manager.existingSession(n.config.id);
  try {
    if (!s) throw new Error(`${n.config.name} is not running.`);
    if (on) await s.subscribeResource(n.resource.uri);
    else await s.unsubscribeResource(n.resource.uri);
  } catch (err) {
    void vscode.window.showErrorMessage(`resources/${on ? 'subscribe' : 'unsubscribe'} ${n.resource.uri}: ${(err as Error).message}`);
  } finally {
    tree.refresh();
  }
}

/**
 * Writes .vscode/mcp.json from the detected servers (or a commented skeleton when there are none) and opens it; an
 * existing file is opened, never overwritten.
 */
async function createMcpJson({ manager, refreshing }: Playground): Promise<void> {
  const f = folder();
  if (!f) {
    void vscode.window.showInformationMessage('Open a folder first: .vscode/mcp.json belongs to a workspace folder.');
    return;
  }
  const file = vscode.Uri.joinPath(f.uri, '.vscode', 'mcp.json');
  const exists = await vscode.workspace.fs.stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await refreshing();
    const detected = manager.configs.filter((c) => c.origin === 'detected');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(f.uri, '.vscode'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(mcpJsonFromDetected(f.uri.fsPath, detected)));
  }
  await vscode.window.showTextDocument(file, { preview: false });
}

/** Time of day for output channel lines. */
function stamp(): string {
  return new Date().toISOString().slice(11, 23);
}

function debounce(fn: () => void, ms: number): () => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(t);
    t = setTimeout(fn, ms);
  };
}

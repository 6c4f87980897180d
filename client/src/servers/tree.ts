/** The "Servers" view: each discovered server with its status, then its tools with a risk badge. */
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { RiskLevel } from '../../../common/risk';
import type { ServerManager } from './manager';
import type { ServerConfig } from './discovery';
import { describeLaunch } from './discovery';
import { maskText } from './secrets';
import { sessionFailure, type StartFailure } from './startFailure';
import type { ServerToolsResult } from '../../../common/protocol';
import {
  groupChildren,
  predictedChildren,
  predictedToolText,
  serverScript,
  groupText,
  promptText,
  resourceSubscription,
  resourceText,
  serverActions,
  serverChildren,
  serverText,
  templateText,
  toolText,
  type GroupChild,
  type PredictedChild,
  type ServerAction,
  type ServerChild,
} from './treeModel';

export type Node =
  | { kind: 'server'; config: ServerConfig }
  | { kind: 'tool'; config: ServerConfig; tool: Tool }
  | Extract<ServerChild, { kind: 'group' }>
  | Exclude<GroupChild, { kind: 'note' }>
  | ServerAction
  | Extract<PredictedChild, { kind: 'predicted' }>
  | { kind: 'message'; text: string; tooltip?: string; icon?: string; command?: vscode.Command };

/** Asks the language server for the whole server a workspace file starts (`toolsmith/serverTools`); undefined without it. */
export type PredictServer = (file: string) => Promise<ServerToolsResult | undefined>;

/** Origins that are an mcp.json file: with none, the view offers to write one from the detected servers. */
const MCP_JSON_ORIGINS = new Set(['.vscode/mcp.json', '.mcp.json', 'mcp.json']);

const ACTION_COMMAND: Record<ServerAction['action'], string> = { start: 'toolsmith.startServer', confirm: 'toolsmith.startServer', showLog: 'toolsmith.showServerLog' };

const STATUS_ICON: Record<string, [string, string | undefined]> = {
  running: ['pass-filled', 'testing.iconPassed'],
  starting: ['loading~spin', undefined],
  stopping: ['loading~spin', undefined],
  stopped: ['circle-outline', undefined],
  crashed: ['error', 'errorForeground'],
  failed: ['error', 'errorForeground'],
};

const RISK_ICON: Record<RiskLevel, [string, string | undefined]> = {
  Low: ['eye', undefined],
  Medium: ['edit', 'editorWarning.foreground'],
  High: ['warning', 'errorForeground'],
  Critical: ['flame', 'errorForeground'],
};

export class ServersTree implements vscode.TreeDataProvider<Node> {
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly manager: ServerManager,
    private readonly isTrusted: () => boolean,
    /** A server that is not running shows the tools predicted for its script (none without a language server). */
    private readonly predict?: PredictServer,
  ) {
    manager.on('changed', () => this.emitter.fire(undefined));
  }

  /** The tools predicted for a stopped server whose command runs a workspace file (its live list once it runs). */
  private async predictedRows(c: ServerConfig): Promise<Node[]> {
    const s = this.manager.existingSession(c.id);
    const root = c.watchRoot || vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const script = this.predict && root && !s?.running ? serverScript(c, root, (f) => fs.existsSync(f)) : undefined;
    if (!script || !this.predict) return [];
    const prediction = await this.predict(script).catch(() => undefined);
    return predictedChildren(c, script, prediction, !!s?.running).map((r): Node =>
      r.kind === 'note' ? { kind: 'message', text: r.text, tooltip: r.tooltip, icon: r.error ? 'warning' : 'lightbulb' } : r,
    );
  }

  refresh(): void {
    this.emitter.fire(undefined);
  }

  /** Why the server's last start failed, read from its session (undefined while it has not failed). */
  failure(c: ServerConfig): StartFailure | undefined {
    return sessionFailure(this.manager.existingSession(c.id), (dir) => fs.existsSync(dir));
  }

  private serverRows(c: ServerConfig): Node[] {
    const s = this.manager.existingSession(c.id);
    return [...serverActions(c, s, this.isTrusted(), this.failure(c)), ...serverChildren(c, s)];
  }

  getChildren(node?: Node): Node[] | Promise<Node[]> {
    if (!node) {
      const out: Node[] = [];
      if (!this.isTrusted()) {
        out.push({
          kind: 'message',
          text: 'Restricted Mode: servers are not launched',
          icon: 'shield',
          tooltip: 'Trust this workspace to start MCP servers from the playground.',
          command: { title: 'Manage Workspace Trust', command: 'workbench.trust.manage' },
        });
      }
      out.push(...this.manager.configs.map((config): Node => ({ kind: 'server', config })));
      for (const p of this.manager.problems)
        out.push({ kind: 'message', text: p.message, icon: 'warning', tooltip: p.file, command: { title: 'Open', command: 'vscode.open', arguments: [vscode.Uri.file(p.file)] } });
      for (const s of this.manager.skipped) out.push({ kind: 'message', text: `${s.name}: skipped`, icon: 'info', tooltip: `${s.origin}: ${s.reason}` });
      const detected = this.manager.configs.filter((c) => c.origin === 'detected');
      if (detected.length && !this.manager.configs.some((c) => MCP_JSON_ORIGINS.has(c.origin))) {
        out.push({
          kind: 'message',
          // Short enough for the default side-bar width; what it writes is in the tooltip.
          text: 'Save to .vscode/mcp.json',
          icon: 'new-file',
          tooltip: `Writes .vscode/mcp.json with the command that runs ${detected.length === 1 ? 'the detected server' : `each of the ${detected.length} detected servers`}, so VS Code, the playground and your MCP clients start them the same way.`,
          command: { title: 'Create .vscode/mcp.json', command: 'toolsmith.createMcpJson' },
        });
      }
      // Nothing at all: the welcome view (contributes.viewsWelcome) offers to create .vscode/mcp.json.
      return out;
    }
    if (node.kind === 'server') {
      const rows = this.serverRows(node.config);
      if (this.manager.existingSession(node.config.id)?.running) return rows;
      return this.predictedRows(node.config).then((predicted) => [...rows, ...predicted]);
    }
    if (node.kind === 'group') {
      return groupChildren(node.config, this.manager.existingSession(node.config.id), node.group).map((c): Node =>
        c.kind === 'note' ? { kind: 'message', text: c.text, icon: c.error ? 'warning' : 'info' } : c,
      );
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.tooltip = node.tooltip;
      item.iconPath = node.icon ? new vscode.ThemeIcon(node.icon) : undefined;
      item.command = node.command;
      item.contextValue = 'toolsmith.message';
      return item;
    }
    if (node.kind === 'action') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
      item.id = `action:${node.config.id}:${node.action}`;
      item.tooltip = node.tooltip;
      item.iconPath = new vscode.ThemeIcon(node.icon, node.action === 'showLog' ? new vscode.ThemeColor('errorForeground') : undefined);
      item.command = { title: node.label, command: ACTION_COMMAND[node.action], arguments: [{ kind: 'server', config: node.config } satisfies Node] };
      item.contextValue = `toolsmith.action.${node.action}`;
      return item;
    }
    if (node.kind === 'server') {
      const c = node.config;
      const s = this.manager.existingSession(c.id);
      const status = s?.status ?? 'stopped';
      const unconfirmed = c.detected && !c.detected.confirmed;
      const failure = this.failure(c);
      const text = serverText(c, s, failure);
      const rows = this.serverRows(c);
      const tools = serverChildren(c, s).length > 0;
      const item = new vscode.TreeItem(text.label, rows.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
      // What it shows is part of the id: VS Code keeps a node's collapsed state per id, and a server that just
      // started should show its tools, a stopped one its Start row.
      item.id = `server:${c.id}:${tools ? 'tools' : rows.length ? 'actions' : 'idle'}`;
      item.description = text.description;
      const [icon, color] = unconfirmed ? ['question', undefined] : STATUS_ICON[status];
      item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
      const tip = new vscode.MarkdownString();
      tip.appendMarkdown(`${text.tooltip}\n\n`);
      tip.appendCodeblock(maskText(describeLaunch({ command: c.command, args: c.args }), s?.spec), 'sh');
      if (s?.protocolVersion) tip.appendMarkdown(`\n\nprotocol ${s.protocolVersion}`);
      if (s?.lastError && !failure) tip.appendMarkdown(`\n\n${s.lastError.message.split('\n')[0]}`);
      if (failure?.evidence.length) tip.appendCodeblock(failure.evidence.join('\n'), 'text');
      item.tooltip = tip;
      item.contextValue = `toolsmith.server.${unconfirmed ? 'unconfirmed' : s?.running ? 'running' : 'stopped'}`;
      item.command = unconfirmed
        ? { title: 'Confirm and start', command: 'toolsmith.startServer', arguments: [node] }
        : // A click opens the playground, starting the server first when it is not running.
          { title: 'Open Playground', command: 'toolsmith.openPlayground', arguments: [node] };
      return item;
    }
    if (node.kind === 'group') {
      const text = groupText(node);
      const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `${node.group}:${node.config.id}`;
      item.description = text.description;
      item.tooltip = new vscode.MarkdownString(text.tooltip);
      item.iconPath = new vscode.ThemeIcon(node.group === 'resources' ? 'files' : node.group === 'templates' ? 'symbol-namespace' : 'comment-discussion');
      item.contextValue = `toolsmith.${node.group}`;
      return item;
    }
    if (node.kind === 'template') {
      const text = templateText(node.template);
      const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
      item.id = `template:${node.config.id}:${node.template.uriTemplate}`;
      item.description = text.description;
      item.tooltip = new vscode.MarkdownString(text.tooltip);
      item.iconPath = new vscode.ThemeIcon('file-symlink-file');
      item.contextValue = 'toolsmith.template';
      // A click opens the playground on its variables form; the resource is read once they are given.
      item.command = { title: 'Read in Playground', command: 'toolsmith.openPlayground', arguments: [node] };
      return item;
    }
    if (node.kind === 'resource' || node.kind === 'prompt') {
      const text = node.kind === 'resource' ? resourceText(node.resource) : promptText(node.prompt);
      const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
      item.id = node.kind === 'resource' ? `resource:${node.config.id}:${node.resource.uri}` : `prompt:${node.config.id}:${node.prompt.name}`;
      item.description = text.description;
      const tip = new vscode.MarkdownString();
      tip.appendMarkdown(text.tooltip);
      item.tooltip = tip;
      item.iconPath = new vscode.ThemeIcon(node.kind === 'resource' ? 'file' : 'comment');
      item.contextValue = `toolsmith.${node.kind}`;
      if (node.kind === 'resource') {
        const sub = resourceSubscription(node.resource, this.manager.existingSession(node.config.id));
        item.contextValue = sub.contextValue;
        if (sub.mark) item.description = [sub.mark, text.description].filter(Boolean).join(' · ');
        if (sub.mark?.startsWith('updated')) item.iconPath = new vscode.ThemeIcon('file', new vscode.ThemeColor('editorWarning.foreground'));
      }
      // A click opens the playground on it: a resource is read there, a prompt is got there (once its arguments are given).
      item.command = { title: node.kind === 'resource' ? 'Read in Playground' : 'Open in Playground', command: 'toolsmith.openPlayground', arguments: [node] };
      return item;
    }
    if (node.kind === 'predicted') {
      const text = predictedToolText(node.tool, node.server);
      const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
      item.id = `predicted:${node.config.id}:${node.tool.uri}:${node.tool.name ?? node.tool.range.start.line}`;
      item.description = text.description;
      item.tooltip = new vscode.MarkdownString(text.tooltip);
      item.iconPath = new vscode.ThemeIcon('symbol-method');
      item.contextValue = 'toolsmith.predictedTool';
      // Not running: a click previews the predicted contract (the playground needs the server).
      item.command = { title: 'Preview Contract', command: 'toolsmith.previewContract', arguments: [{ uri: node.tool.uri, toolName: node.tool.name ?? null }] };
      return item;
    }
    const text = toolText(node.tool);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.id = `tool:${node.config.id}:${node.tool.name}`;
    item.description = text.description;
    const [icon, color] = RISK_ICON[text.risk.level];
    item.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    item.tooltip = new vscode.MarkdownString(text.tooltip);
    item.contextValue = 'toolsmith.tool';
    item.command = { title: 'Open Playground', command: 'toolsmith.openPlayground', arguments: [node] };
    return item;
  }
}

/**
 * "Toolsmith: Preview Contract" (toolsmith.previewContract). Reached from the command palette, the editor context
 * menu, the CodeLens ({uri, toolName}) and the servers tree; previews the tool under the cursor, else offers a quick
 * pick of every tool in the workspace.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ToolsRequest, WorkspaceToolsRequest, type ToolSummary } from '../../../common/protocol';
import { PreviewPanel, type PreviewServers } from './panel';

export const PREVIEW_COMMAND = 'toolsmith.previewContract';

export interface PreviewRegistration {
  client: LanguageClient;
  log: vscode.LogOutputChannel | vscode.OutputChannel;
  /** The server manager's sessions: a server the playground already runs is compared without a second process. */
  servers: PreviewServers;
}

/** What the command may be called with: CodeLens args, a tree item, an explorer/editor URI, or nothing. */
type CommandArg = { uri?: string | vscode.Uri; toolName?: string | null; tool?: { uri?: string; name?: string | null } } | vscode.Uri | undefined;

function uriString(u: string | vscode.Uri | undefined): string | undefined {
  return u === undefined ? undefined : typeof u === 'string' ? u : u.toString();
}

/** Pulls {uri, toolName} out of whatever invoked the command. */
export function targetOf(arg: CommandArg): { uri?: string; toolName?: string | null } {
  if (!arg) return {};
  if (arg instanceof vscode.Uri) return { uri: arg.toString() };
  if (arg.tool) return { uri: arg.tool.uri, toolName: arg.tool.name ?? null };
  return { uri: uriString(arg.uri), toolName: arg.toolName };
}

async function toolsOf(client: LanguageClient, uri: string): Promise<ToolSummary[]> {
  return (await client.sendRequest(ToolsRequest, { uri })).tools;
}

function contains(t: ToolSummary, pos: vscode.Position): boolean {
  const r = new vscode.Range(t.range.start.line, t.range.start.character, t.range.end.line, t.range.end.character);
  return r.contains(pos);
}

async function pickTool(client: LanguageClient, preferUri?: string): Promise<ToolSummary | undefined> {
  const all = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Toolsmith: reading the workspace tools' }, () =>
    client.sendRequest(WorkspaceToolsRequest, {}).then((r) => r.tools),
  );
  // The file at hand may not be in the workspace scan (untitled, outside the folders): add its tools.
  if (preferUri && !all.some((t) => t.uri === preferUri)) all.unshift(...(await toolsOf(client, preferUri)));
  if (all.length === 0) {
    void vscode.window.showInformationMessage('No MCP tool found in this workspace (TypeScript registerTool / Python @tool).');
    return undefined;
  }
  const items = all.map((t) => ({
    label: t.name ?? '(unresolved name)',
    description: `${vscode.workspace.asRelativePath(vscode.Uri.parse(t.uri))}:${t.range.start.line + 1}`,
    detail: typeof t.contract.description === 'string' ? t.contract.description.split('\n')[0] : 'no description',
    tool: t,
  }));
  items.sort((a, b) => Number(b.tool.uri === preferUri) - Number(a.tool.uri === preferUri));
  const picked = await vscode.window.showQuickPick(items, { title: 'Preview Contract', placeHolder: 'Pick a tool to preview its contract', matchOnDescription: true, matchOnDetail: true });
  return picked?.tool;
}

export function registerPreview(context: vscode.ExtensionContext, { client, log, servers }: PreviewRegistration): void {
  const deps = { client, log, servers, extensionUri: context.extensionUri };
  context.subscriptions.push(
    { dispose: () => PreviewPanel.current?.dispose() },
    vscode.commands.registerCommand(PREVIEW_COMMAND, async (arg?: CommandArg) => {
      try {
        const target = targetOf(arg);
        const editor = vscode.window.activeTextEditor;
        const uri = target.uri ?? editor?.document.uri.toString();
        let tool: ToolSummary | undefined;
        if (uri) {
          const tools = await toolsOf(client, uri);
          if (target.toolName !== undefined && target.toolName !== null) tool = tools.find((t) => t.name === target.toolName);
          else if (editor && editor.document.uri.toString() === uri) tool = tools.find((t) => contains(t, editor.selection.active));
          if (!tool && target.toolName == null && tools.length === 1) tool = tools[0];
        }
        if (!tool && target.toolName) {
          // From the Servers tree a live tool carries only its name: find where the workspace defines it.
          const named = (await client.sendRequest(WorkspaceToolsRequest, {})).tools.filter((t) => t.name === target.toolName);
          if (named.length === 1) tool = named[0];
        }
        tool ??= await pickTool(client, uri);
        if (tool) PreviewPanel.show(deps, tool);
      } catch (err) {
        log.appendLine(`Preview Contract failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        void vscode.window.showErrorMessage(`Preview Contract failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }),
  );
}

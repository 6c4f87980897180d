/**
 * vscode glue of the "Get Started with MCP Toolsmith" walkthrough (contributes.walkthroughs): it opens once per
 * workspace on the first activation that finds MCP servers (and always from `npm run demo`, which sets
 * TOOLSMITH_OPEN_WALKTHROUGH), and from the palette. Each step's button runs one of the commands below on the
 * workspace's first server: show a finding and its quick fixes, preview the contract, start the server and call a
 * tool in the playground, run the CLI as CI would.
 */
import * as vscode from 'vscode';
import type { ServerConfig } from '../servers/discovery';
import type { PlaygroundRegistration } from '../playground';
import { firstCallTool, sampleArguments, sourceFileOf } from './model';

export const WALKTHROUGH_ID = 'toolsmith.toolsmith#gettingStarted';
const SHOWN_KEY = 'toolsmith.walkthrough.shown';

const folder = () => vscode.workspace.workspaceFolders?.[0];

/**
 * Puts the cursor on the first Toolsmith finding of the editor's file, waiting for the language server's first
 * analysis of it; false (and, when `tell`, a message) when the file has none.
 */
async function selectFirstFinding(editor: vscode.TextEditor, tell = true): Promise<boolean> {
  const uri = editor.document.uri;
  const findings = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'toolsmith');
  const deadline = Date.now() + 20_000;
  while (findings().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const first = findings().sort((a, b) => a.range.start.compareTo(b.range.start))[0];
  if (!first) {
    if (tell) void vscode.window.showInformationMessage(`${vscode.workspace.asRelativePath(uri)} has no Toolsmith finding: its tools follow every rule.`);
    return false;
  }
  // Through showTextDocument: the editor takes the focus with the selection, so the quick-fix menu opens in it.
  await vscode.window.showTextDocument(editor.document, { selection: first.range, preview: false, viewColumn: editor.viewColumn });
  editor.revealRange(first.range, vscode.TextEditorRevealType.InCenter);
  // The code actions are asked for at the new selection: give the editor a moment to take it.
  await new Promise((r) => setTimeout(r, 500));
  return true;
}

export function registerOnboarding(context: vscode.ExtensionContext, playground: PlaygroundRegistration): void {
  const { manager } = playground;
  const open = () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);

  /** The server the steps use: a configured one first (the example workspace declares helpdesk first). */
  const server = async (): Promise<ServerConfig | undefined> => {
    await playground.refreshing();
    const c = manager.configs.find((x) => x.origin !== 'detected') ?? manager.configs[0];
    if (!c) void vscode.window.showInformationMessage('No MCP server in this workspace yet: add one to .vscode/mcp.json (the Servers view offers to create it).');
    return c;
  };

  /** Opens the source file the first server runs. */
  const openSource = async (): Promise<vscode.TextEditor | undefined> => {
    const c = await server();
    const f = folder();
    const file = c && f ? sourceFileOf(c, f.uri.fsPath) : undefined;
    if (!file) {
      if (c) void vscode.window.showInformationMessage(`${c.name} runs no source file of this workspace: open one of your tool files instead.`);
      return undefined;
    }
    return vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
  };

  context.subscriptions.push(
    vscode.commands.registerCommand('toolsmith.openWalkthrough', open),

    vscode.commands.registerCommand('toolsmith.walkthrough.showFinding', async () => {
      const editor = await openSource();
      if (editor && (await selectFirstFinding(editor))) await vscode.commands.executeCommand('editor.action.quickFix');
    }),

    vscode.commands.registerCommand('toolsmith.walkthrough.previewContract', async () => {
      const editor = await openSource();
      if (!editor) return;
      // The cursor on a finding is inside a tool: the preview opens on it (without one it offers the list of tools).
      await selectFirstFinding(editor, false);
      await vscode.commands.executeCommand('toolsmith.previewContract');
    }),

    vscode.commands.registerCommand('toolsmith.walkthrough.callTool', async () => {
      const c = await server();
      if (!c) return;
      const s = manager.existingSession(c.id)?.running ? manager.existingSession(c.id) : await playground.startServer(c, false).catch(() => undefined);
      if (!s) return;
      const tool = firstCallTool(s.tools);
      if (!tool) {
        void vscode.window.showInformationMessage(`${c.name} lists no tool.`);
        return;
      }
      await playground.openPlayground(c, tool.name, sampleArguments(tool.inputSchema));
    }),

    vscode.commands.registerCommand('toolsmith.walkthrough.runCli', () => {
      const f = folder();
      if (!f) return;
      const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
      // The CLI is the bundled dist/cli.js, run by the editor's own Node (ELECTRON_RUN_AS_NODE makes VS Code's
      // executable behave as node); in CI it is `npx toolsmith check`.
      const terminal = vscode.window.createTerminal({ name: 'Toolsmith CLI', cwd: f.uri, env: { ELECTRON_RUN_AS_NODE: '1' } });
      terminal.show();
      terminal.sendText(`"${process.execPath}" "${cli}" check .`);
    }),
  );

  // Once per workspace, when its servers are known: the demo asks for it on every start.
  const forced = process.env.TOOLSMITH_OPEN_WALKTHROUGH === '1';
  const wanted = () => forced || (vscode.workspace.getConfiguration('toolsmith.walkthrough').get<boolean>('openOnStartup', true) && !context.workspaceState.get<boolean>(SHOWN_KEY));
  if (!wanted()) return;
  const show = async () => {
    await context.workspaceState.update(SHOWN_KEY, true);
    if (forced) {
      // What competes with the walkthrough on a first look: the chat side bar and the bottom panel.
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
      await vscode.commands.executeCommand('workbench.action.closePanel').then(undefined, () => undefined);
      await vscode.commands.executeCommand('workbench.view.extension.toolsmith').then(undefined, () => undefined);
    }
    await open();
  };
  const onChange = () => {
    if (manager.configs.length === 0) return;
    manager.off('changed', onChange);
    void show();
  };
  manager.on('changed', onChange);
}

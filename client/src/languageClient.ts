import * as vscode from 'vscode';
import { WorkspaceTrustNotification } from '../../common/protocol';
import { LanguageClient, TransportKind, CloseAction, ErrorAction, type LanguageClientOptions, type ServerOptions, type ErrorHandler } from 'vscode-languageclient/node';

/** How many crashes within CRASH_WINDOW_MS we tolerate before giving up (the server restarts after each). */
export const MAX_RESTARTS = 4;
const CRASH_WINDOW_MS = 3 * 60 * 1000;

/** Restarts the server after a crash, at most MAX_RESTARTS times in three minutes, then tells the user. */
class BoundedRestartErrorHandler implements ErrorHandler {
  private readonly crashes: number[] = [];
  constructor(private readonly log: vscode.LogOutputChannel) {}
  error() {
    return { action: ErrorAction.Continue };
  }
  closed() {
    const now = Date.now();
    this.crashes.push(now);
    while (this.crashes.length && now - this.crashes[0] > CRASH_WINDOW_MS) this.crashes.shift();
    if (this.crashes.length > MAX_RESTARTS) {
      const message = `The Toolsmith language server crashed ${this.crashes.length} times in 3 minutes and will not be restarted. See the "Toolsmith Language Server" output for details.`;
      this.log.appendLine(message);
      return { action: CloseAction.DoNotRestart, message };
    }
    this.log.appendLine(`Language server stopped unexpectedly; restarting (${this.crashes.length}/${MAX_RESTARTS}).`);
    return { action: CloseAction.Restart, handled: true };
  }
}

export function createLanguageClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6012'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'typescript' },
      { scheme: 'file', language: 'javascript' },
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'typescript' },
      { scheme: 'untitled', language: 'python' },
    ],
    // toolsmith.trace.server is read by the client library itself from the section name below.
    synchronize: { configurationSection: 'toolsmith' },
    // Trusted: the server's analysis workers convert contracts with the workspace's own SDK and zod (as the ESLint extension runs its ESLint).
    // A function: read at each (re)start, so a server restarted after trust was granted starts trusted.
    initializationOptions: () => ({ settings: vscode.workspace.getConfiguration('toolsmith'), workspaceTrusted: vscode.workspace.isTrusted }),
    outputChannel: log,
    errorHandler: new BoundedRestartErrorHandler(log),
  };
  const client = new LanguageClient('toolsmith', 'Toolsmith Language Server', serverOptions, clientOptions);
  // Granting trust later (restricted mode lifted) tells the server, whose workers then use the workspace's copies.
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      if (client.isRunning()) void client.sendNotification(WorkspaceTrustNotification, { trusted: true });
    }),
  );
  return client;
}

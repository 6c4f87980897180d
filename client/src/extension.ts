import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { createLanguageClient } from './languageClient';
import { registerPreview } from './preview';
import { registerPlayground } from './playground';
import { registerOnboarding } from './onboarding';
import { runIntegrationSuiteIfAsked } from './testHook';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const started = Date.now();
  const log = vscode.window.createOutputChannel('Toolsmith Language Server', { log: true });
  context.subscriptions.push(log);

  client = createLanguageClient(context, log);
  // Views and commands first: the Servers view and the playground work without the language server, and a server
  // that cannot start must not leave every Toolsmith command "not found". Requests sent meanwhile wait for the start.
  // The preview compares with the playground's running servers rather than starting its own copies.
  const playground = registerPlayground(context, { client, log });
  const { manager, startServer } = playground;
  registerPreview(context, { client, log, servers: { manager, start: startServer } });
  registerOnboarding(context, playground);
  try {
    await client.start();
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.appendLine(`The Toolsmith language server did not start: ${reason}`);
    void vscode.window.showErrorMessage(
      `The Toolsmith language server did not start (${reason}): no diagnostics or contract preview. The Servers view and the playground still work. See the "Toolsmith Language Server" output.`,
    );
  }

  // Activation time is read by the end-to-end suite and the benchmark from this log line.
  log.appendLine(`Toolsmith activated in ${Date.now() - started} ms`);
  runIntegrationSuiteIfAsked();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}

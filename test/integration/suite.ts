/**
 * In-editor integration suite: mocha (TDD interface) inside a VS Code extension host, on the `vscode` API. The same
 * file runs under @vscode/test-electron (desktop VS Code, test/integration/run-electron.ts) and under code-server
 * (test/integration/run-code-server.ts); index.ts is the extensionTestsPath entry that loads it into mocha.
 * The workspace is a copy of examples/ (the suite edits a file).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';

// mocha's TDD globals, declared here so the test project type-checks without mocha's types installed.
declare const suite: (name: string, fn: () => void) => void;
declare const test: (name: string, fn: () => Promise<void>) => void;

const EXTENSION_ID = 'toolsmith.toolsmith';

async function until<T>(what: string, timeoutMs: number, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function exampleUri(rel: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration suite needs a workspace folder (a copy of examples/)');
  return vscode.Uri.file(path.join(folder.uri.fsPath, rel));
}

const ruleOf = (d: vscode.Diagnostic): string => String(typeof d.code === 'object' ? d.code.value : d.code);
const toolsmithDiagnostics = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'toolsmith');

suite('Toolsmith in the editor', () => {
  test('the extension activates on the example file', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} is installed`);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(exampleUri('helpdesk-ts/src/server.ts')));
    await until('the extension to activate', 60_000, () => (ext.isActive ? true : undefined));
  });

  test('diagnostics appear on the example file', async () => {
    const uri = exampleUri('helpdesk-ts/src/server.ts');
    const diagnostics = await until('Toolsmith diagnostics on helpdesk-ts/src/server.ts', 60_000, () => {
      const found = toolsmithDiagnostics(uri);
      return found.length ? found : undefined;
    });
    assert.ok(
      diagnostics.every((d) => typeof d.code === 'object' && /^[a-z0-9-]+$/.test(String(d.code.value))),
      'each names its rule',
    );
  });

  test('a quick fix applies and its diagnostic goes away', async () => {
    const uri = exampleUri('helpdesk-ts/src/server.ts');
    const doc = await vscode.workspace.openTextDocument(uri);
    let applied: { rule: string; before: number } | undefined;
    const seen: string[] = [];
    for (const d of toolsmithDiagnostics(uri)) {
      const actions = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, d.range)) ?? [];
      seen.push(`${ruleOf(d)}: ${actions.map((a) => `${a.title}${'edit' in a && a.edit ? ' (edit)' : ''}`).join(', ') || 'no actions'}`);
      // Toolsmith marks the first fix of a finding preferred (the TypeScript refactorings around it are not).
      const fix = actions.find((a): a is vscode.CodeAction => 'edit' in a && !!a.edit && (a.isPreferred === true || !!a.diagnostics?.some((x) => x.source === 'toolsmith' && ruleOf(x) === ruleOf(d))));
      if (!fix?.edit) continue;
      const rule = ruleOf(d);
      applied = { rule, before: toolsmithDiagnostics(uri).filter((x) => ruleOf(x) === rule).length };
      assert.ok(await vscode.workspace.applyEdit(fix.edit), `the edit of "${fix.title}" applies`);
      break;
    }
    assert.ok(applied, `at least one Toolsmith diagnostic on the example offers a quick fix with an edit; offered:\n${seen.join('\n')}`);
    const { rule, before } = applied;
    await until(`one ${rule} finding fewer after the fix`, 30_000, () =>
      toolsmithDiagnostics(uri).filter((x) => String(typeof x.code === 'object' ? x.code.value : x.code) === rule).length < before ? true : undefined,
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.ok(!doc.isDirty || doc.isClosed);
  });

  test('the commands are registered and one runs', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['toolsmith.previewContract', 'toolsmith.refreshServers', 'toolsmith.startServer', 'toolsmith.openPlayground']) assert.ok(commands.includes(c), `${c} is registered`);
    await vscode.commands.executeCommand('toolsmith.refreshServers');
  });

  test('the Servers view is registered and opens', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('toolsmith.servers.focus'), 'the toolsmith.servers view contributes its focus command');
    await vscode.commands.executeCommand('toolsmith.servers.focus');
  });
});

/**
 * Workspace-level behaviour: the start-up scan (index, diagnostics of closed files, toolsmith/workspaceTools) and
 * re-analysis of files importing a schema file when it changes (open document or file watcher).
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeAction } from 'vscode-languageserver-protocol';
import { LspClient, fileUri, tempDir, writeTree } from './harness';
import { loadFixture, describeAll, severityName } from './fixtures';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A temporary workspace: {path in it: fixture whose (stripped) code it holds}. */
function workspace(files: Record<string, string>): string {
  const dir = tempDir();
  dirs.push(dir);
  writeTree(dir, Object.fromEntries(Object.entries(files).map(([rel, fixture]) => [rel, loadFixture(fixture).code])));
  return dir;
}

test('workspace scan: indexes tool files, publishes diagnostics of closed files with findings, answers workspaceTools', async () => {
  const dir = workspace({
    'src/helpdesk.ts': 'ts/helpdesk.ts',
    'py/docs_server.py': 'py/docs_server.py',
    'src/search.ts': 'clean/search.ts',
    'node_modules/dep/helpdesk.ts': 'ts/helpdesk.ts',
    '.venv/lib/docs_server.py': 'py/docs_server.py',
  });
  fs.writeFileSync(path.join(dir, 'src/util.ts'), 'export const x = 1;\n');
  // The fixtures' marks pin every rule (strict preset), as in fixtures.test.ts.
  const client = await LspClient.start({ workspaceFolders: [dir], initializationOptions: { diagnosticsDelayMs: 0, settings: { preset: 'strict' } } });
  try {
    const scan = await client.scanned();
    assert.equal(scan.toolFiles, 3);
    assert.equal(scan.tools, 5);
    const { tools } = await client.workspaceTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['close_ticket', 'grep_docs', 'read_doc', 'search_products', 'search_tickets']);
    assert.ok(tools.every((t) => !t.uri.includes('node_modules') && !t.uri.includes('.venv')));
    const search = tools.find((t) => t.name === 'search_products')!;
    assert.deepEqual(search.findings, { error: 0, warning: 0, info: 0 });
    assert.equal(search.uri, fileUri(path.join(dir, 'src/search.ts')));
    for (const [rel, fixture] of [
      ['src/helpdesk.ts', 'ts/helpdesk.ts'],
      ['py/docs_server.py', 'py/docs_server.py'],
    ]) {
      const published = await client.diagnosticsFor(fileUri(path.join(dir, rel)), undefined);
      const got = published.diagnostics.map((d) => ({ ruleId: String(d.code), severity: severityName(d.severity)!, range: d.range }));
      assert.deepEqual(describeAll(got), describeAll(loadFixture(fixture).expected), rel);
    }
    assert.equal(client.diagnosticsEvents(fileUri(path.join(dir, 'src/search.ts'))).length, 0, 'nothing published for a clean file');
    assert.equal(client.diagnosticsEvents(fileUri(path.join(dir, 'node_modules/dep/helpdesk.ts'))).length, 0, 'node_modules skipped');
  } finally {
    await client.stop();
  }
});

const SCHEMA_WITHOUT_DESCRIBE = (text: string) => text.replace(".describe('Words to look for in ticket titles and bodies')", '');

test('dependents: editing an open schema file re-analyses its importer; the finding shows in the schema file', async () => {
  const dir = workspace({ 'schemas.ts': 'multi/schemas.ts', 'server.ts': 'multi/server.ts' });
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const server = fileUri(path.join(dir, 'server.ts'));
    const schemas = fileUri(path.join(dir, 'schemas.ts'));
    await client.openFile(path.join(dir, 'server.ts'));
    await client.openFile(path.join(dir, 'schemas.ts'));
    assert.deepEqual((await client.diagnosticsFor(server, 1)).diagnostics, []);
    assert.deepEqual((await client.diagnosticsFor(schemas, 1)).diagnostics, []);
    const { tools } = await client.tools(server);
    assert.equal((tools[0].contract.inputSchema as { properties: { query: { description?: string } } }).properties.query.description, 'Words to look for in ticket titles and bodies');
    const mark = client.mark;
    const edited = SCHEMA_WITHOUT_DESCRIBE(client.text(schemas));
    const v = await client.change(schemas, edited);
    // server.ts is re-analysed (its contract lost the description) and the finding lands in schemas.ts.
    await client.waitFor(
      () => client.events.slice(mark).some((e) => e.kind === 'diagnostics' && e.params.uri === schemas && e.params.diagnostics.length > 0),
      "the importer's finding published on schemas.ts",
    );
    const onSchema = client.diagnosticsEvents(schemas).at(-1)!.params;
    assert.equal(onSchema.version, v);
    const queryLine = edited.split('\n').findIndex((l) => l.includes('query:'));
    assert.deepEqual(
      onSchema.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
      [['param-description-missing', queryLine, 2, 7]],
    );
    const after = await client.tools(server);
    assert.equal((after.tools[0].contract.inputSchema as { properties: { query: { description?: string } } }).properties.query.description, undefined);
    const actions = ((await client.codeActions(schemas, onSchema.diagnostics[0].range)) ?? []) as CodeAction[];
    // No template fix: an empty or placeholder description would reach the model (withdrawn, test/fidelity/fix-proof.test.ts).
    assert.equal(actions.filter((a) => a.kind === 'quickfix' && a.diagnostics?.[0]?.code === 'param-description-missing').length, 0, actions.map((a) => a.title).join(', '));
  } finally {
    await client.stop();
  }
});

test('dependents: a schema file changed on disk (file watcher) re-analyses its closed importer', async () => {
  const dir = workspace({ 'schemas.ts': 'multi/schemas.ts', 'server.ts': 'multi/server.ts' });
  const client = await LspClient.start({ workspaceFolders: [dir], initializationOptions: { diagnosticsDelayMs: 0 } });
  try {
    const scan = await client.scanned();
    assert.equal(scan.toolFiles, 1);
    const schemasFile = path.join(dir, 'schemas.ts');
    const mark = client.mark;
    fs.writeFileSync(schemasFile, SCHEMA_WITHOUT_DESCRIBE(fs.readFileSync(schemasFile, 'utf8')));
    await client.watchedFilesChanged([{ uri: fileUri(schemasFile), type: 2 }]);
    const published = await client.nextDiagnostics(fileUri(schemasFile), mark);
    assert.deepEqual(
      published.diagnostics.map((d) => d.code),
      ['param-description-missing'],
    );
    const { tools } = await client.workspaceTools();
    assert.deepEqual(
      tools.map((t) => [t.name, t.findings.warning]),
      [['search_tickets', 1]],
    );
    // Restoring the file clears the finding again.
    const mark2 = client.mark;
    fs.writeFileSync(schemasFile, loadFixture('multi/schemas.ts').code);
    await client.watchedFilesChanged([{ uri: fileUri(schemasFile), type: 2 }]);
    assert.deepEqual((await client.nextDiagnostics(fileUri(schemasFile), mark2)).diagnostics, []);
  } finally {
    await client.stop();
  }
});

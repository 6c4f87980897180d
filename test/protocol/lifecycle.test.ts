import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LspClient, fileUri, tempDir, writeTree, sleep } from './harness';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

test('initialize: the server advertises incremental sync, hover, code lens and both code action kinds', async () => {
  const client = await LspClient.start();
  try {
    const caps = client.initializeResult.capabilities;
    const sync = caps.textDocumentSync;
    assert.equal(typeof sync === 'number' ? sync : sync?.change, 2, 'incremental document sync');
    assert.ok(caps.hoverProvider);
    assert.deepEqual(caps.codeLensProvider, { resolveProvider: false });
    const kinds = typeof caps.codeActionProvider === 'object' ? caps.codeActionProvider.codeActionKinds : undefined;
    assert.deepEqual(kinds, ['quickfix', 'source.fixAll.toolsmith']);
    assert.equal(client.initializeResult.serverInfo?.name, 'toolsmith-language-server');
  } finally {
    await client.stop();
  }
});

test('toolsmith/tools is an honest empty list for files without tools, open or on disk', async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeTree(dir, { 'plain.ts': 'export const answer = 42;\n', 'notes.md': '# registerTool is mentioned here\n', 'util.py': 'def add(a, b):\n    return a + b\n' });
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const uri = fileUri(path.join(dir, 'plain.ts'));
    await client.open(uri, 'export const answer = 42;\n');
    assert.deepEqual(await client.tools(uri), { tools: [] });
    const published = await client.diagnosticsFor(uri, 1);
    assert.deepEqual(published.diagnostics, []);
    assert.deepEqual(await client.tools(fileUri(path.join(dir, 'util.py'))), { tools: [] }, 'a closed Python file');
    assert.deepEqual(await client.tools(fileUri(path.join(dir, 'notes.md'))), { tools: [] }, 'not a source file');
    assert.deepEqual(await client.tools(fileUri(path.join(dir, 'missing.ts'))), { tools: [] }, 'a file that does not exist');
    assert.deepEqual(await client.hover(uri, { line: 0, character: 14 }), null);
    assert.deepEqual(await client.codeLens(uri), []);
    assert.deepEqual(await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }), []);
  } finally {
    await client.stop();
  }
});

test('a syntax-broken file does not take the server down: it keeps publishing and answering', async () => {
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const ts = 'file:///broken/server.ts';
    const py = 'file:///broken/server.py';
    await client.open(ts, "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 'x', version: '1' });\n");
    await client.open(py, 'from mcp.server import MCPServer\nmcp = MCPServer("x")\n');
    await client.diagnosticsFor(ts, 1);
    await client.diagnosticsFor(py, 1);
    const brokenTs = "server.registerTool('search', { description: 'x', inputSchema: { q: z.string( }, async ({ q }) => {\n  return { content: [{ type: 'text', text: `${";
    const brokenPy = '@mcp.tool(\ndef search(q: str ->\n    """unterminated\n';
    await client.diagnosticsFor(ts, await client.change(ts, brokenTs));
    await client.diagnosticsFor(py, await client.change(py, brokenPy));
    // Truncate at a few offsets, as a user deleting text would.
    for (const cut of [1, 17, 40, brokenTs.length - 3]) await client.diagnosticsFor(ts, await client.change(ts, brokenTs.slice(0, cut)));
    assert.ok(client.alive, 'the server process is still running');
    const answer = await client.tools(ts);
    assert.ok(Array.isArray(answer.tools), 'a request after the broken edits is answered');
    const v = await client.change(ts, 'export {};\n');
    assert.deepEqual((await client.diagnosticsFor(ts, v)).diagnostics, []);
  } finally {
    await client.stop();
  }
});

test('20 quick changes: diagnostics are published for the last version only', async () => {
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 60, workspaceScan: false } });
  try {
    const uri = 'file:///typing/server.ts';
    await client.open(uri, '');
    await client.diagnosticsFor(uri, 1);
    const mark = client.mark;
    let text = '';
    let last = 1;
    for (let i = 0; i < 20; i++) {
      text += `const v${i} = ${i};\n`;
      last = await client.change(uri, [{ range: { start: { line: i, character: 0 }, end: { line: i, character: 0 } }, text: `const v${i} = ${i};\n` }]);
    }
    assert.equal(last, 21);
    assert.equal(client.text(uri), text);
    await client.diagnosticsFor(uri, 21);
    await sleep(400); // anything stale would have arrived by now
    const published = client.events.slice(mark).filter((e) => e.kind === 'diagnostics' && e.params.uri === uri);
    assert.deepEqual(
      published.map((e) => (e.kind === 'diagnostics' ? e.params.version : -1)),
      [21],
    );
  } finally {
    await client.stop();
  }
});

test('without a debounce, a newer version still supersedes: versions arrive in order and end with the last', async () => {
  const client = await LspClient.start({ initializationOptions: { diagnosticsDelayMs: 0, workspaceScan: false } });
  try {
    const uri = 'file:///typing/fast.py';
    await client.open(uri, '');
    await client.diagnosticsFor(uri, 1);
    const mark = client.mark;
    for (let i = 0; i < 20; i++) await client.change(uri, `x = ${'1'.repeat(i + 1)}\n`);
    await client.diagnosticsFor(uri, 21);
    await sleep(200);
    const versions = client.events.slice(mark).flatMap((e) => (e.kind === 'diagnostics' && e.params.uri === uri ? [e.params.version ?? -1] : []));
    assert.equal(versions.at(-1), 21);
    assert.deepEqual(
      versions,
      [...versions].sort((a, b) => a - b),
      'never an older version after a newer one',
    );
    assert.equal(new Set(versions).size, versions.length, 'each version published at most once');
  } finally {
    await client.stop();
  }
});

test('the default debounce holds diagnostics back about 150 ms after a change', async () => {
  const client = await LspClient.start({ initializationOptions: { workspaceScan: false } });
  try {
    const uri = 'file:///typing/debounced.ts';
    await client.open(uri, 'export {};\n');
    await client.diagnosticsFor(uri, 1);
    const sent = performance.now();
    const v = await client.change(uri, 'export const a = 1;\n');
    await client.diagnosticsFor(uri, v);
    const event = client.diagnosticsEvents(uri).find((e) => e.params.version === v)!;
    assert.ok(event.at - sent >= 140, `published ${Math.round(event.at - sent)} ms after the change`);
  } finally {
    await client.stop();
  }
});

test('workspace scan: skips node_modules, .venv and dist, reports what it read, answers workspaceTools', async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeTree(dir, {
    'src/a.ts': 'export const a = 1;\n',
    'src/b.py': 'print(1)\n',
    'src/readme.md': 'text\n',
    'node_modules/pkg/index.ts': "server.registerTool('x', {}, async () => ({ content: [] }));\n",
    '.venv/lib/site.py': '@mcp.tool()\ndef x(): pass\n',
    'dist/bundle.js': "server.registerTool('x', {}, async () => ({ content: [] }));\n",
  });
  const client = await LspClient.start({ workspaceFolders: [dir], initializationOptions: { diagnosticsDelayMs: 0 } });
  try {
    const scan = await client.scanned();
    assert.equal(scan.filesScanned, 2, 'only src/a.ts and src/b.py are read');
    assert.deepEqual(await client.workspaceTools(), { tools: [] });
  } finally {
    await client.stop();
  }
});

test('settings: pulled through workspace/configuration at start and again on didChangeConfiguration', async () => {
  const client = await LspClient.start({ configuration: { rules: {} }, dynamicRegistration: true, initializationOptions: { workspaceScan: false } });
  try {
    const pulls = () => client.events.filter((e) => e.kind === 'configurationRequest');
    await client.waitFor(() => pulls().length >= 1, 'a configuration pull at start');
    assert.deepEqual(pulls()[0].kind === 'configurationRequest' && pulls()[0].sections, ['toolsmith']);
    await client.changeConfiguration({ rules: { 'tool-name-vague': 'off' } });
    await client.waitFor(() => pulls().length >= 2, 'a configuration pull after the change');
    const methods = client.events.flatMap((e) => (e.kind === 'registration' ? [e.registration.method] : []));
    assert.ok(methods.includes('workspace/didChangeWatchedFiles'), 'file watchers registered');
    assert.ok(methods.includes('workspace/didChangeConfiguration'), 'configuration changes registered');
  } finally {
    await client.stop();
  }
});

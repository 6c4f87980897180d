// The Servers view under a server that is not running (issue 13): the tools the language server predicts for the
// script its command runs (`toolsmith/serverTools`, the whole server through its imports), a heading saying they are
// predicted, the imports it could not follow; the live list instead as soon as it runs. The script is found in the
// command as `.vscode/mcp.json` writes it (`${workspaceFolder}`, a cwd, `python -m`).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ServerConfig } from '../../../client/src/servers/discovery';
import { predictedChildren, predictedToolText, serverScript } from '../../../client/src/servers/treeModel';
import { LspClient, fileUri, tempDir, writeTree } from '../../protocol/harness';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const config = (command: string, args: string[], extra: Partial<ServerConfig> = {}): ServerConfig => ({
  id: '.vscode/mcp.json:demo',
  name: 'demo',
  origin: '.vscode/mcp.json',
  command,
  args,
  env: {},
  inputs: [],
  watchRoot: '/ws',
  ...extra,
});

test('serverScript: the workspace file a server command runs, as mcp.json writes it', () => {
  const files = new Set(['/ws/dist/index.js', '/ws/src/server.ts', '/ws/app/server.py', '/ws/pkg/__main__.py', '/ws/sub/tool.py']);
  const exists = (f: string) => files.has(f);
  assert.equal(serverScript(config('node', ['${workspaceFolder}/dist/index.js', '--stdio']), '/ws', exists), '/ws/dist/index.js');
  assert.equal(serverScript(config('npx', ['-y', 'tsx', 'src/server.ts']), '/ws', exists), '/ws/src/server.ts');
  assert.equal(serverScript(config('uv', ['run', '--with', 'mcp', 'app/server.py']), '/ws', exists), '/ws/app/server.py');
  assert.equal(serverScript(config('python', ['-m', 'pkg']), '/ws', exists), '/ws/pkg/__main__.py');
  assert.equal(serverScript(config('python', ['tool.py'], { cwd: '${workspaceFolder}/sub' }), '/ws', exists), '/ws/sub/tool.py');
  // A published package, a script that is not there, a remote server: nothing to predict from.
  assert.equal(serverScript(config('npx', ['-y', '@modelcontextprotocol/server-memory']), '/ws', exists), undefined);
  assert.equal(serverScript(config('node', ['build/missing.js']), '/ws', exists), undefined);
  assert.equal(serverScript(config('', [], { url: 'https://example.com/mcp' }), '/ws', exists), undefined);
  const detected = config('node', [], { origin: 'detected', detected: { sourceFile: '/ws/src/server.ts', language: 'typescript', confirmed: false } });
  assert.equal(serverScript(detected, '/ws', exists), '/ws/src/server.ts');
});

test('a stopped server lists the tools the language server predicts for its script, whole through its imports; a running one its live list', async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeTree(dir, {
    'bin/cli.js': 'import "../lib/index.js";\n',
    'lib/index.js': `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { register } from "./tools.js";\nconst server = new McpServer({ name: "demo", version: "1" });\nregister(server);\nawait import(process.env.PLUGIN);\n`,
    'lib/tools.js': `export function register(server) {\n  server.registerTool("delete_file", { description: "Delete a file.", annotations: { destructiveHint: true } }, async () => ({ content: [] }));\n  server.registerTool("read_file", { description: "Read a file.", annotations: { readOnlyHint: true } }, async () => ({ content: [] }));\n  if (process.env.BETA) server.registerTool("list_drafts", { description: "List drafts.", annotations: { readOnlyHint: true } }, async () => ({ content: [] }));\n}\n`,
  });
  const client = await LspClient.start({ workspaceFolders: [dir], initializationOptions: { diagnosticsDelayMs: 0 } });
  try {
    await client.scanned();
    const c = config('node', ['${workspaceFolder}/bin/cli.js'], { watchRoot: dir });
    const script = serverScript(c, dir, (f) => fs.existsSync(f));
    assert.equal(script, path.join(dir, 'bin/cli.js'));
    const prediction = await client.serverTools(fileUri(script));
    const rows = predictedChildren(c, script, prediction, false);
    assert.deepEqual(
      rows.map((r) => (r.kind === 'note' ? r.text : `${r.tool.name} (${r.tool.uri === fileUri(path.join(dir, 'lib/tools.js')) ? 'lib/tools.js' : r.tool.uri})`)),
      [
        'Predicted: 3 tools (not running)',
        'delete_file (lib/tools.js)',
        'read_file (lib/tools.js)',
        'list_drafts (lib/tools.js)',
        'Not followed: import() with a computed specifier (process.env.PLUGIN)',
      ],
    );
    const [, del, read, drafts] = rows;
    assert.ok(del.kind === 'predicted' && read.kind === 'predicted' && drafts.kind === 'predicted');
    assert.equal(predictedToolText(del.tool).description, 'predicted · Critical (assumed)');
    assert.equal(predictedToolText(read.tool).description, 'predicted · Low');
    // Registered under a guard: the row says so, the tooltip names the guard as written.
    assert.equal(predictedToolText(drafts.tool).description, 'predicted · Low · conditional');
    assert.match(predictedToolText(drafts.tool).tooltip, /listed only when `process\.env\.BETA` holds at run time/);
    assert.deepEqual(predictedChildren(c, script, prediction, true), [], 'a running server shows its live tools instead');
    assert.deepEqual(predictedChildren(c, script, { servers: [], unresolved: [] }, false), [], 'no server seen in the script: no claim');
  } finally {
    await client.stop();
  }
});

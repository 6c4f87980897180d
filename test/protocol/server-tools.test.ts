/**
 * `toolsmith/serverTools` (issue 13, "a whole server"): the language server predicts the whole server an entry starts
 * — the same analysis as `toolsmith contract <entry>` — with each tool's own file, follows an unsaved edit of a module
 * the entry imports, and says which imports it could not follow.
 */
import { test, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LspClient, fileUri, tempDir, writeTree } from './harness';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const SDK = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";`;
const tool = (name: string) => `server.registerTool("${name}", { description: "${name} it" }, async () => ({ content: [] }));\n`;

test('serverTools: the whole server of an entry that registers nothing itself, each tool in its own file, kept up to date with an open module', async () => {
  const dir = tempDir();
  dirs.push(dir);
  writeTree(dir, {
    'bin/cli.js': 'import "../src/index.js";\n',
    'src/index.ts': `${SDK}\nimport { registerTools } from "./tools.js";\nconst server = new McpServer({ name: "whole", version: "1.0.0" });\nregisterTools(server);\nawait import(process.env.EXTRA!);\n`,
    'src/tools.ts': `export function registerTools(server) {\n  ${tool('alpha')}  ${tool('beta')}}\n`,
    'src/other.ts': `${SDK}\nconst server = new McpServer({ name: "other", version: "1.0.0" });\n${tool('not_this_one')}`,
  });
  const client = await LspClient.start({ workspaceFolders: [dir], initializationOptions: { diagnosticsDelayMs: 0 } });
  try {
    await client.scanned();
    const entry = fileUri(path.join(dir, 'bin/cli.js'));
    const first = await client.serverTools(entry);
    assert.deepEqual(
      first.servers.map((s) => ({ name: s.name, constructed: s.constructed, uri: s.uri, line: s.range.start.line, tools: s.tools.map((t) => [t.name, t.uri]) })),
      [
        {
          name: 'whole',
          constructed: true,
          uri: fileUri(path.join(dir, 'src/index.ts')),
          line: 2,
          tools: [
            ['alpha', fileUri(path.join(dir, 'src/tools.ts'))],
            ['beta', fileUri(path.join(dir, 'src/tools.ts'))],
          ],
        },
      ],
    );
    assert.equal(first.servers[0].tools[0].range.start.line, 1, 'the range is in the registering file');
    assert.equal(first.unresolved.length, 1);
    assert.match(first.unresolved[0].reason, /import\(\) with a computed specifier/);
    assert.equal(first.unresolved[0].uri, fileUri(path.join(dir, 'src/index.ts')));
    // An unsaved edit of the tools module: the next answer has the new tool.
    const tools = fileUri(path.join(dir, 'src/tools.ts'));
    await client.open(tools, fs.readFileSync(path.join(dir, 'src/tools.ts'), 'utf8'));
    await client.change(tools, `export function registerTools(server) {\n  ${tool('alpha')}  ${tool('gamma')}}\n`);
    const second = await client.serverTools(entry);
    assert.deepEqual(
      second.servers[0].tools.map((t) => t.name),
      ['alpha', 'gamma'],
    );
    // A file that is not source, or not there: no servers, no error.
    assert.deepEqual(await client.serverTools(fileUri(path.join(dir, 'README.md'))), { servers: [], unresolved: [] });
    assert.deepEqual(await client.serverTools(fileUri(path.join(dir, 'gone.ts'))), { servers: [], unresolved: [] });
  } finally {
    await client.stop();
  }
});

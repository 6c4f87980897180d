/**
 * A monorepo with a v1 and a v2 server package side by side (issue 15): `packages/legacy` installs only
 * @modelcontextprotocol/sdk 1.32 (and zod), `packages/modern` only @modelcontextprotocol/server 2.4 (and zod), each
 * in its own node_modules (links to this repository's copies; the monorepo lives outside the clone, so neither can
 * reach the other's SDK). Both servers are started live and asked for tools/list and prompts/list by their own SDK
 * line's Client; `node dist/cli.js contract <file> --json` must predict both exactly, each for its own SDK.
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { cli, compareTools, root, sameTool, type Tool } from './compare';

const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-monorepo-'));

// The same server written for each SDK line: a tool with an input and output schema, and a prompt.
const LEGACY = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "legacy", version: "1.0.0" });

server.registerTool(
  "search_notes",
  {
    description: "Search the notes by a word. Returns the matching titles.",
    inputSchema: { query: z.string().min(1).describe("Word to look for"), limit: z.number().int().max(50).default(10) },
    outputSchema: { titles: z.array(z.string()) },
    annotations: { readOnlyHint: true },
  },
  async () => ({ content: [{ type: "text", text: "[]" }], structuredContent: { titles: [] } }),
);

server.registerPrompt(
  "summarize_notes",
  { title: "Summarize", description: "Summarize the notes on a topic.", argsSchema: { topic: z.string().describe("Topic"), style: z.string().default("short") } },
  ({ topic }) => ({ messages: [{ role: "user", content: { type: "text", text: topic } }] }),
);

await server.connect(new StdioServerTransport());
`;

const MODERN = LEGACY.replace('"@modelcontextprotocol/sdk/server/mcp.js"', '"@modelcontextprotocol/server"')
  .replace('"@modelcontextprotocol/sdk/server/stdio.js"', '"@modelcontextprotocol/server/stdio"')
  .replace('import { z } from "zod";', 'import * as z from "zod";')
  .replace('name: "legacy"', 'name: "modern"');

function link(pkgDir: string, module: string): void {
  const target = path.join(pkgDir, 'node_modules', module);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules', module)), target, 'dir');
}

function writePackage(name: string, source: string, deps: Record<string, string>): string {
  const dir = path.join(repo, 'packages', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies: deps }, null, 2));
  for (const module of Object.keys(deps)) link(dir, module);
  fs.writeFileSync(path.join(dir, 'server.mjs'), source);
  return path.join(dir, 'server.mjs');
}

let legacy = '';
let modern = '';

before(() => {
  fs.writeFileSync(path.join(repo, 'package.json'), JSON.stringify({ private: true, workspaces: ['packages/*'] }, null, 2));
  const version = (m: string) => (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', m, 'package.json'), 'utf8')) as { version: string }).version;
  legacy = writePackage('legacy', LEGACY, { '@modelcontextprotocol/sdk': version('@modelcontextprotocol/sdk'), zod: version('zod') });
  modern = writePackage('modern', MODERN, { '@modelcontextprotocol/server': version('@modelcontextprotocol/server'), zod: version('zod') });
});

after(() => fs.rmSync(repo, { recursive: true, force: true }));

async function live(file: string, v2: boolean): Promise<{ tools: Tool[]; prompts: Tool[] }> {
  const server = { command: process.execPath, args: [file], cwd: path.dirname(file), stderr: 'pipe' as const };
  const transport = v2 ? new StdioV2(server) : new StdioV1(server);
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = v2 ? new ClientV2({ name: 'toolsmith-monorepo', version: '1.0.0' }) : new ClientV1({ name: 'toolsmith-monorepo', version: '1.0.0' });
  try {
    await (client as ClientV1).connect(transport);
    return { tools: (await client.listTools()).tools, prompts: (await client.listPrompts()).prompts };
  } catch (err) {
    throw new Error(`${file} did not answer: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

function predicted(file: string): { tools: Tool[]; prompts?: Tool[]; unresolved: unknown[]; promptsUnresolved?: unknown[] } {
  const r = spawnSync(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8', cwd: path.dirname(file) });
  assert.equal(r.status, 0, `toolsmith contract failed on ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout) as ReturnType<typeof predicted>;
}

test('monorepo: each package resolves only its own SDK', () => {
  const resolves = (file: string, module: string) =>
    spawnSync(process.execPath, ['-e', `import(${JSON.stringify(module)}).then(() => process.exit(0), () => process.exit(1))`], { cwd: path.dirname(file) }).status === 0;
  assert.equal(resolves(legacy, '@modelcontextprotocol/sdk/server/mcp.js'), true);
  assert.equal(resolves(legacy, '@modelcontextprotocol/server'), false, 'the v1 package must not see the v2 SDK');
  assert.equal(resolves(modern, '@modelcontextprotocol/server'), true);
  assert.equal(resolves(modern, '@modelcontextprotocol/sdk/server/mcp.js'), false, 'the v2 package must not see the v1 SDK');
});

for (const [label, v2] of [
  ['legacy (sdk 1.x)', false],
  ['modern (server 2.x)', true],
] as const) {
  test(`monorepo: ${label} is predicted exactly for its own SDK, tools and prompts`, async () => {
    const file = v2 ? modern : legacy;
    const listed = await live(file, v2);
    const printed = predicted(file);
    assert.deepEqual(printed.unresolved, []);
    assert.deepEqual(printed.promptsUnresolved, []);
    const tools = compareTools([{ file, live: listed.tools, predicted: printed.tools }], { order: true });
    assert.equal(tools.total, 1);
    assert.deepEqual(tools.failures, [], tools.failures.join('\n'));
    assert.ok(sameTool(printed.prompts, listed.prompts), `prompts differ\n  live:      ${JSON.stringify(listed.prompts)}\n  predicted: ${JSON.stringify(printed.prompts)}`);
    // The two lines publish differently, so an exact prediction of both proves each got its own SDK.
    const schema = listed.tools[0].inputSchema as { $schema?: string };
    assert.match(String(schema.$schema), v2 ? /2020-12/ : /draft-07/);
  });
}

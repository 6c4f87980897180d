/**
 * `toolsmith contract --json` carries every unresolved part with its reason and position, so CI and other tools
 * reading the JSON can tell a partial contract from a fact (issue 13, "Honest JSON").
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { analyzeSource } from '../../server/src/analysis/analyze';
import { contractJson } from '../../server/src/cli/contract-json';

const TS = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "demo", version: "1.0.0" });
server.registerTool("known", { description: "Fully known", inputSchema: { q: z.string() } }, async () => ({ content: [] }));
server.registerTool("partial", { description: process.env.DESCRIPTION, inputSchema: shapeFromElsewhere() }, async () => ({ content: [] }));
for (const name of NAMES) server.registerTool(name, { description: "looped" }, async () => ({ content: [] }));
`;

function analyse(file: string, text: string) {
  const texts = new Map([[file, text]]);
  const host = { readFile: (f: string) => texts.get(f), fileExists: (f: string) => texts.has(f) };
  const result = analyzeSource(file, text, host);
  return contractJson(result.tools, (f) => texts.get(f), result.files);
}

test('contract JSON: each unresolved part is a row with the tool, the part, the reason and a 1-based range', () => {
  const file = '/virtual/ws/server.ts';
  const out = analyse(file, TS);
  assert.equal(out.tools.length, 3);
  assert.deepEqual(
    out.unresolved.filter((u) => u.tool === 0),
    [],
    'a fully resolved tool has no row',
  );
  const partial = out.unresolved.filter((u) => u.tool === 1);
  assert.deepEqual(
    partial.map((u) => [u.name, u.part]),
    [
      ['partial', 'description'],
      ['partial', 'inputSchema'],
    ],
  );
  assert.ok(
    partial.every((u) => u.reason.length > 0 && u.file === file && u.line === 5),
    JSON.stringify(partial),
  );
  const description = partial[0];
  const written = TS.split('\n')[description.line - 1].slice(description.column - 1, description.endColumn - 1);
  assert.ok(written.length > 0 && 'process.env.DESCRIPTION'.startsWith(written), `the range points into the description expression, got "${written}"`);
  // The tool registered in a loop: its name is unresolved, and the row says so (name null).
  const looped = out.unresolved.filter((u) => u.tool === 2);
  assert.deepEqual(
    looped.map((u) => [u.name, u.part]),
    [[null, 'name']],
  );
  assert.equal(out.tools[2].name, undefined);
});

test('contract JSON: a Python parameter whose description is unresolved is reported, not silently dropped', () => {
  const py = `from mcp.server import MCPServer
from pydantic import Field
from typing import Annotated
mcp = MCPServer("demo")
ZONE = "UTC"

@mcp.tool()
def now(tz: Annotated[str, Field(description=describe_zone())]) -> str:
    """Current time."""
    return tz
`;
  const out = analyse('/virtual/ws/server.py', py);
  assert.equal(out.tools.length, 1);
  assert.ok(out.unresolved.length > 0, 'an unresolved description must travel in the JSON');
  assert.ok(out.unresolved.every((u) => u.tool === 0 && u.name === 'now'));
});

test('cli: toolsmith contract --json prints the unresolved rows (dist/cli.js)', (t) => {
  const cli = path.resolve(__dirname, '../../dist/cli.js');
  if (!fs.existsSync(cli)) assert.fail('dist/cli.js is missing: run `node esbuild.mjs` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-contract-json-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'server.ts');
  fs.writeFileSync(file, TS);
  const r = spawnSync(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { servers, ...printed } = JSON.parse(r.stdout) as ReturnType<typeof contractJson> & { servers: { name: string; tools: number[] }[] };
  assert.deepEqual(printed, analyse(file, TS));
  // The whole-server field: the one server of the file publishes the three tools.
  assert.deepEqual(
    servers.map((s) => [s.name, s.tools]),
    [['demo', [0, 1, 2]]],
  );
});

test('contract JSON: prompts are a separate field, printed only for a file that registers prompts, with their unresolved rows', (t) => {
  const cli = path.resolve(__dirname, '../../dist/cli.js');
  if (!fs.existsSync(cli)) assert.fail('dist/cli.js is missing: run `node esbuild.mjs` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-contract-prompts-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const toolsOnly = path.join(dir, 'tools.ts');
  fs.writeFileSync(toolsOnly, TS);
  const withPrompts = path.join(dir, 'prompts.ts');
  fs.writeFileSync(
    withPrompts,
    TS +
      `server.registerPrompt("review", { description: "Review code", argsSchema: { code: z.string().describe("Code"), lang: z.string().optional() } }, () => ({ messages: [] }));\n` +
      `server.registerPrompt("later", { description: "Built at run time", argsSchema: argsFromElsewhere() }, () => ({ messages: [] }));\n`,
  );
  const run = (file: string) => {
    const r = spawnSync(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  assert.deepEqual(Object.keys(run(toolsOnly)), ['tools', 'unresolved', 'converters', 'servers'], 'the tools/list shape is unchanged without prompts');
  const printed = run(withPrompts) as { tools: unknown[]; prompts: unknown[]; promptsUnresolved: { prompt: number; name: string; part: string }[] };
  assert.equal(printed.tools.length, 3);
  assert.deepEqual(printed.prompts, [
    {
      name: 'review',
      description: 'Review code',
      arguments: [
        { name: 'code', description: 'Code', required: true },
        { name: 'lang', required: false },
      ],
    },
    { name: 'later', description: 'Built at run time' },
  ]);
  assert.deepEqual(
    printed.promptsUnresolved.map((u) => [u.prompt, u.name, u.part]),
    [[1, 'later', 'argsSchema']],
  );
});

test('contract JSON: a tool registered under a guard has a `conditions` row naming the guard as written; the text mode says "listed only when"', (t) => {
  const cli = path.resolve(__dirname, '../../dist/cli.js');
  if (!fs.existsSync(cli)) assert.fail('dist/cli.js is missing: run `node esbuild.mjs` first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-contract-conditions-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'server.ts');
  const text = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
const server = new McpServer({ name: "demo", version: "1.0.0" });
server.registerTool("always", { description: "Listed whenever the server starts" }, async () => ({ content: [] }));
if (process.env.BETA === "1") {
  server.registerTool("beta", { description: "Listed only in beta" }, async () => ({ content: [] }));
}
`;
  fs.writeFileSync(file, text);
  const json = spawnSync(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8' });
  assert.equal(json.status, 0, json.stderr);
  const printed = JSON.parse(json.stdout) as {
    tools: { name: string }[];
    conditions: { tool: number; name: string; condition: string; file: string; line: number; column: number; endColumn: number }[];
  };
  assert.deepEqual(
    printed.tools.map((x) => x.name),
    ['always', 'beta'],
    'the guarded tool is predicted with its whole contract',
  );
  assert.deepEqual(
    printed.conditions.map((c) => [c.tool, c.name, c.condition, c.file, c.line]),
    [[1, 'beta', 'process.env.BETA === "1"', file, 4]],
  );
  const c = printed.conditions[0];
  assert.equal(text.split('\n')[c.line - 1].slice(c.column - 1, c.endColumn - 1), 'process.env.BETA === "1"', 'the range is the guard in the source');
  const plain = spawnSync(process.execPath, [cli, 'contract', file], { encoding: 'utf8' });
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /\nbeta\n {2}listed only when: process\.env\.BETA === "1" \(.*server\.ts:4\)\n/);
  assert.doesNotMatch(plain.stdout.split('\nbeta\n')[0], /listed only when/, 'the unguarded tool has no condition line');
});

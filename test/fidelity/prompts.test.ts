/**
 * Prompt fidelity: every fixture server under test/fixtures/ts-prompts is started for real (`node --import tsx`) and
 * asked for prompts/list (and tools/list) by its own SDK line's Client over stdio — @modelcontextprotocol/sdk 1.32
 * for the `v1-*` fixtures, @modelcontextprotocol/client 2.x (default negotiation, the 2025-11-25 era) for `v2-*` —
 * and compared with the `prompts` field of `node dist/cli.js contract <file> --json`, in order, key order ignored.
 * Covered: registerPrompt on both lines (title, description, raw-shape and z.object argsSchema, icons, _meta),
 * 1.x prompt() with each overload, completable() arguments, optional/default fields in zod 4 and zod 3.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { cli, compareTools, root, sameTool, type Tool } from './compare';

const fixtures = path.join(root, 'test/fixtures/ts-prompts');

interface Listed {
  prompts: Tool[];
  tools: Tool[];
}

async function live(file: string): Promise<Listed> {
  const server = { command: process.execPath, args: ['--import', 'tsx', file], cwd: root, stderr: 'pipe' as const };
  const v2 = path.basename(file).startsWith('v2-');
  const transport = v2 ? new StdioV2(server) : new StdioV1(server);
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = v2 ? new ClientV2({ name: 'toolsmith-prompts', version: '1.0.0' }) : new ClientV1({ name: 'toolsmith-prompts', version: '1.0.0' });
  try {
    await (client as ClientV1).connect(transport);
    const prompts = (await client.listPrompts()).prompts as Tool[];
    // A server without tools has no tools/list handler (Method not found).
    const tools = client.getServerCapabilities()?.tools ? ((await client.listTools()).tools as Tool[]) : [];
    return { prompts, tools };
  } catch (err) {
    throw new Error(`${path.relative(root, file)} did not answer prompts/list: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

interface Printed {
  tools: Tool[];
  prompts?: Tool[];
  promptsUnresolved?: { prompt: number; part: string; reason: string }[];
}

function predicted(file: string): Printed {
  const r = spawnSync(process.execPath, [cli, 'contract', file, '--json'], { encoding: 'utf8', cwd: root });
  assert.equal(r.status, 0, `toolsmith contract failed on ${file}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Printed;
}

let exact = 0;
let total = 0;

for (const name of fs
  .readdirSync(fixtures)
  .filter((f) => f.endsWith('.ts'))
  .sort()) {
  test(`prompt fidelity: ${name}`, async () => {
    const file = path.join(fixtures, name);
    const listed = await live(file);
    const printed = predicted(file);
    assert.ok(listed.prompts.length > 0, 'the fixture server published no prompt');
    assert.deepEqual(printed.promptsUnresolved, [], 'a fixture prompt is reported unresolved');
    const mine = printed.prompts ?? [];
    const failures: string[] = [];
    listed.prompts.forEach((p, i) => {
      total++;
      if (sameTool(mine[i], p)) exact++;
      else failures.push(`prompt ${String(p.name)} (#${i})\n  live:      ${JSON.stringify(p)}\n  predicted: ${JSON.stringify(mine[i])}`);
    });
    if (mine.length > listed.prompts.length)
      failures.push(
        `predicted prompts the server does not list: ${mine
          .slice(listed.prompts.length)
          .map((p) => String(p.name))
          .join(', ')}`,
      );
    assert.deepEqual(failures, [], failures.join('\n'));
    // The tools of the same file keep their contract next to the prompts.
    const tools = compareTools([{ file, live: listed.tools, predicted: printed.tools }], { order: true });
    assert.deepEqual(tools.failures, [], tools.failures.join('\n'));
  });
}

test('prompt fidelity: summary', () => {
  console.log(`prompt fidelity: ${exact}/${total} prompts exact`);
  assert.equal(exact, total);
});

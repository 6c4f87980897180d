/**
 * Contract fidelity, TypeScript SDK v2: every fixture server under test/fixtures/ts-v2 (written against
 * @modelcontextprotocol/server 2.4.0 with zod 4, ArkType and Valibot schemas) is started for real (`node --import tsx`), asked
 * for tools/list by the v2 SDK's own Client (@modelcontextprotocol/client, default version negotiation: the
 * 2025-11-25 era every current client speaks) over stdio, and compared tool by tool with
 * `node dist/cli.js contract <file> --json` (./compare.ts), order included.
 * Entry files: test/fixtures/ts-v2/*.ts and test/fixtures/ts-v2/<folder>/main.ts (the other files are its imports).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { compareTools, fixtureServers, predictedTools, root, type Tool } from './compare';

const fixtures = path.join(root, 'test/fixtures/ts-v2');
const SERVER_PACKAGE = path.join(root, 'node_modules/@modelcontextprotocol/server/package.json');

const entries = (): string[] => fixtureServers(fixtures);

async function liveTools(file: string): Promise<Tool[]> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', file], cwd: root, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'toolsmith-fidelity-v2', version: '1.0.0' });
  try {
    await client.connect(transport);
    return (await client.listTools()).tools;
  } catch (err) {
    throw new Error(`${path.relative(root, file)} did not answer tools/list: ${err instanceof Error ? err.message : String(err)}\n${stderr}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

let exact = 0;
let total = 0;
const libraries = new Set<string>();

test('fidelity v2: the fixtures run on @modelcontextprotocol/server 2.4.0', () => {
  assert.equal((JSON.parse(fs.readFileSync(SERVER_PACKAGE, 'utf8')) as { version: string }).version, '2.4.0');
});

for (const entry of entries()) {
  test(`fidelity v2: ${path.relative(fixtures, entry)}`, async () => {
    const sources = entry.endsWith('main.ts') ? fs.readdirSync(path.dirname(entry)).map((f) => path.join(path.dirname(entry), f)) : [entry];
    for (const s of sources) {
      const text = fs.readFileSync(s, 'utf8');
      if (/from "zod(\/v4)?"/.test(text)) libraries.add('zod 4');
      if (/from "arktype"/.test(text)) libraries.add('arktype');
      if (/from "valibot"/.test(text)) libraries.add('valibot');
    }
    const live = await liveTools(entry);
    const compared = compareTools([{ file: entry, live, predicted: predictedTools(entry) }], { order: true });
    exact += compared.exact;
    total += compared.total;
    assert.ok(live.length > 0, 'the fixture server published no tool');
    assert.deepEqual(compared.failures, [], compared.failures.join('\n'));
  });
}

test('fidelity v2: summary', () => {
  console.log(`fidelity v2: ${exact}/${total} tools exact over ${entries().length} servers (${[...libraries].join(', ')})`);
  assert.ok(entries().length >= 10, `only ${entries().length} v2 fixture servers (at least 10 expected)`);
  assert.ok(total >= 50, `only ${total} tools across the v2 fixtures (at least 50 expected)`);
  assert.deepEqual([...libraries].sort(), ['arktype', 'valibot', 'zod 4']);
  assert.equal(exact, total);
});

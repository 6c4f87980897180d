/**
 * Contract fidelity (TESTING.md §3), TypeScript: every fixture server under test/fixtures/ts is started for real
 * (`node --import tsx`), asked for tools/list by the SDK's own Client over stdio, and compared tool by tool,
 * deep-equal (key order ignored), with `node dist/cli.js contract <file> --json`.
 * Entry files: test/fixtures/ts/*.ts and test/fixtures/ts/<folder>/main.ts (the other files are its imports).
 */
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(__dirname, '../..');
const fixtures = path.join(root, 'test/fixtures/ts');
const cli = path.join(root, 'dist/cli.js');

function entries(): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(fixtures, { withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith('.ts')) out.push(path.join(fixtures, e.name));
    else if (e.isDirectory() && fs.existsSync(path.join(fixtures, e.name, 'main.ts'))) out.push(path.join(fixtures, e.name, 'main.ts'));
  }
  return out.sort();
}

/** Folders pinning their own packages (the zod 3 fixture) get them installed once into an ignored node_modules. */
before(() => {
  for (const e of fs.readdirSync(fixtures, { withFileTypes: true })) {
    const dir = path.join(fixtures, e.name);
    if (!e.isDirectory() || !fs.existsSync(path.join(dir, 'package.json'))) continue;
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    const missing = Object.entries(pkg.dependencies ?? {}).some(([name, version]) => {
      const installed = path.join(dir, 'node_modules', name, 'package.json');
      return !fs.existsSync(installed) || (JSON.parse(fs.readFileSync(installed, 'utf8')) as { version: string }).version !== version;
    });
    if (missing) {
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts'], { cwd: dir, stdio: 'inherit', timeout: 300_000 });
    }
  }
});

async function liveTools(entry: string, env?: Record<string, string>): Promise<unknown[]> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', entry], cwd: root, stderr: 'pipe', env: env && { ...(process.env as Record<string, string>), ...env } });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'toolsmith-fidelity', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return tools;
  } catch (err) {
    throw new Error(`${path.relative(root, entry)} did not answer tools/list: ${err instanceof Error ? err.message : String(err)}\n${stderr}`);
  } finally {
    await client.close().catch(() => {});
  }
}

function predicted(entry: string): unknown[] {
  const r = spawnSync(process.execPath, [cli, 'contract', entry, '--json'], { encoding: 'utf8', cwd: root });
  assert.equal(r.status, 0, `toolsmith contract failed on ${entry}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { tools: unknown[] }).tools;
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

let exact = 0;
let total = 0;

for (const entry of entries()) {
  test(`fidelity: ${path.relative(fixtures, entry)}`, async () => {
    const live = await liveTools(entry);
    const mine = predicted(entry);
    const nameOf = (t: unknown) => (t as { name?: string }).name;
    total += live.length;
    const mismatches: string[] = [];
    live.forEach((tool, i) => {
      if (isDeepEqual(mine[i], tool)) exact++;
      else mismatches.push(`#${i} ${nameOf(tool)}:\n  live:      ${JSON.stringify(tool)}\n  predicted: ${JSON.stringify(mine[i])}`);
    });
    if (mine.length > live.length) mismatches.push(`predicted ${mine.length - live.length} extra tool(s): ${mine.slice(live.length).map(nameOf).join(', ')}`);
    assert.ok(live.length > 0, 'the fixture server published no tool');
    assert.deepEqual(mismatches, [], mismatches.join('\n'));
  });
}

/** zod names the type in its error ("Date cannot be represented in JSON Schema"); the construct we list must agree. */
const ZOD_MESSAGE: Record<string, RegExp> = {
  'z.date()': /Date cannot be represented/,
  'z.int64()': /BigInt cannot be represented/,
  'z.undefined()': /Undefined cannot be represented/,
  '.transform()': /Transforms cannot be represented/,
  'z.map()': /Map cannot be represented/,
};

// `unrepresentable` must mean "the SDK's conversion fails": each tool of this fixture is registered alone and its
// tools/list must fail exactly when the analysis lists an unrepresentable construct, with zod's message for it.
test('fidelity: unrepresentable zod 4 constructs are exactly those the live server cannot publish', async () => {
  const entry = path.join(root, 'test/fixtures/ts-unpublishable/server.ts');
  const r = spawnSync(process.execPath, [cli, 'contract', entry, '--json'], { encoding: 'utf8', cwd: root });
  assert.equal(r.status, 0, r.stderr);
  const names = [...fs.readFileSync(entry, 'utf8').matchAll(/only === "([a-z_]+)"/g)].map((m) => m[1]);
  const { analyzeTypeScript } = await import('../../server/src/analysis/typescript');
  const { createFileHost } = await import('../../server/src/host');
  const host = createFileHost();
  const analysed = analyzeTypeScript(entry, fs.readFileSync(entry, 'utf8'), host).tools;
  assert.deepEqual(analysed.map((t) => t.name.value), names);
  const tools = (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools;
  for (const t of analysed) {
    const name = t.name.value!;
    let live: unknown[] | undefined;
    let error = '';
    try {
      live = await liveTools(entry, { TOOLSMITH_ONLY_TOOL: name });
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    if (t.unrepresentable.length === 0) {
      assert.ok(live, `${name}: nothing listed as unrepresentable, but the live server could not publish it: ${error}`);
      assert.deepStrictEqual(tools.find((x) => x.name === name), live[0], `${name}: contract differs from the live one`);
      exact++;
      total++;
    } else {
      assert.equal(live, undefined, `${name}: ${t.unrepresentable.map((u) => u.construct).join(', ')} listed as unrepresentable, but the live server published it`);
      const first = t.unrepresentable[0].construct;
      assert.ok(ZOD_MESSAGE[first], `no zod message known for ${first}`);
      assert.match(error, ZOD_MESSAGE[first], `${name}: the live failure is not about ${first}`);
    }
  }
});

test('fidelity: summary', () => {
  console.log(`fidelity: ${exact}/${total} tools exact`);
  assert.ok(total >= 80, `only ${total} tools across the fixtures (at least 80 expected)`);
  assert.equal(exact, total);
});

/**
 * Contract fidelity (TESTING.md §3), TypeScript: every fixture server under test/fixtures/ts is started for real
 * (`node --import tsx`), asked for tools/list by the SDK's own Client over stdio, and compared tool by tool,
 * deep-equal (key order ignored), with `node dist/cli.js contract <file> --json` (./compare.ts); the order of the
 * tools is checked too.
 * Entry files: test/fixtures/ts/*.ts and test/fixtures/ts/<folder>/main.ts (the other files are its imports).
 */
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureFixtureDeps } from '../../scripts/ensure-fixture-deps.mjs';
import { compareTools, fixtureServers, liveTools as startAndList, predictedTools, root, type Tool } from './compare';

const fixtures = path.join(root, 'test/fixtures/ts');

const entries = (): string[] => fixtureServers(fixtures);

/** Folders pinning their own packages (the zod 3 fixture) get them installed once into an ignored node_modules. */
before(() => ensureFixtureDeps());

/** `env` given: the whole environment plus those variables; otherwise the SDK's default one for stdio servers. */
function liveTools(entry: string, env?: Record<string, string>): Promise<Tool[]> {
  return startAndList(entry, { command: process.execPath, args: ['--import', 'tsx', entry], cwd: root, env: env && { ...(process.env as Record<string, string>), ...env } });
}

let exact = 0;
let total = 0;

for (const entry of entries()) {
  test(`fidelity: ${path.relative(fixtures, entry)}`, async () => {
    const live = await liveTools(entry);
    const compared = compareTools([{ file: entry, live, predicted: predictedTools(entry) }], { order: true });
    exact += compared.exact;
    total += compared.total;
    const mismatches = compared.failures;
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
  const tools = predictedTools(entry);
  const names = [...fs.readFileSync(entry, 'utf8').matchAll(/only === "([a-z_]+)"/g)].map((m) => m[1]);
  const { analyzeTypeScript } = await import('../../server/src/analysis/typescript');
  const { createFileHost } = await import('../../server/src/host');
  const host = createFileHost();
  const analysed = analyzeTypeScript(entry, fs.readFileSync(entry, 'utf8'), host).tools;
  assert.deepEqual(
    analysed.map((t) => t.name.value),
    names,
  );
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
      assert.deepStrictEqual(
        tools.find((x) => x.name === name),
        live[0],
        `${name}: contract differs from the live one`,
      );
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

/**
 * Contract fidelity across the TypeScript SDK 1.x x zod releases real servers pin (scripts/ensure-ts-matrix.mjs
 * installs each combination once per machine into the user cache). For each combination the fixture servers of
 * test/fixtures/ts are copied next to its node_modules, started live with that SDK and zod, asked for tools/list, and
 * compared (./compare.ts) with the prediction for that SDK release (TsContractTraits) converted with the workspace's
 * own SDK and zod: the analysis in this process with the workspace trusted (as the CLI trusts it), and once per
 * combination `toolsmith contract --json` (dist/cli.js, the bundle) on one fixture, which must print the same.
 * The combinations in FULL run every fixture; the others the fixtures in CORE (TS_MATRIX_FULL=1: every fixture everywhere).
 *
 * A fixture that does not fit a release (zod 4 API under zod 3, registerTool before 1.11.4) cannot start: the
 * prediction must then say so (an unresolved part). A tool the prediction lists as unresolved is not compared; every
 * other tool must be exact, and each combination must have exact tools (so the test cannot pass on refusals alone).
 *   TS_MATRIX=sdk-1.10.2+zod-3.22.5,... picks combinations; TS_MATRIX_UNTRUSTED=1 predicts with the bundled copies.
 */
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { fixtureServers, root, type Tool } from './compare';
import { wireTools } from './wire';
import { predictCli, predictHere, scoreFixture, type MatrixOutcome } from './predict-file';
import { setWorkspaceTrust } from '../../server/src/contract/typescript/trust';

interface Combination {
  sdk: string;
  zod: string;
  name: string;
}
interface MatrixScript {
  TS_MATRIX: Combination[];
  matrixDir(c: Combination): string;
  ensureTsMatrix(names?: string[]): string[];
}

const fixtures = path.join(root, 'test/fixtures/ts');
const picked = (process.env.TS_MATRIX ?? '').split(',').filter(Boolean);
const untrusted = process.env.TS_MATRIX_UNTRUSTED === '1';

/** One combination per SDK line and zod line runs every fixture (the oldest, the zod-compat switch, execution, zod 4.4). */
const FULL = new Set(['sdk-1.10.2+zod-3.22.5', 'sdk-1.17.5+zod-3.25.76', 'sdk-1.22.0+zod-3.25.76', 'sdk-1.23.1+zod-4.0.17', 'sdk-1.24.3+zod-3.25.76', 'sdk-1.29.0+zod-4.4.3', 'sdk-1.32.2+zod-4.1.13']);
/** What every other combination runs: names, titles, annotations and _meta, unions, enums, the zod 3 and zod 4 feature files. */
const CORE = new Set(['annotations-meta.ts', 'basic-literals.ts', 'deprecated-tool.ts', 'unions.ts', 'enums-literals.ts', 'strings.ts', 'wrappers-meta.ts', 'zod3/main.ts']);
const full = process.env.TS_MATRIX_FULL === '1';
/** Where the fixtures' JavaScript is written, inside the copy (so their imports resolve to the combination's packages). */
const LIVE = '.live';

let script: MatrixScript;
let combinations: Combination[] = [];

/** The fixture servers (single files and folders with a main.ts), except the zod 3 folder's own pinned install. */
function entries(): { entry: string; copy: string }[] {
  return fixtureServers(fixtures).map((entry) => {
    const rel = path.relative(fixtures, entry);
    const top = rel.split(path.sep)[0];
    return { entry, copy: top === rel ? rel : top };
  });
}

type Prediction = { tools: Tool[]; unresolved: { tool: number; part: string; reason: string }[]; converters: { library: string; source: string; version: string }[] };

before(async () => {
  setWorkspaceTrust(!untrusted);
  script = (await import(path.join(root, 'scripts/ensure-ts-matrix.mjs'))) as MatrixScript;
  combinations = script.TS_MATRIX.filter((c) => picked.length === 0 || picked.includes(c.name));
  const failures = script.ensureTsMatrix(combinations.map((c) => c.name));
  assert.deepEqual(failures, [], failures.join('\n'));
});

type Outcome = MatrixOutcome;

/** One fixture under one combination: live vs predicted. */
async function checkFixture(c: Combination, dir: string, entry: string, outcome: Outcome): Promise<void> {
  const rel0 = path.relative(fixtures, entry);
  const file = path.join(dir, 'fixtures', rel0);
  const predicted = predictHere<Prediction>(file);
  const [live] = await Promise.all([
    // The oldest protocol version every release answers (1.10 does not know the newer ones; the server picks its own anyway).
    wireTools(path.join(dir, 'fixtures', LIVE, rel0.replace(/\.ts$/, '.mjs')), '2025-03-26').then(
      (tools) => ({ tools }),
      (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }),
    ),
  ]);
  const rel = path.relative(fixtures, entry);
  // Trusted: converted with this combination's releases (its copies, or the bundled ones when they are the same release).
  const used = predicted.converters.map((r) => `${r.library}@${r.version}`).sort();
  if (!untrusted && used.join() !== [`@modelcontextprotocol/sdk@${c.sdk}`, `zod@${c.zod}`].join()) {
    outcome.failures.push(`${rel}: not converted with the workspace's SDK and zod: ${JSON.stringify(predicted.converters)}`);
  }
  // A server that does not start at this release: the prediction must not claim a complete contract.
  scoreFixture(rel, file, predicted, live, outcome, !!process.env.TS_MATRIX_VERBOSE);
}

const summary: string[] = [];

test('ts matrix: every SDK x zod combination publishes what is predicted for it', async (t) => {
  assert.ok(combinations.length > 0, 'no combination picked');
  const started = Date.now();
  for (const c of combinations) {
    await t.test(c.name, async () => {
      const dir = script.matrixDir(c);
      const copyRoot = path.join(dir, 'fixtures');
      fs.rmSync(copyRoot, { recursive: true, force: true });
      const list = entries().filter((x) => full || FULL.has(c.name) || CORE.has(path.relative(fixtures, x.entry)));
      for (const e of new Set(list.map((x) => x.copy))) {
        // The zod 3 folder pins its own zod in a package.json: copied without it, it runs with this combination's.
        fs.cpSync(path.join(fixtures, e), path.join(copyRoot, e), { recursive: true, filter: (src) => !/node_modules|package\.json$/.test(src) });
      }
      const outcome: Outcome = { exact: 0, total: 0, unresolved: 0, refused: 0, failures: [] };
      // Each fixture server as plain JavaScript (esbuild, the transform tsx runs) with the SDK and zod left as imports,
      // resolved from this combination's node_modules: a server start without tsx's ~0.7 s of CPU.
      await esbuild.build({
        entryPoints: list.map((x) => path.join(copyRoot, path.relative(fixtures, x.entry))),
        outbase: copyRoot,
        outdir: path.join(copyRoot, LIVE),
        outExtension: { '.js': '.mjs' },
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        logLevel: 'error',
      });
      // The bundled CLI predicts the first fixture as the analysis here does (its workspace copies loaded from a bundle).
      const first = path.join(copyRoot, path.relative(fixtures, list[0].entry));
      const cliRun = predictCli<Prediction>(first, untrusted);
      // Four fixtures at a time: each is a server start.
      for (let i = 0; i < list.length; i += 4) await Promise.all(list.slice(i, i + 4).map((x) => checkFixture(c, dir, x.entry, outcome)));
      const byCli = await cliRun;
      assert.deepEqual(byCli, predictHere<Prediction>(first), `${c.name}: toolsmith contract --json differs from the analysis for ${path.relative(copyRoot, first)}`);
      summary.push(`${c.name}: ${outcome.exact}/${outcome.total} exact, ${outcome.unresolved} unresolved, ${outcome.refused}/${list.length} servers refused to start`);
      assert.deepEqual(outcome.failures, [], outcome.failures.join('\n'));
      // Untrusted, a zod 4 of another minor than the bundled one leaves every tool unresolved (the caveat): nothing to compare.
      assert.ok(outcome.exact > 0 || untrusted, `${c.name}: no tool compared exactly`);
    });
  }
  console.log(`ts matrix (${untrusted ? 'bundled' : 'workspace'} copies), ${((Date.now() - started) / 1000).toFixed(0)} s:\n  ${summary.join('\n  ')}`);
});

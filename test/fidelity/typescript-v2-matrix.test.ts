/**
 * Contract fidelity across the TypeScript SDK v2 releases (@modelcontextprotocol/server 2.0.0-2.4.0) x zod 4 minors x
 * the ArkType/Valibot releases the SDK documents (scripts/ensure-ts-v2-matrix.mjs installs each combination once per
 * machine into the user cache). For each combination every v2 fixture server (test/fixtures/ts-v2) is copied next to its
 * node_modules, started live with those packages, asked for tools/list (the 2025-11-25 era every current client
 * negotiates), and compared (./compare.ts, order included) with the prediction for that release
 * (tsV2ContractTraits), rebuilt and converted with the workspace's own SDK, zod, ArkType and Valibot: the analysis in
 * this process with the workspace trusted (as the CLI trusts it), and once per combination `toolsmith contract --json`
 * (dist/cli.js, the bundle) on one fixture, which must print the same.
 *
 * A fixture that does not fit a combination cannot start: the prediction must then say so (an unresolved part). A
 * tool the prediction lists as unresolved is not compared; every other tool must be exact, and each combination must
 * have exact tools.
 *   TS_V2_MATRIX=server-2.0.0+zod-4.0.17+libs-oldest,... picks combinations.
 *   TS_V2_MATRIX_UNTRUSTED=1 predicts with the bundled copies, and also compares the tools whose only unresolved part
 *   is the bundled-copies caveat: it prints how many of those are wrong (the measure behind that caveat).
 */
import { before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { compareTools, fixtureServers, root, type Tool } from './compare';
import { wireTools } from './wire';
import { predictCli, predictHere, scoreFixture, type MatrixOutcome } from './predict-file';
import { setWorkspaceTrust } from '../../server/src/contract/typescript/trust';
import { TS_SDK_V2_VERIFIED } from '../../common/frameworks';

interface Combination {
  server: string;
  zod: string;
  arktype: string;
  valibot: string;
  'to-json-schema': string;
  name: string;
}
interface MatrixScript {
  TS_V2_MATRIX: Combination[];
  v2MatrixDir(c: Combination): string;
  ensureTsV2Matrix(names?: string[]): string[];
}

const fixtures = path.join(root, 'test/fixtures/ts-v2');
const picked = (process.env.TS_V2_MATRIX ?? '').split(',').filter(Boolean);
const untrusted = process.env.TS_V2_MATRIX_UNTRUSTED === '1';
/** Where the fixtures' JavaScript is written, inside the copy (so their imports resolve to the combination's packages). */
const LIVE = '.live';

let script: MatrixScript;
let combinations: Combination[] = [];

type Prediction = { tools: Tool[]; unresolved: { tool: number; part: string; reason: string }[]; converters: { library: string; source: string; version: string; reason?: string }[] };

/** The version of each converting library in this combination (what the converters rows must name). */
function versionsOf(c: Combination): Record<string, string> {
  return { '@modelcontextprotocol/server': c.server, zod: c.zod, arktype: c.arktype, valibot: c.valibot, '@valibot/to-json-schema': c['to-json-schema'] };
}

before(async () => {
  setWorkspaceTrust(!untrusted);
  script = (await import(path.join(root, 'scripts/ensure-ts-v2-matrix.mjs'))) as MatrixScript;
  combinations = script.TS_V2_MATRIX.filter((c) => picked.length === 0 || picked.includes(c.name));
  const failures = script.ensureTsV2Matrix(combinations.map((c) => c.name));
  assert.deepEqual(failures, [], failures.join('\n'));
});

interface Outcome extends MatrixOutcome {
  /** Untrusted: tools left unresolved only by the bundled-copies caveat, compared anyway (exact / compared). */
  caveated: { exact: number; total: number; wrong: string[] };
}

const COPIES_CAVEAT = /converted with the bundled/;

async function checkFixture(c: Combination, dir: string, entry: string, outcome: Outcome): Promise<void> {
  const rel = path.relative(fixtures, entry);
  const file = path.join(dir, 'fixtures', rel);
  const predicted = predictHere<Prediction>(file);
  const live = await wireTools(path.join(dir, 'fixtures', LIVE, rel.replace(/\.ts$/, '.mjs')), '2025-11-25').then(
    (tools) => ({ tools }),
    (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }),
  );
  if (!untrusted) {
    // Converted with this combination's releases: the workspace's copies, or the bundled ones when they are the same release.
    const versions = versionsOf(c);
    const wrong = predicted.converters.filter((r) => r.version !== versions[r.library] || (r.source === 'bundled' && !/identical/.test(r.reason ?? '')));
    if (wrong.length || predicted.converters.length !== 5) outcome.failures.push(`${rel}: not converted with the workspace's copies: ${JSON.stringify(predicted.converters)}`);
  }
  scoreFixture(rel, file, predicted, live, outcome, !!process.env.TS_V2_MATRIX_VERBOSE);
  if ('error' in live) return;
  if (untrusted) {
    // The measure: the tools the caveat alone keeps from being compared.
    const onlyCaveat = predicted.tools.filter((_, i) => {
      const parts = predicted.unresolved.filter((u) => u.tool === i);
      return parts.length > 0 && parts.every((u) => u.part === 'contract' && COPIES_CAVEAT.test(u.reason));
    });
    const names = new Set(onlyCaveat.map((t) => t.name));
    const m = compareTools([{ file, live: live.tools.filter((t) => names.has(t.name)), predicted: onlyCaveat }], { order: false });
    outcome.caveated.exact += m.exact;
    outcome.caveated.total += m.total;
    outcome.caveated.wrong.push(...m.failures.map((f) => f.split('\n')[0]));
  }
}

const summary: string[] = [];

test('ts v2 matrix: every @modelcontextprotocol/server x zod x ArkType/Valibot combination publishes what is predicted for it', async (t) => {
  assert.ok(combinations.length > 0, 'no combination picked');
  const started = Date.now();
  for (const c of combinations) {
    await t.test(c.name, async () => {
      const dir = script.v2MatrixDir(c);
      const copyRoot = path.join(dir, 'fixtures');
      fs.rmSync(copyRoot, { recursive: true, force: true });
      fs.cpSync(fixtures, copyRoot, { recursive: true, filter: (src) => !/node_modules|package\.json$/.test(src) });
      const list = fixtureServers(fixtures);
      const outcome: Outcome = { exact: 0, total: 0, unresolved: 0, refused: 0, failures: [], caveated: { exact: 0, total: 0, wrong: [] } };
      // Each fixture server as plain JavaScript with its packages left as imports, resolved from this combination's node_modules.
      await esbuild.build({
        entryPoints: list.map((e) => path.join(copyRoot, path.relative(fixtures, e))),
        outbase: copyRoot,
        outdir: path.join(copyRoot, LIVE),
        outExtension: { '.js': '.mjs' },
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        logLevel: 'error',
      });
      const first = path.join(copyRoot, path.relative(fixtures, list[0]));
      const cliRun = predictCli<Prediction>(first, untrusted);
      for (let i = 0; i < list.length; i += 4) await Promise.all(list.slice(i, i + 4).map((e) => checkFixture(c, dir, e, outcome)));
      const byCli = await cliRun;
      assert.deepEqual(byCli, predictHere<Prediction>(first), `${c.name}: toolsmith contract --json differs from the analysis for ${path.relative(copyRoot, first)}`);
      const measured = untrusted ? `; bundled copies where only the caveat kept a tool unresolved: ${outcome.caveated.exact}/${outcome.caveated.total} exact` : '';
      summary.push(`${c.name}: ${outcome.exact}/${outcome.total} exact, ${outcome.unresolved} unresolved, ${outcome.refused}/${list.length} servers refused to start${measured}`);
      if (untrusted && outcome.caveated.wrong.length) console.log(`${c.name}, wrong with the bundled copies:\n  ${outcome.caveated.wrong.join('\n  ')}`);
      assert.deepEqual(outcome.failures, [], outcome.failures.join('\n'));
      assert.ok(outcome.exact > 0 || untrusted, `${c.name}: no tool compared exactly`);
    });
  }
  console.log(`ts v2 matrix (${untrusted ? 'bundled' : 'workspace'} copies), ${((Date.now() - started) / 1000).toFixed(0)} s:\n  ${summary.join('\n  ')}`);
});

test('ts v2 matrix: every release it checks is listed as verified, and every verified release is checked', async () => {
  const s = (await import(path.join(root, 'scripts/ensure-ts-v2-matrix.mjs'))) as MatrixScript;
  assert.deepEqual([...new Set(s.TS_V2_MATRIX.map((c) => c.server))].sort(), [...TS_SDK_V2_VERIFIED].sort());
});

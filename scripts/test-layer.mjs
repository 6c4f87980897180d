// Runs one test layer: node scripts/test-layer.mjs <unit|fidelity|protocol|webview|e2e> [--no-prepare]
// Each layer first runs scripts/prepare-<layer>.mjs when it exists (installs what the layer needs),
// then node's test runner over test/<layer>/**/*.test.ts (TypeScript through tsx).
// A layer that finds no test fails: a layer that cannot run must say so, not pass quietly.
import { spawnSync, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAYERS = ['unit', 'fidelity', 'protocol', 'webview', 'e2e'];

function findTests(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'fixtures') continue;
      out.push(...findTests(full));
    } else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

/** Builds dist/. Serialised with flock where available, so parallel runs never read a half-written bundle. */
export function build() {
  const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
  if (hasFlock) execFileSync('flock', ['/tmp/toolsmith-build.lock', process.execPath, path.join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
  else execFileSync(process.execPath, [path.join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
}

export function runLayer(layer, { prepare = true, extraArgs = [] } = {}) {
  if (!LAYERS.includes(layer)) throw new Error(`unknown layer ${layer} (${LAYERS.join(', ')})`);
  ensureDeps();
  build();
  const prep = path.join(root, 'scripts', `prepare-${layer}.mjs`);
  if (prepare && fs.existsSync(prep)) {
    const r = spawnSync(process.execPath, [prep], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(`[toolsmith] preparing the ${layer} layer failed (exit ${r.status}).`);
      return { layer, pass: 0, fail: 1, skipped: 0, status: 1 };
    }
  }
  const files = findTests(path.join(root, 'test', layer));
  if (files.length === 0) {
    console.error(`[toolsmith] the ${layer} layer has no test files under test/${layer}: failing loudly.`);
    return { layer, pass: 0, fail: 1, skipped: 0, status: 1 };
  }
  // e2e (one workbench at a time) and fidelity (live servers, timing figures) run one file at a time; the other
  // layers run two files at once — most of a file's time is one busy core (tsx, TypeScript, a spawned server), and
  // node's default is availableParallelism() - 1, i.e. 1 on a 2-core machine. TOOLSMITH_TEST_CONCURRENCY overrides.
  const filesAtOnce = process.env.TOOLSMITH_TEST_CONCURRENCY || (layer === 'e2e' || layer === 'fidelity' ? '1' : String(Math.max(2, os.availableParallelism() - 1)));
  const concurrency = [`--test-concurrency=${filesAtOnce}`];
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...concurrency, ...extraArgs, ...files.map((f) => path.relative(root, f))], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  process.stdout.write(r.stdout ?? '');
  const count = (key) => Number((r.stdout ?? '').match(new RegExp(`^ℹ ${key} (\\d+)`, 'm'))?.[1] ?? 0);
  const result = { layer, pass: count('pass'), fail: count('fail') + count('cancelled'), skipped: count('skipped') + count('todo'), status: r.status ?? 1 };
  if (result.pass + result.fail === 0) {
    console.error(`[toolsmith] the ${layer} layer executed no test: failing loudly.`);
    result.fail = 1;
    result.status = 1;
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const layer = process.argv[2];
  const r = runLayer(layer, { prepare: !process.argv.includes('--no-prepare'), extraArgs: process.argv.slice(3).filter((a) => a !== '--no-prepare') });
  console.log(`\n${layer}: ${r.pass} passed, ${r.fail} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
  process.exit(r.status === 0 && r.fail === 0 ? 0 : 1);
}

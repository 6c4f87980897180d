// The guards: ESLint (eslint.config.mjs), the layer and cycle check (.dependency-cruiser.cjs) and the formatter check
// (.prettierrc.json). `npm run lint` runs them; `npm test` runs them first. Every check runs even when an earlier one
// fails, and a missing tool is a failure, never a skip.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The layers the dependency check walks (tests and benchmarks may import anything). */
export const CRUISED = ['server/src', 'client/src', 'webview/src', 'common'];

const CHECKS = [
  {
    name: 'eslint',
    pkg: 'eslint',
    bin: 'eslint',
    args: ['.'],
    needs: ['typescript-eslint', '@eslint/js', 'globals'],
    fix: 'fix the code, or tune the rule in eslint.config.mjs with a one-line reason',
  },
  {
    name: 'dependency-cruiser',
    pkg: 'dependency-cruiser',
    bin: 'depcruise',
    args: ['--config', '.dependency-cruiser.cjs', ...CRUISED],
    needs: [],
    fix: 'import from the layer below (see the directions at the top of .dependency-cruiser.cjs), or break the cycle',
  },
  { name: 'prettier', pkg: 'prettier', bin: 'prettier', args: ['--check', '.'], needs: [], fix: 'npm run format' },
];

/** The script a package declares as its `bin` entry, or undefined when the package is not installed. */
function binOf(pkg, bin) {
  const manifest = path.join(root, 'node_modules', pkg, 'package.json');
  if (!fs.existsSync(manifest)) return undefined;
  const declared = JSON.parse(fs.readFileSync(manifest, 'utf8')).bin;
  const rel = typeof declared === 'string' ? declared : declared?.[bin];
  return rel ? path.join(root, 'node_modules', pkg, rel) : undefined;
}

function installed(pkg) {
  return fs.existsSync(path.join(root, 'node_modules', pkg, 'package.json'));
}

/** Runs every check; returns one { name, ok } per check (output goes to the terminal as it comes). */
export function runLint() {
  ensureDeps();
  const results = [];
  for (const check of CHECKS) {
    console.log(`\n--- ${check.name} ---`);
    const script = binOf(check.pkg, check.bin);
    const missing = [check.pkg, ...check.needs].filter((p) => !installed(p));
    if (!script || missing.length) {
      console.error(`[toolsmith] ${check.name} cannot run: ${missing.join(', ') || check.pkg} not installed in node_modules (npm install): failing.`);
      results.push({ name: check.name, ok: false });
      continue;
    }
    const r = spawnSync(process.execPath, [script, ...check.args], { cwd: root, stdio: 'inherit' });
    const ok = r.status === 0;
    if (ok) console.log(`${check.name}: no findings`);
    else console.error(`[toolsmith] ${check.name} failed (exit ${r.status ?? r.signal}): ${check.fix}.`);
    results.push({ name: check.name, ok });
  }
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = runLint();
  const failed = results.filter((r) => !r.ok).map((r) => r.name);
  console.log(`\nlint: ${failed.length ? `FAILED (${failed.join(', ')})` : `${results.length} checks, no findings`}`);
  process.exit(failed.length ? 1 : 0);
}

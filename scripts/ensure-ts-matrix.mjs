// Installs the TypeScript SDK x zod version matrix of the fidelity layer (test/fidelity/typescript-matrix.test.ts): each
// combination is a real `npm install @modelcontextprotocol/sdk@S zod@Z` (the layout a server pinning them has: npm
// nests the SDK's own zod when the pinned one does not satisfy its range), once per machine, in the user cache:
//   ${XDG_CACHE_HOME:-$HOME/.cache}/toolsmith/ts-matrix/sdk-<S>+zod-<Z>
// A stamp (what was asked) makes a second run instant. One progress line per combination; npm's output goes to
// <dir>/install.log.
//   node scripts/ensure-ts-matrix.mjs [sdk-1.10.2+zod-3.22.5 ...]   (no names: the whole matrix)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLogged, installedVersion } from './logged-run.mjs';
import { userCache } from './user-cache.mjs';
import { withDirLock } from './dir-lock.mjs';

export const matrixCache = path.join(userCache, 'ts-matrix');

/**
 * The releases real servers pin, newest patch of each minor: SDK 1.10-1.22 depend on zod ^3.23.8 (zod 3 only), 1.23+
 * accept `^3.25 || ^4.0`. Not a full cross product: every SDK release with the zod its pinners use, every zod minor
 * with an old and a new SDK where the SDK accepts it, and the newest SDK with every zod minor.
 */
// prettier-ignore
export const TS_MATRIX = [
  ['1.10.2', '3.22.5'], ['1.10.2', '3.23.8'], ['1.10.2', '3.25.76'],
  ['1.12.3', '3.23.8'],
  ['1.15.1', '3.25.76'],
  ['1.17.5', '3.22.5'], ['1.17.5', '3.25.76'],
  ['1.20.2', '3.23.8'], ['1.20.2', '3.25.76'],
  ['1.22.0', '3.25.76'],
  ['1.23.1', '3.25.76'], ['1.23.1', '4.0.17'],
  ['1.24.3', '3.25.76'], ['1.24.3', '4.1.13'],
  ['1.26.0', '4.0.17'], ['1.26.0', '4.3.6'],
  ['1.29.0', '3.25.76'], ['1.29.0', '4.4.3'],
  ['1.32.2', '3.25.76'], ['1.32.2', '4.0.17'], ['1.32.2', '4.1.13'], ['1.32.2', '4.3.6'], ['1.32.2', '4.4.3'], ['1.32.2', '4.6.7'],
].map(([sdk, zod]) => ({ sdk, zod, name: `sdk-${sdk}+zod-${zod}` }));

export function matrixDir(entry) {
  return path.join(matrixCache, entry.name);
}

/** Installs one combination unless its stamp says it is there; returns its folder. */
export function ensureCombination(entry, print = console.log) {
  const dir = matrixDir(entry);
  return withDirLock(
    dir,
    () => {
      const stamp = path.join(dir, '.toolsmith-stamp');
      const wanted = JSON.stringify({ sdk: entry.sdk, zod: entry.zod });
      if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) {
        print(`[ts-matrix] ${entry.name}: cached`);
        return dir;
      }
      const started = Date.now();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const log = path.join(dir, 'install.log');
      // type: module, as the fixture servers are ES modules; exact pins, no lock file kept.
      fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, type: 'module', dependencies: { '@modelcontextprotocol/sdk': entry.sdk, zod: entry.zod } }, null, 2)}\n`);
      runLogged('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--loglevel=error'], log);
      for (const [name, version] of [
        ['@modelcontextprotocol/sdk', entry.sdk],
        ['zod', entry.zod],
      ]) {
        const got = installedVersion(dir, name);
        if (got !== version) throw new Error(`${entry.name}: npm installed ${name} ${got ?? 'nothing'}, not ${version}; log: ${log}`);
      }
      fs.writeFileSync(stamp, wanted);
      print(`[ts-matrix] ${entry.name}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return dir;
    },
    30 * 60_000,
  );
}

export function ensureTsMatrix(names = []) {
  const entries = TS_MATRIX.filter((e) => names.length === 0 || names.includes(e.name));
  const started = Date.now();
  const failures = [];
  for (const [i, entry] of entries.entries()) {
    try {
      ensureCombination(entry, (line) => console.log(`${line} (${i + 1}/${entries.length})`));
    } catch (err) {
      failures.push(`${entry.name}: ${err instanceof Error ? err.message : String(err)}`);
      console.log(`[ts-matrix] ${entry.name}: FAILED (${i + 1}/${entries.length})`);
    }
  }
  console.log(`[ts-matrix] ${entries.length - failures.length}/${entries.length} combinations ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${matrixCache})`);
  return failures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failures = ensureTsMatrix(process.argv.slice(2));
  for (const f of failures) console.error(f);
  process.exit(failures.length ? 1 : 0);
}

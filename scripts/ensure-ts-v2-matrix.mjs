// Installs the TypeScript SDK v2 version matrix of the fidelity layer (test/fidelity/typescript-v2-matrix.test.ts): each
// combination is a real `npm install @modelcontextprotocol/server@S zod@Z arktype@A valibot@V @valibot/to-json-schema@J`
// (the layout a server pinning them has: the SDK depends on zod ^4.2.0, so npm nests its own zod under it when the
// pinned one is 4.0 or 4.1), once per machine, in the user cache:
//   ${XDG_CACHE_HOME:-$HOME/.cache}/toolsmith/ts-v2-matrix/server-<S>+zod-<Z>+<libs>
// A stamp (what was asked) makes a second run instant. One progress line per combination; npm's output goes to
// <dir>/install.log.
//   node scripts/ensure-ts-v2-matrix.mjs [server-2.0.0+zod-4.0.17+libs-oldest ...]   (no names: the whole matrix)
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLogged, installedVersion } from './logged-run.mjs';
import { userCache } from './user-cache.mjs';
import { withDirLock } from './dir-lock.mjs';

export const v2MatrixCache = path.join(userCache, 'ts-v2-matrix');

/**
 * The ArkType and Valibot releases the SDK documents (its pnpm catalog: arktype ^2.1.29, valibot ^1.2.0,
 * @valibot/to-json-schema ^1.5.0, the first releases with `~standard.jsonSchema` / `toStandardJsonSchema`) and the newest.
 */
const LIBS = {
  oldest: { arktype: '2.1.29', valibot: '1.2.0', 'to-json-schema': '1.5.0' },
  newest: { arktype: '2.2.10', valibot: '1.5.0', 'to-json-schema': '1.8.0' },
};

/**
 * Every v2 release (2.3.0 ships 2.3.1's schema code) with the newest zod; the oldest and the newest release with every
 * zod 4 minor (newest patch); the releases between with an older zod; the documented ArkType/Valibot floor spread
 * over both SDK ends and several zod minors.
 */
// prettier-ignore
export const TS_V2_MATRIX = [
  ['2.0.0', '4.0.17', 'oldest'], ['2.0.0', '4.1.13', 'newest'], ['2.0.0', '4.2.1', 'oldest'], ['2.0.0', '4.3.6', 'newest'],
  ['2.0.0', '4.4.3', 'newest'], ['2.0.0', '4.5.4', 'newest'], ['2.0.0', '4.6.7', 'newest'],
  ['2.1.0', '4.3.6', 'newest'], ['2.1.0', '4.6.7', 'oldest'],
  ['2.2.0', '4.2.1', 'newest'], ['2.2.0', '4.6.7', 'newest'],
  ['2.3.1', '4.4.3', 'oldest'], ['2.3.1', '4.6.7', 'newest'],
  ['2.4.0', '4.0.17', 'newest'], ['2.4.0', '4.1.13', 'oldest'], ['2.4.0', '4.2.1', 'newest'], ['2.4.0', '4.3.6', 'newest'],
  ['2.4.0', '4.4.3', 'newest'], ['2.4.0', '4.5.4', 'oldest'], ['2.4.0', '4.6.7', 'newest'],
].map(([server, zod, libs]) => ({ server, zod, ...LIBS[libs], name: `server-${server}+zod-${zod}+libs-${libs}` }));

export function v2MatrixDir(entry) {
  return path.join(v2MatrixCache, entry.name);
}

/** The packages of a combination, at their exact versions. */
function dependencies(entry) {
  return {
    '@modelcontextprotocol/server': entry.server,
    zod: entry.zod,
    arktype: entry.arktype,
    valibot: entry.valibot,
    '@valibot/to-json-schema': entry['to-json-schema'],
  };
}

/** Installs one combination unless its stamp says it is there; returns its folder. */
export function ensureV2Combination(entry, print = console.log) {
  const dir = v2MatrixDir(entry);
  return withDirLock(
    dir,
    () => {
      const stamp = path.join(dir, '.toolsmith-stamp');
      const wanted = JSON.stringify(dependencies(entry));
      if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) {
        print(`[ts-v2-matrix] ${entry.name}: cached`);
        return dir;
      }
      const started = Date.now();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const log = path.join(dir, 'install.log');
      // type: module, as the fixture servers are ES modules; exact pins, no lock file kept.
      fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, type: 'module', dependencies: dependencies(entry) }, null, 2)}\n`);
      runLogged('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--loglevel=error'], log);
      for (const [name, version] of Object.entries(dependencies(entry))) {
        const got = installedVersion(dir, name);
        if (got !== version) throw new Error(`${entry.name}: npm installed ${name} ${got ?? 'nothing'}, not ${version}; log: ${log}`);
      }
      fs.writeFileSync(stamp, wanted);
      print(`[ts-v2-matrix] ${entry.name}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return dir;
    },
    30 * 60_000,
  );
}

export function ensureTsV2Matrix(names = []) {
  const entries = TS_V2_MATRIX.filter((e) => names.length === 0 || names.includes(e.name));
  const started = Date.now();
  const failures = [];
  for (const [i, entry] of entries.entries()) {
    try {
      ensureV2Combination(entry, (line) => console.log(`${line} (${i + 1}/${entries.length})`));
    } catch (err) {
      failures.push(`${entry.name}: ${err instanceof Error ? err.message : String(err)}`);
      console.log(`[ts-v2-matrix] ${entry.name}: FAILED (${i + 1}/${entries.length})`);
    }
  }
  console.log(`[ts-v2-matrix] ${entries.length - failures.length}/${entries.length} combinations ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${v2MatrixCache})`);
  return failures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failures = ensureTsV2Matrix(process.argv.slice(2));
  for (const f of failures) console.error(f);
  process.exit(failures.length ? 1 : 0);
}

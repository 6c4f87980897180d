// Installs the MCP Apps workspaces of the fidelity layer (test/fidelity/apps.test.ts): @modelcontextprotocol/ext-apps
// with the SDK line each release calls (2.x: @modelcontextprotocol/server, 1.x: @modelcontextprotocol/sdk), a real
// `npm install` of exact versions, once per machine, in the user cache:
//   ${XDG_CACHE_HOME:-$HOME/.cache}/toolsmith/ts-apps/<name>
// A stamp (what was asked) makes a second run instant; npm's output goes to <dir>/install.log.
//   node scripts/ensure-apps.mjs [name ...]   (no names: every workspace)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userCache } from './user-cache.mjs';
import { withDirLock } from './dir-lock.mjs';

export const appsCache = path.join(userCache, 'ts-apps');

/**
 * ext-apps 2.0.4 (the newest) on @modelcontextprotocol/server 2.4.0 (the v2 release the builder is checked against),
 * and ext-apps 1.7.5 (the last 1.x) on @modelcontextprotocol/sdk 1.32.2, with zod 4.6.7 (the release Toolsmith
 * bundles): the fixtures as written and bundled. And what the published MCP Apps examples were built with
 * (@modelcontextprotocol/server 2.0.0, zod 4.3.5: their bun bundles inline those): the fixtures bundled only — a
 * source importing zod 4.3.5 is the v2 converters' own question (v2 converts with Toolsmith's zod).
 * `honestOnly`: forms whose tools may be unresolved (with a reason) but never wrong — a 1.x bundle converts its
 * schemas with the SDK and zod copies inlined in it, which are not loaded.
 */
export const APPS_WORKSPACES = [
  { name: 'ext-apps-2.0.4+server-2.4.0', line: 'v2', forms: ['source', 'bundle'], packages: { '@modelcontextprotocol/ext-apps': '2.0.4', '@modelcontextprotocol/server': '2.4.0', zod: '4.6.7' } },
  { name: 'ext-apps-2.0.4+server-2.0.0+zod-4.3.5', line: 'v2', forms: ['bundle'], packages: { '@modelcontextprotocol/ext-apps': '2.0.4', '@modelcontextprotocol/server': '2.0.0', zod: '4.3.5' } },
  {
    name: 'ext-apps-1.7.5+sdk-1.32.2',
    line: 'v1',
    forms: ['source', 'bundle'],
    honestOnly: ['bundle'],
    packages: { '@modelcontextprotocol/ext-apps': '1.7.5', '@modelcontextprotocol/sdk': '1.32.2', zod: '4.6.7' },
  },
];

export function appsDir(entry) {
  return path.join(appsCache, entry.name);
}

function run(command, args, log) {
  fs.appendFileSync(log, `\n$ ${command} ${args.join(' ')}\n`);
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  fs.appendFileSync(log, (r.stdout ?? '') + (r.stderr ?? '') + (r.error ? String(r.error) : ''));
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${r.status}); log: ${log}`);
}

function installedVersion(dir, name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Installs one workspace unless its stamp says it is there; returns its folder. */
export function ensureAppsWorkspace(entry, print = console.log) {
  const dir = appsDir(entry);
  return withDirLock(
    dir,
    () => {
      const stamp = path.join(dir, '.toolsmith-stamp');
      const wanted = JSON.stringify(entry.packages);
      if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) {
        print(`[ts-apps] ${entry.name}: cached`);
        return dir;
      }
      const started = Date.now();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const log = path.join(dir, 'install.log');
      // type: module, as the fixture servers are ES modules; exact pins (npm adds ext-apps' required peers).
      fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ private: true, type: 'module', dependencies: entry.packages }, null, 2)}\n`);
      run('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline', '--loglevel=error'], log);
      for (const [name, version] of Object.entries(entry.packages)) {
        const got = installedVersion(dir, name);
        if (got !== version) throw new Error(`${entry.name}: npm installed ${name} ${got ?? 'nothing'}, not ${version}; log: ${log}`);
      }
      fs.writeFileSync(stamp, wanted);
      print(`[ts-apps] ${entry.name}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return dir;
    },
    30 * 60_000,
  );
}

export function ensureApps(names = []) {
  const entries = APPS_WORKSPACES.filter((e) => names.length === 0 || names.includes(e.name));
  const failures = [];
  for (const entry of entries) {
    try {
      ensureAppsWorkspace(entry);
    } catch (err) {
      failures.push(`${entry.name}: ${err instanceof Error ? err.message : String(err)}`);
      console.log(`[ts-apps] ${entry.name}: FAILED`);
    }
  }
  return failures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failures = ensureApps(process.argv.slice(2));
  for (const f of failures) console.error(f);
  process.exit(failures.length ? 1 : 0);
}

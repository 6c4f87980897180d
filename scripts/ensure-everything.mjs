// The reference MCP server @modelcontextprotocol/server-everything at a pinned version, installed from the npm registry
// into the ignored, cached folder .cache/server-everything (the protocol layer's playground tests talk to it for real).
// The second run finds it ready (stamp file) and costs nothing.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
export const EVERYTHING_VERSION = '2026.8.31';
const dir = path.join(root, '.cache', 'server-everything');
const stamp = path.join(dir, '.toolsmith-ready');
/** The server's entry script (its package "bin"). */
export const everythingEntry = path.join(dir, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

export function ensureEverything() {
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8').trim() === EVERYTHING_VERSION && fs.existsSync(everythingEntry)) return everythingEntry;
  console.log(`[toolsmith] installing @modelcontextprotocol/server-everything@${EVERYTHING_VERSION} into .cache/server-everything...`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // A private package.json keeps npm from walking up into the project's own manifest.
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'toolsmith-cache-server-everything', private: true }, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', '--prefix', dir, `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`], { cwd: dir, stdio: 'inherit' });
  if (!fs.existsSync(everythingEntry)) throw new Error(`server-everything did not install at ${everythingEntry}`);
  fs.writeFileSync(stamp, EVERYTHING_VERSION);
  return everythingEntry;
}

if (process.argv[1] === self) ensureEverything();

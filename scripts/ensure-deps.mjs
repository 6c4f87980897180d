// Installs the npm dependencies when node_modules is missing or older than package-lock.json.
// Used by every script so that a fresh clone needs nothing but `npm test` / `npm run demo`.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const marker = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');

export function depsReady() {
  return fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs;
}

export function ensureDeps() {
  if (depsReady()) return;
  console.log('[toolsmith] installing npm dependencies (npm ci)...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDeps();

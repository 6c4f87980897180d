// Installs the npm dependencies when node_modules is missing or older than package-lock.json (and was not installed
// from this very lock file: checkouts sharing one node_modules have their own lock mtimes).
// Used by every script so that a fresh clone needs nothing but `npm test` / `npm run demo`.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const marker = path.join(root, 'node_modules', '.package-lock.json');
const lock = path.join(root, 'package-lock.json');
const installedFrom = path.join(root, 'node_modules', '.toolsmith-installed-lock');

const lockHash = () => crypto.createHash('sha256').update(fs.readFileSync(lock)).digest('hex');

export function depsReady() {
  if (!fs.existsSync(marker)) return false;
  if (fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return true;
  return fs.existsSync(installedFrom) && fs.readFileSync(installedFrom, 'utf8') === lockHash();
}

export function ensureDeps() {
  if (depsReady()) return;
  console.log('[toolsmith] installing npm dependencies (npm ci)...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(installedFrom, lockHash());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDeps();

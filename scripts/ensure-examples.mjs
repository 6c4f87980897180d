// Installs the dependencies of the demo workspace examples/ (used by `npm run demo` and the tests that start the
// example servers): npm packages of examples/helpdesk-ts and a venv with the pinned official Python SDK in
// examples/docs-py/.venv. Both are ignored by git and reused while their manifests do not change.
import { execFileSync, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const examplesDir = path.join(root, 'examples');
const helpdesk = path.join(examplesDir, 'helpdesk-ts');
const docs = path.join(examplesDir, 'docs-py');
export const docsVenvPython = path.join(docs, '.venv', 'bin', 'python');

function withNpmLock(args, cwd) {
  // The npm lock shared with the team: two npm processes never run at once on this 2-core machine.
  const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
  const argv = hasFlock ? ['flock', '/tmp/toolsmith-npm.lock', 'npm', ...args] : ['npm', ...args];
  execFileSync(argv[0], argv.slice(1), { cwd, stdio: 'inherit' });
}

function helpdeskReady() {
  const marker = path.join(helpdesk, 'node_modules', '.package-lock.json');
  const lock = path.join(helpdesk, 'package-lock.json');
  return fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs;
}

function docsVenvReady() {
  const requirements = path.join(docs, 'requirements.txt');
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(requirements)).digest('hex');
  const stamp = path.join(docs, '.venv', '.toolsmith-requirements');
  return fs.existsSync(docsVenvPython) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted;
}

/** True when both example servers' dependencies are installed and current (nothing to do). */
export function examplesReady() {
  return helpdeskReady() && docsVenvReady();
}

export function ensureHelpdeskDeps() {
  if (helpdeskReady()) return;
  console.log('[toolsmith] installing examples/helpdesk-ts dependencies...');
  withNpmLock(['install', '--no-audit', '--no-fund'], helpdesk);
}

export function ensureDocsVenv() {
  const requirements = path.join(docs, 'requirements.txt');
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(requirements)).digest('hex');
  const stamp = path.join(docs, '.venv', '.toolsmith-requirements');
  if (fs.existsSync(docsVenvPython) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return docsVenvPython;
  const python = process.env.TOOLSMITH_PYTHON || 'python3';
  console.log('[toolsmith] creating examples/docs-py/.venv (official Python MCP SDK)...');
  fs.rmSync(path.join(docs, '.venv'), { recursive: true, force: true });
  execFileSync(python, ['-m', 'venv', path.join(docs, '.venv')], { stdio: 'inherit' });
  execFileSync(docsVenvPython, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '-r', requirements], { stdio: 'inherit' });
  fs.writeFileSync(stamp, wanted);
  return docsVenvPython;
}

export function ensureExamples() {
  ensureHelpdeskDeps();
  ensureDocsVenv();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureExamples();

// Creates (once) the project-local Python virtual environment used by fixtures, examples and tests:
// .cache/venv with the pinned packages of test/python-requirements.txt. Never touches the system Python.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { withDirLock } from './dir-lock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const venvDir = path.join(root, '.cache', 'venv');
export const venvPython = path.join(venvDir, 'bin', 'python');
const requirements = path.join(root, 'test', 'python-requirements.txt');

/** Creates (or reuses, when its requirements did not change) a venv at `dir` with the pinned `requirementsFile`. */
export function ensureVenvAt(dir, requirementsFile) {
  const python = path.join(dir, 'bin', 'python');
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(requirementsFile)).digest('hex');
  const stamp = path.join(dir, '.toolsmith-requirements');
  const ready = () => fs.existsSync(python) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted;
  if (ready()) return python;
  // Several test runs (worktrees sharing one .cache) may ask at once: one builds, the others wait for it.
  withDirLock(dir, () => {
    if (!ready()) build(dir, python, stamp, wanted, requirementsFile);
  });
  return python;
}

function build(dir, python, stamp, wanted, requirementsFile) {
  const basePython = process.env.TOOLSMITH_PYTHON || 'python3';
  console.log(`[toolsmith] creating Python venv at ${path.relative(root, dir)} (${basePython})...`);
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(basePython, ['-m', 'venv', dir], { stdio: 'inherit' });
  execFileSync(python, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '-r', requirementsFile], { stdio: 'inherit' });
  fs.writeFileSync(stamp, wanted);
}

export function ensureVenv() {
  return ensureVenvAt(venvDir, requirements);
}

/** .cache/venv-mcp1: the newest mcp 1.x (test/python-requirements-mcp1.txt), to prove the removed 1.x import's contract. */
export const venvMcp1Dir = path.join(root, '.cache', 'venv-mcp1');
export function ensureVenvMcp1() {
  return ensureVenvAt(venvMcp1Dir, path.join(root, 'test', 'python-requirements-mcp1.txt'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(process.argv[2] === 'mcp1' ? ensureVenvMcp1() : ensureVenv());

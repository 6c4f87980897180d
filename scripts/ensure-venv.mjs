// Creates (once) the project-local Python virtual environment used by fixtures, examples and tests:
// .cache/venv with the pinned packages of test/python-requirements.txt (a link into the user's cache, see
// ensureVenvAt). Never touches the system Python.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { userCache } from './user-cache.mjs';
import { withDirLock } from './dir-lock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const venvDir = path.join(root, '.cache', 'venv');
export const venvPython = path.join(venvDir, 'bin', 'python');
const requirements = path.join(root, 'test', 'python-requirements.txt');

const cacheRoot = path.join(root, '.cache');

/**
 * Creates (or reuses, when its requirements did not change) a venv at `dir` with the pinned `requirementsFile`.
 * A venv under the clone's .cache/ is built once per machine in the user's cache (~/.cache/toolsmith/venvs/, named by
 * the folder and the requirements' hash, so clones pinning other versions get their own) and `dir` is a link to it:
 * a fresh clone then reuses the venvs instead of spending minutes in pip.
 */
export function ensureVenvAt(dir, requirementsFile) {
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(requirementsFile)).digest('hex');
  const inClone = path.relative(cacheRoot, dir);
  if (inClone.startsWith('..') || path.isAbsolute(inClone)) return ensureVenvIn(dir, wanted, requirementsFile);
  const shared = path.join(userCache, 'venvs', `${inClone.split(path.sep).join('+')}-${wanted.slice(0, 12)}`);
  ensureVenvIn(shared, wanted, requirementsFile);
  let current;
  try {
    current = fs.readlinkSync(dir);
  } catch {
    current = undefined;
  }
  if (current !== shared) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    const link = `${dir}.${process.pid}.link`;
    fs.rmSync(link, { force: true });
    fs.symlinkSync(shared, link, 'dir');
    fs.renameSync(link, dir);
  }
  return path.join(dir, 'bin', 'python');
}

function ensureVenvIn(dir, wanted, requirementsFile) {
  const python = path.join(dir, 'bin', 'python');
  const stamp = path.join(dir, '.toolsmith-requirements');
  const ready = () => fs.existsSync(python) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted;
  if (ready()) return python;
  // Several test runs (clones and worktrees) may ask at once: one builds, the others wait for it.
  withDirLock(dir, () => {
    if (!ready()) build(dir, python, stamp, wanted, requirementsFile);
  });
  return python;
}

function build(dir, python, stamp, wanted, requirementsFile) {
  const basePython = process.env.TOOLSMITH_PYTHON || 'python3';
  console.log(`[toolsmith] creating Python venv at ${dir} (${basePython})...`);
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

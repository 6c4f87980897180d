// Creates (once) the project-local Python virtual environment used by fixtures, examples and tests:
// .cache/venv with the pinned packages of test/python-requirements.txt. Never touches the system Python.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const venvDir = path.join(root, '.cache', 'venv');
export const venvPython = path.join(venvDir, 'bin', 'python');
const requirements = path.join(root, 'test', 'python-requirements.txt');

export function ensureVenv() {
  const wanted = crypto.createHash('sha256').update(fs.readFileSync(requirements)).digest('hex');
  const stamp = path.join(venvDir, '.toolsmith-requirements');
  if (fs.existsSync(venvPython) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) return venvPython;
  const python = process.env.TOOLSMITH_PYTHON || 'python3';
  console.log(`[toolsmith] creating Python venv at ${path.relative(root, venvDir)} (${python})...`);
  fs.rmSync(venvDir, { recursive: true, force: true });
  execFileSync(python, ['-m', 'venv', venvDir], { stdio: 'inherit' });
  execFileSync(venvPython, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '-r', requirements], { stdio: 'inherit' });
  fs.writeFileSync(stamp, wanted);
  return venvPython;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureVenv());

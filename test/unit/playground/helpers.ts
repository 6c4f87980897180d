// Launch specs for the fixture servers of test/fixtures/servers, shared by the session and webview tests.
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { LaunchSpec } from '../../../client/src/servers/session';

export const root = path.resolve(__dirname, '..', '..', '..');
export const fixtures = path.join(root, 'test', 'fixtures', 'servers');

export function tsServer(file: string, ...args: string[]): LaunchSpec {
  return { command: process.execPath, args: ['--import', 'tsx', path.join(fixtures, 'ts', file), ...args], cwd: root };
}
export function nodeServer(file: string, ...args: string[]): LaunchSpec {
  return { command: process.execPath, args: [path.join(fixtures, 'ts', file), ...args], cwd: root };
}

let python: string | undefined;
/** The project venv's Python (created by scripts/ensure-venv.mjs on first use). */
export function venvPython(): string {
  if (!python) python = execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-venv.mjs')], { encoding: 'utf8' }).trim().split('\n').pop()!;
  return python;
}
export function pyServer(file: string, ...args: string[]): LaunchSpec {
  return { command: venvPython(), args: [path.join(fixtures, 'python', file), ...args], cwd: root };
}

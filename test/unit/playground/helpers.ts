// Launch specs for the fixture servers of test/fixtures/servers, shared by the session and webview tests.
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { LaunchSpec, McpSession } from '../../../client/src/servers/session';
import { PlaygroundController } from '../../../client/src/playground/controller';
import type { HostToWebview } from '../../../common/playground-messages';

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
  if (!python)
    python = execFileSync(process.execPath, [path.join(root, 'scripts', 'ensure-venv.mjs')], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
  return python;
}
export function pyServer(file: string, ...args: string[]): LaunchSpec {
  return { command: venvPython(), args: [path.join(fixtures, 'python', file), ...args], cwd: root };
}

/** A playground controller on `session` with an in-memory host: what it posts to the webview, what it stores. */
export function playgroundOn(session: McpSession, id = 'id', name = 'name') {
  const posted: HostToWebview[] = [];
  const store = new Map<string, unknown>();
  const c = new PlaygroundController(id, name, session, {
    post: (m) => posted.push(m),
    copy: async () => undefined,
    readClipboard: async () => '',
    memento: { get: <T>(k: string) => store.get(k) as T | undefined, update: async (k: string, v: unknown) => void store.set(k, v) },
    timeoutMs: () => 20_000,
    start: async () => undefined,
  });
  return { c, posted, store };
}

// What the install scripts of the caches (corpus, TS matrices) share: a command whose output goes to a log file, and
// the version a folder has installed of a package.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Runs `command` without a shell, its output appended to `log`; throws naming the log when it fails. */
export function runLogged(command, args, log) {
  fs.appendFileSync(log, `\n$ ${command} ${args.join(' ')}\n`);
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  fs.appendFileSync(log, (r.stdout ?? '') + (r.stderr ?? '') + (r.error ? String(r.error) : ''));
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${r.status}); log: ${log}`);
}

/** The version of `name` installed under `dir`/node_modules, or undefined. */
export function installedVersion(dir, name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

// A lock between processes (test runs in several clones or worktrees share the user's and the clone's caches):
// mkdir is atomic, so the first process to create `<target>.lock` holds it; the others wait until it is gone.
import * as fs from 'node:fs';
import * as path from 'node:path';

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Runs `fn` while holding the lock of `target`; a lock older than `staleMs` belongs to a run that died. */
export function withDirLock(target, fn, staleMs = 15 * 60_000) {
  const lock = `${target}.lock`;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const since = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since === undefined) continue; // released between the two calls
      if (Date.now() - since > staleMs) fs.rmSync(lock, { recursive: true, force: true });
      else sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * `toolsmith check`'s result cache (as `ruff` and `eslint --cache` keep one): the findings of each file, stored after
 * its analysis and reused by the next run when nothing they came from has changed. Most of a run over unchanged
 * Python files is otherwise @lezer/python parsing them again in a process with no JIT warm-up.
 *
 * An entry is used only when all of these are what they were:
 * - its key: the build of Toolsmith (a hash of the running bundles' contents, so any rebuild or another version
 *   misses), the settings, the file's path and its text;
 * - every other input the analysis read through the run's file host (imported modules, package.json, pyproject.toml,
 *   installed package metadata, a file named by a finding's span): each read, existence check and directory listing
 *   is recorded with a hash of its answer and asked again of this run's host. The front-ends and rules read nothing
 *   else (no environment, no clock), so an entry that passes gives the findings a fresh analysis would.
 * A file whose analysis failed (an internal error) is never stored. One JSON file per working directory under the user
 * cache directory (`TOOLSMITH_CACHE_DIR` moves it); `--no-cache` neither reads nor writes it.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileHost } from '../analysis/model';
import type { FindingRow } from './rows';
import { userCacheDir } from './compile-cache';

/** Bumped when what an entry holds changes shape. */
const FORMAT = 1;
/** Cache files of working directories not checked for this long are removed when another one is written. */
const STALE_MS = 30 * 24 * 3600 * 1000;
/** Beyond this many entries in one cache file, those of files the run did not check are dropped. */
const MAX_ENTRIES = 5000;

/** One answer of the file host an analysis relied on: [operation, path, hash of the answer or null when absent]. */
type Dependency = ['read' | 'list', string, string | null] | ['exists', string, boolean];

interface Entry {
  key: string;
  dependencies: Dependency[];
  rows: FindingRow[];
}

interface CacheFile {
  format: number;
  entries: Record<string, Entry>;
}

const hash = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** A host answering as `host` does, which records every question asked and a hash of its answer. */
export function recordingHost(host: FileHost): { host: FileHost; dependencies: () => Dependency[] } {
  const seen = new Map<string, Dependency>();
  const note = (dep: Dependency) => {
    const k = `${dep[0]}\0${dep[1]}`;
    if (!seen.has(k)) seen.set(k, dep);
  };
  const recorded: FileHost = {
    readFile(file) {
      const text = host.readFile(file);
      note(['read', file, text === undefined ? null : hash(text)]);
      return text;
    },
    fileExists(file) {
      const found = host.fileExists(file);
      note(['exists', file, found]);
      return found;
    },
  };
  if (host.listDir) {
    const list = host.listDir.bind(host);
    recorded.listDir = (dir) => {
      const names = list(dir);
      note(['list', dir, names === undefined ? null : hash(JSON.stringify(names))]);
      return names;
    };
  }
  return { host: recorded, dependencies: () => [...seen.values()] };
}

function stillHolds(dep: Dependency, host: FileHost): boolean {
  if (dep[0] === 'exists') return host.fileExists(dep[1]) === dep[2];
  if (dep[0] === 'read') {
    const text = host.readFile(dep[1]);
    return (text === undefined ? null : hash(text)) === dep[2];
  }
  const names = host.listDir?.(dep[1]);
  return (names === undefined ? null : hash(JSON.stringify(names))) === dep[2];
}

/**
 * The build of Toolsmith that analyses `file`: the version and a hash of the bundle files whose code produced its
 * findings (dist/cli.js holds the Python front-end and the rules; the TypeScript front-end is dist/cli-typescript.js).
 * Undefined when not running from bundles (from sources through tsx, where no one file says what the code is): no cache.
 */
export function buildIdentity(cliFile: string, version: string): ((language: 'typescript' | 'python') => string | undefined) | undefined {
  if (!cliFile.endsWith('.js')) return undefined;
  const hashes = new Map<string, string | undefined>();
  const hashOf = (file: string) => {
    if (!hashes.has(file)) {
      try {
        hashes.set(file, crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
      } catch {
        hashes.set(file, undefined);
      }
    }
    return hashes.get(file);
  };
  return (language) => {
    const cli = hashOf(cliFile);
    if (cli === undefined) return undefined;
    if (language === 'python') return `${version}\0${process.version}\0${cli}`;
    const ts = hashOf(path.join(path.dirname(cliFile), 'cli-typescript.js'));
    return ts === undefined ? undefined : `${version}\0${process.version}\0${cli}\0${ts}`;
  };
}

export class CheckCache {
  private readonly entries: Record<string, Entry>;
  private readonly checked = new Set<string>();
  private changed = false;
  hits = 0;
  misses = 0;

  private constructor(
    private readonly file: string,
    loaded: CacheFile | undefined,
  ) {
    this.entries = loaded?.format === FORMAT && loaded.entries && typeof loaded.entries === 'object' ? loaded.entries : {};
  }

  /** The cache of runs made in `cwd`; an unreadable or damaged cache file counts as empty. */
  static open(cwd: string): CheckCache {
    const file = path.join(userCacheDir(), 'check-cache', `${hash(path.resolve(cwd)).slice(0, 16)}.json`);
    let loaded: CacheFile | undefined;
    try {
      loaded = JSON.parse(fs.readFileSync(file, 'utf8')) as CacheFile;
    } catch {
      loaded = undefined;
    }
    return new CheckCache(file, loaded);
  }

  /** The key of `file` with this text under this build and these settings. */
  static keyOf(identity: string, settingsJson: string, file: string, text: string): string {
    return hash(JSON.stringify([FORMAT, identity, settingsJson, file, hash(text)]));
  }

  /** The stored findings of `file`, when its key matches and every input it read answers as it did then. */
  lookup(file: string, key: string, host: FileHost): FindingRow[] | undefined {
    this.checked.add(file);
    const entry = this.entries[file];
    if (entry && entry.key === key && Array.isArray(entry.dependencies) && Array.isArray(entry.rows) && entry.dependencies.every((d) => stillHolds(d, host))) {
      this.hits++;
      return entry.rows;
    }
    this.misses++;
    return undefined;
  }

  store(file: string, key: string, dependencies: Dependency[], rows: FindingRow[]): void {
    this.checked.add(file);
    this.entries[file] = { key, dependencies, rows };
    this.changed = true;
  }

  /** Writes the cache file when an entry changed (aside, then renamed: two runs at once never read half a file). */
  save(): void {
    if (!this.changed) return;
    try {
      let entries = this.entries;
      if (Object.keys(entries).length > MAX_ENTRIES) entries = Object.fromEntries(Object.entries(entries).filter(([f]) => this.checked.has(f)));
      const dir = path.dirname(this.file);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify({ format: FORMAT, entries } satisfies CacheFile), { mode: 0o600 });
      fs.renameSync(tmp, this.file);
      const now = Date.now();
      for (const f of fs.readdirSync(dir)) {
        const full = path.join(dir, f);
        if (full !== this.file && now - fs.statSync(full).mtimeMs > STALE_MS) fs.rmSync(full, { force: true });
      }
    } catch {
      /* a read-only or full cache directory: the next run analyses again */
    }
  }
}

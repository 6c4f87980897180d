/**
 * Loads a CommonJS bundle with a V8 code cache kept in the user's cache directory, so that a CLI run does not
 * compile the TypeScript front-end bundle (the whole TypeScript compiler and zod, ~4.5 MB) again every time: V8
 * deserialises the functions a previous run compiled instead (about a third of a `toolsmith contract` run before).
 *
 * Node 22.1+ has this built in (`module.enableCompileCache`); Node 20 does not, so the bundle is compiled here as
 * Node itself would (the same CommonJS wrapper) through `vm.Script` with `cachedData`. V8 checks the cache against
 * the source and its own version and flags and ignores one that does not match (`cachedDataRejected`): the file is
 * then written again. The cache is made after the run's work (at exit), so it holds the lazily compiled functions too.
 * `TOOLSMITH_COMPILE_CACHE=0` turns it off; `TOOLSMITH_CACHE_DIR` moves it.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { createRequire } from 'node:module';

/** The per-user cache directory of the platform (XDG on Linux, Library/Caches on macOS, LOCALAPPDATA on Windows). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLSMITH_CACHE_DIR) return env.TOOLSMITH_CACHE_DIR;
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA ?? path.join(home, 'AppData', 'Local'), 'toolsmith', 'Cache');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'toolsmith');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'toolsmith');
}

/** Where the code cache of `file` (as it is now, for this Node) lives: a new bundle or Node gets a new name. */
function cacheFileOf(file: string, stat: fs.Stats): string {
  const key = crypto.createHash('sha256').update(`${file}\0${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`).digest('hex').slice(0, 16);
  return path.join(userCacheDir(), 'compile-cache', `${path.basename(file, '.js')}-${key}.bin`);
}

const nodeCompileCache = (): ((dir?: string) => unknown) | undefined => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = require('node:module') as { enableCompileCache?: (dir?: string) => unknown };
  return typeof m.enableCompileCache === 'function' ? m.enableCompileCache : undefined;
};

/** `require(file)` of a CommonJS bundle, compiled with the code cache when one can be used. */
export function requireWithCodeCache(file: string): unknown {
  if (process.env.TOOLSMITH_COMPILE_CACHE === '0') return createRequire(file)(file);
  const builtIn = nodeCompileCache();
  if (builtIn) {
    try {
      builtIn(path.join(userCacheDir(), 'node-compile-cache'));
    } catch {
      /* no cache: a slower start, nothing else */
    }
    return createRequire(file)(file);
  }
  let source: string;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return createRequire(file)(file); // let require report what is wrong with the file
  }
  const cacheFile = cacheFileOf(file, stat);
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  // `import()` in the bundle resolves as it would in a module Node loaded itself (Node 20.12+; older: left unset).
  const dynamicImport = (vm.constants as Partial<typeof vm.constants> | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(wrapper, { filename: file, cachedData, ...(dynamicImport !== undefined ? { importModuleDynamically: dynamicImport } : {}) });
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => writeCodeCache(script, cacheFile));
  const module = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  fn.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  return module.exports;
}

function writeCodeCache(script: vm.Script, cacheFile: string): void {
  try {
    const data = script.createCachedData();
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
    // Written aside then renamed: two runs at once never read half a file.
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
    // Caches of older bundles or Node versions of the same file are left behind otherwise.
    const prefix = path.basename(cacheFile).replace(/-[0-9a-f]{16}\.bin$/, '-');
    for (const f of fs.readdirSync(path.dirname(cacheFile))) {
      if (f.startsWith(prefix) && f.endsWith('.bin') && f !== path.basename(cacheFile)) fs.rmSync(path.join(path.dirname(cacheFile), f), { force: true });
    }
  } catch {
    /* a read-only or full cache directory: the next run compiles again */
  }
}

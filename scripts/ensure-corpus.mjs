// Installs the real-world corpus (test/corpus/packages.json): published MCP server packages at pinned versions,
// each in its own folder of a cache outside the clone, so every clone on this machine (and CI's) reuses it:
//   ${XDG_CACHE_HOME:-$HOME/.cache}/toolsmith/corpus/<name>@<version>
// npm packages: `npm install --prefix <dir> --ignore-scripts`; PyPI packages: one venv per package. A stamp file
// (the manifest entry's hash) makes a second run instant. One line per package; install logs go to <dir>/install.log.
//   node scripts/ensure-corpus.mjs [name...]   (no names: every package)
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLogged } from './logged-run.mjs';
import { userCache } from './user-cache.mjs';
import { withDirLock } from './dir-lock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const manifestPath = path.join(root, 'test', 'corpus', 'packages.json');
export const corpusCache = path.join(userCache, 'corpus');

export function readManifest() {
  return JSON.parse(fs.readFileSync(manifestPath, 'utf8')).packages;
}

/** The folder a package is installed in, and the folder its `entries` and `{root}` are relative to. */
export function locate(pkg) {
  const dir = path.join(corpusCache, `${pkg.name.replace('/', '+')}@${pkg.version}`);
  if (pkg.registry === 'npm') return { dir, root: path.join(dir, 'node_modules', pkg.name), bin: path.join(dir, 'node_modules', '.bin'), python: '' };
  const bin = path.join(dir, 'venv', 'bin');
  const lib = path.join(dir, 'venv', 'lib');
  const pyDir = fs.existsSync(lib) ? fs.readdirSync(lib).find((d) => d.startsWith('python')) : undefined;
  return { dir, root: path.join(lib, pyDir ?? 'python3', 'site-packages'), bin, python: path.join(bin, 'python') };
}

/** What the stamp holds: everything that decides what gets installed. */
function stampOf(pkg) {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([pkg.registry, pkg.name, pkg.version, pkg.extraRequirements ?? []]))
    .digest('hex');
}

/** Installs `pkg` unless its stamp says it is there; returns its location. Throws (naming the log) when it cannot. */
export function ensurePackage(pkg, print = console.log) {
  // Runs in several clones at once must not delete each other's half-made installs: one installs, the others wait.
  return withDirLock(locate(pkg).dir, () => installPackage(pkg, print), 30 * 60_000);
}

function installPackage(pkg, print) {
  const where = locate(pkg);
  const stamp = path.join(where.dir, '.toolsmith-stamp');
  const wanted = stampOf(pkg);
  const label = `${pkg.name}@${pkg.version}`;
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === wanted) {
    print(`[corpus] ${label}: cached`);
    return locate(pkg);
  }
  const started = Date.now();
  fs.rmSync(where.dir, { recursive: true, force: true });
  fs.mkdirSync(where.dir, { recursive: true });
  const log = path.join(where.dir, 'install.log');
  if (pkg.registry === 'npm') {
    fs.writeFileSync(path.join(where.dir, 'package.json'), '{"private":true}\n');
    // --ignore-scripts: install scripts fetch browsers and binaries from hosts outside the registry (puppeteer's
    // Chrome, ripgrep); the servers list their tools without them.
    runLogged('npm', ['install', '--prefix', where.dir, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', `${pkg.name}@${pkg.version}`], log);
  } else if (pkg.registry === 'pypi') {
    const python = process.env.TOOLSMITH_PYTHON || 'python3';
    runLogged(python, ['-m', 'venv', path.join(where.dir, 'venv')], log);
    const py = path.join(where.dir, 'venv', 'bin', 'python');
    runLogged(py, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', `${pkg.name}==${pkg.version}`, ...(pkg.extraRequirements ?? [])], log);
  } else throw new Error(`${label}: unknown registry ${pkg.registry}`);
  fs.writeFileSync(stamp, wanted);
  print(`[corpus] ${label}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return locate(pkg);
}

export function ensureCorpus(names = []) {
  const packages = readManifest().filter((p) => names.length === 0 || names.includes(p.name));
  const started = Date.now();
  const failures = [];
  for (const [i, pkg] of packages.entries()) {
    try {
      ensurePackage(pkg, (line) => console.log(`${line} (${i + 1}/${packages.length})`));
    } catch (err) {
      failures.push(`${pkg.name}@${pkg.version}: ${err instanceof Error ? err.message : String(err)}`);
      console.log(`[corpus] ${pkg.name}@${pkg.version}: FAILED (${i + 1}/${packages.length})`);
    }
  }
  console.log(`[corpus] ${packages.length - failures.length}/${packages.length} packages ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${corpusCache})`);
  return failures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failures = ensureCorpus(process.argv.slice(2));
  for (const f of failures) console.error(f);
  process.exit(failures.length ? 1 : 0);
}

/**
 * Where a project's servers start: the entries its manifests declare (package.json `bin` and `main`, pyproject.toml
 * `[project.scripts]` / `[tool.poetry.scripts]`, an installed distribution's `entry_points.txt`), resolved to source
 * files. The manifests are configuration, read line by line; the code they name is analysed with the front-ends.
 */
import * as path from 'node:path';
import type { FileHost } from './model';

export interface DeclaredEntry {
  file: string;
  /** Where it is declared, for messages: `package.json bin "x"`, `pyproject.toml [project.scripts] x`. */
  declaredBy: string;
}

/** Build output folders whose source counterpart (`src/`, `.ts`) is what the author edits. */
const BUILD_DIRS = new Set(['dist', 'build', 'out', 'lib']);
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];

function readJson(host: FileHost, file: string): Record<string, unknown> | undefined {
  const text = host.readFile(file);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A script path of package.json, as a source file: the source counterpart of a build output when the project has it
 * (`dist/index.js` -> `src/index.ts`), else the file itself when it exists.
 */
export function sourceOfScript(host: FileHost, file: string, root: string): string | undefined {
  const rel = path.relative(root, file).split(path.sep);
  if (rel.length > 1 && BUILD_DIRS.has(rel[0])) {
    const stem = path.join(root, 'src', ...rel.slice(1)).replace(/\.[cm]?js$/, '');
    for (const ext of SOURCE_EXTENSIONS) if (host.fileExists(stem + ext)) return stem + ext;
  }
  if (host.fileExists(file)) return file;
  for (const ext of SOURCE_EXTENSIONS) if (host.fileExists(file + ext)) return file + ext;
  return undefined;
}

/** `pkg.module` -> `<root>/pkg/module.py` (or `__init__.py`, also under `src/`). */
export function pythonModuleFile(host: FileHost, root: string, dotted: string): string | undefined {
  const parts = dotted.split('.');
  for (const base of [root, path.join(root, 'src')]) {
    const stem = path.join(base, ...parts);
    if (host.fileExists(stem + '.py')) return stem + '.py';
    if (host.fileExists(path.join(stem, '__init__.py'))) return path.join(stem, '__init__.py');
  }
  return undefined;
}

/** `name = "pkg.mod:func"` lines of one `[section]` of a TOML or INI text, in order. */
function sectionEntries(text: string, section: string): { name: string; target: string }[] {
  const out: { name: string; target: string }[] = [];
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inside = line === `[${section}]`;
      continue;
    }
    if (!inside || !line || line.startsWith('#') || line.startsWith(';')) continue;
    const m = /^["']?([^"'=\s]+)["']?\s*=\s*["']?([A-Za-z_][\w.]*)(?::[\w.]+)?["']?\s*(?:#.*)?$/.exec(line);
    if (m) out.push({ name: m[1], target: m[2] });
  }
  return out;
}

/** The entries declared in `root`'s package.json and pyproject.toml; `problems` names a declared one that is not there. */
export function declaredEntries(host: FileHost, root: string): { entries: DeclaredEntry[]; problems: string[] } {
  const entries: DeclaredEntry[] = [];
  const problems: string[] = [];
  const add = (file: string | undefined, declaredBy: string, written: string) => {
    if (!file) problems.push(`${declaredBy} names ${written}, which is not there (not built yet?)`);
    else if (!entries.some((e) => e.file === file)) entries.push({ file, declaredBy });
  };
  const pkg = readJson(host, path.join(root, 'package.json'));
  if (pkg) {
    const bin = pkg.bin;
    const bins: [string, unknown][] = typeof bin === 'string' ? [[String(pkg.name ?? 'bin'), bin]] : bin && typeof bin === 'object' ? Object.entries(bin) : [];
    for (const [name, target] of bins) if (typeof target === 'string') add(sourceOfScript(host, path.resolve(root, target), root), `package.json bin "${name}"`, target);
    if (typeof pkg.main === 'string') add(sourceOfScript(host, path.resolve(root, pkg.main), root), 'package.json main', pkg.main);
  }
  const pyproject = host.readFile(path.join(root, 'pyproject.toml'));
  if (pyproject !== undefined) {
    for (const section of ['project.scripts', 'tool.poetry.scripts']) {
      for (const { name, target } of sectionEntries(pyproject, section)) add(pythonModuleFile(host, root, target), `pyproject.toml [${section}] ${name}`, target);
    }
  }
  return { entries, problems };
}

/**
 * The module an installed console script runs (`{venv}/bin/<name>`): its distribution's `entry_points.txt`
 * `[console_scripts]` line, resolved in `sitePackages`.
 */
export function consoleScriptEntry(host: FileHost, sitePackages: string, name: string): DeclaredEntry | undefined {
  for (const dir of host.listDir?.(sitePackages) ?? []) {
    if (!dir.endsWith('.dist-info')) continue;
    const text = host.readFile(path.join(sitePackages, dir, 'entry_points.txt'));
    const hit = text === undefined ? undefined : sectionEntries(text, 'console_scripts').find((e) => e.name === name);
    const file = hit ? pythonModuleFile(host, sitePackages, hit.target) : undefined;
    if (file) return { file, declaredBy: `${dir}/entry_points.txt ${name}` };
  }
  return undefined;
}

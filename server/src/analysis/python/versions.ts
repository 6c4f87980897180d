/**
 * The framework version the workspace pins: uv.lock (resolved) first, then requirements*.txt, then pyproject.toml,
 * searched from the file's directory upwards. Exact pins give a version ("2.3.0"); ranges are kept as written.
 */
import * as path from 'node:path';
import type { FileHost } from '../model';

function read(host: FileHost, file: string): string | undefined {
  // Lock files rarely change during a session; the host already prefers open documents.
  if (!host.fileExists(file)) return undefined;
  return host.readFile(file);
}

/** The version of the PyPI package `pkg` (a framework profile's versionPackage) the workspace pins. */
export function frameworkVersion(host: FileHost, file: string, pkg: string): string | undefined {
  const installed = installedRequirement(host, file, pkg);
  if (installed) return installed;
  let dir = path.dirname(file);
  for (let i = 0; i < 8; i++) {
    const found = versionIn(host, dir, pkg);
    if (found) return found;
    if (host.fileExists(path.join(dir, 'pyproject.toml')) || host.fileExists(path.join(dir, '.git'))) return undefined;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/**
 * The release of `pkg` installed beside a file of an installed distribution (`site-packages/<top>/…`): its
 * `<pkg>-<version>.dist-info` in that site-packages. What runs there, whatever range the package declares (which
 * `frameworkVersion` reads: the workspace's pin, what rules about the range judge).
 */
export function installedFrameworkVersion(host: FileHost, file: string, pkg: string): string | undefined {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('site-packages');
  if (at < 0 || at + 2 > parts.length - 1 || !host.listDir) return undefined;
  const sitePackages = parts.slice(0, at + 1).join(path.sep) || path.sep;
  const installed = host.listDir(sitePackages)?.find((d) => d.endsWith('.dist-info') && normalize(d.replace(/-[^-]*\.dist-info$/, '')) === normalize(pkg));
  return installed ? /-([^-]*)\.dist-info$/.exec(installed)?.[1] : undefined;
}

/**
 * A file of an installed distribution (`site-packages/<top>/…`): its pins are the `Requires-Dist` lines of its
 * `<name>-<version>.dist-info/METADATA` (what pip read from its pyproject.toml when it installed it).
 */
function installedRequirement(host: FileHost, file: string, pkg: string): string | undefined {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('site-packages');
  if (at < 0 || at + 2 > parts.length - 1 || !host.listDir) return undefined;
  const sitePackages = parts.slice(0, at + 1).join(path.sep) || path.sep;
  const top = normalize(parts[at + 1]);
  const distInfo = host.listDir(sitePackages)?.find((d) => d.endsWith('.dist-info') && normalize(d.replace(/-[^-]*\.dist-info$/, '')) === top);
  if (!distInfo) return undefined;
  const metadata = read(host, path.join(sitePackages, distInfo, 'METADATA'));
  if (!metadata) return undefined;
  const lines = [...metadata.matchAll(/^Requires-Dist:\s*(.+)$/gm)].map((m) => m[1].replace(/\s*\((.*)\)/, '$1'));
  return fromRequirementLines(lines, pkg);
}

function versionIn(host: FileHost, dir: string, pkg: string): string | undefined {
  const lock = read(host, path.join(dir, 'uv.lock'));
  if (lock) {
    const re = /\[\[package\]\]\s*\nname\s*=\s*"([^"]+)"\s*\nversion\s*=\s*"([^"]+)"/g;
    for (let m = re.exec(lock); m; m = re.exec(lock)) if (normalize(m[1]) === pkg) return m[2];
  }
  for (const name of ['requirements.txt', 'requirements-dev.txt', 'requirements.in']) {
    const req = read(host, path.join(dir, name));
    const v = req && fromRequirementLines(req.split(/\r?\n/), pkg);
    if (v) return v;
  }
  const pyproject = read(host, path.join(dir, 'pyproject.toml'));
  if (pyproject) {
    const quoted = [...pyproject.matchAll(/["']([A-Za-z0-9_.-]+(?:\[[^\]]*\])?\s*[<>=!~^][^"']*)["']/g)].map((m) => m[1]);
    const v = fromRequirementLines(quoted, pkg);
    if (v) return v;
    // Poetry: mcp = "^2.3" / fastmcp = { version = "4.2.3" }
    const poetry = new RegExp(`^\\s*${pkg}\\s*=\\s*(?:"([^"]+)"|\\{[^}]*version\\s*=\\s*"([^"]+)")`, 'm').exec(pyproject);
    if (poetry) return exact(poetry[1] ?? poetry[2]);
  }
  return undefined;
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

function fromRequirementLines(lines: string[], pkg: string): string | undefined {
  for (const raw of lines) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z0-9_.-]+)(\[[^\]]*\])?\s*(.*)$/.exec(line);
    if (!m || normalize(m[1]) !== pkg) continue;
    const spec = m[3].split(';')[0].trim();
    if (!spec) continue;
    return exact(spec);
  }
  return undefined;
}

function exact(spec: string): string {
  const m = /^(?:==|===)?\s*v?(\d+(?:\.\d+)*)$/.exec(spec.trim());
  return m ? m[1] : spec.trim();
}

/**
 * Which `__doc__` the running Python stores: 3.13+ strips the docstring's common indentation at compile time, older
 * versions keep it verbatim — and the official SDK publishes `__doc__` as is.
 *  - `pre-3.13` / `3.13+`: known from the workspace (`version` when one interpreter is named).
 *  - `unknown`: nothing says, or a range spans both (`requires-python = ">=3.10"`).
 */
export interface PythonVersionFact {
  docSemantics: 'pre-3.13' | '3.13+' | 'unknown';
  version?: [number, number];
  /** Where it was read, for messages: `.venv/pyvenv.cfg (3.11.7)`, `pyproject.toml requires-python ">=3.10"`. */
  source?: string;
}

const semanticsOf = (v: [number, number]): 'pre-3.13' | '3.13+' => (v[0] > 3 || (v[0] === 3 && v[1] >= 13) ? '3.13+' : 'pre-3.13');

/**
 * The Python version of the workspace, nearest directory first: the interpreter of a venv next to the sources
 * (`.venv/` or `venv/` pyvenv.cfg: what actually runs), then `.python-version` (pyenv, uv), then the
 * `requires-python` range of pyproject.toml or uv.lock.
 */
export function pythonVersion(host: FileHost, file: string): PythonVersionFact {
  let dir = path.dirname(file);
  let range: PythonVersionFact | undefined;
  for (let i = 0; i < 8; i++) {
    for (const venv of ['.venv', 'venv', 'env']) {
      const cfg = read(host, path.join(dir, venv, 'pyvenv.cfg'));
      const m = cfg && /^\s*(?:version|version_info)\s*=\s*(\d+)\.(\d+)(?:\.(\d+))?/m.exec(cfg);
      if (m) {
        const v: [number, number] = [Number(m[1]), Number(m[2])];
        return { docSemantics: semanticsOf(v), version: v, source: `${path.join(dir, venv, 'pyvenv.cfg')} (${m[1]}.${m[2]}${m[3] ? `.${m[3]}` : ''})` };
      }
    }
    const pv = read(host, path.join(dir, '.python-version'));
    const first = pv
      ?.split(/\r?\n/)
      .map((l) => l.replace(/#.*$/, '').trim())
      .find(Boolean);
    const pm = first && /(?:^|[^\d.])(\d+)\.(\d+)/.exec(` ${first}`);
    if (pm) {
      const v: [number, number] = [Number(pm[1]), Number(pm[2])];
      return { docSemantics: semanticsOf(v), version: v, source: `${path.join(dir, '.python-version')} (${first})` };
    }
    if (!range) {
      for (const name of ['pyproject.toml', 'uv.lock']) {
        const text = read(host, path.join(dir, name));
        const m = text && /^\s*requires-python\s*=\s*["']([^"']+)["']/m.exec(text);
        // Poetry: [tool.poetry.dependencies] python = "^3.11"
        const poetry = !m && text ? /^\s*python\s*=\s*["']([^"']+)["']/m.exec(text) : null;
        const spec = m?.[1] ?? poetry?.[1];
        if (spec) {
          range = { docSemantics: rangeSemantics(spec), source: `${path.join(dir, name)} requires-python "${spec}"` };
          break;
        }
      }
    }
    if (host.fileExists(path.join(dir, 'pyproject.toml')) || host.fileExists(path.join(dir, '.git'))) break;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return range ?? { docSemantics: 'unknown' };
}

/** Whether every version a requires-python range admits is on one side of 3.13 (minor granularity). */
export function rangeSemantics(spec: string): PythonVersionFact['docSemantics'] {
  let lo = 0; // minor number * 1 (major 3 assumed as 3.x; a 4.x bound counts as above everything)
  let hi = Infinity; // exclusive
  const key = (maj: number, min: number) => (maj < 3 ? -1 : maj > 3 ? 1000 + min : min);
  for (const raw of spec.split(',')) {
    const s = raw.trim();
    if (!s) continue;
    const m = /^(>=|<=|==|~=|!=|>|<|\^|~)?\s*(\d+)(?:\.(\d+|\*))?(?:\.(\d+|\*))?/.exec(s);
    if (!m) return 'unknown';
    const op = m[1] ?? '==';
    const maj = Number(m[2]);
    const min = m[3] === undefined || m[3] === '*' ? undefined : Number(m[3]);
    const k = key(maj, min ?? 0);
    switch (op) {
      case '>=':
      case '>': // `>3.12` still admits 3.12.1
        lo = Math.max(lo, k);
        break;
      case '<':
        hi = Math.min(hi, min === undefined || (m[4] !== undefined && Number(m[4]) > 0) ? k + (min === undefined ? 0 : 1) : k);
        break;
      case '<=':
        hi = Math.min(hi, k + 1);
        break;
      case '==':
        if (min === undefined) return 'unknown';
        lo = Math.max(lo, k);
        hi = Math.min(hi, k + 1);
        break;
      case '~=':
        // ~=3.12 -> >=3.12, <4 ; ~=3.12.1 -> >=3.12.1, <3.13
        lo = Math.max(lo, k);
        hi = Math.min(hi, m[4] !== undefined ? k + 1 : key(maj + 1, 0));
        break;
      case '^':
        lo = Math.max(lo, k);
        hi = Math.min(hi, key(maj + 1, 0));
        break;
      case '~':
        lo = Math.max(lo, k);
        hi = Math.min(hi, k + 1);
        break;
      case '!=':
        break;
    }
  }
  if (lo >= 13) return '3.13+';
  if (hi <= 13) return 'pre-3.13';
  return 'unknown';
}

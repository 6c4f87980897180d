/**
 * The framework version the workspace pins: uv.lock (resolved) first, then requirements*.txt, then pyproject.toml,
 * searched from the file's directory upwards. Exact pins give a version ("2.3.0"); ranges are kept as written.
 */
import * as path from 'node:path';
import type { FileHost } from '../model';

export type PyPackage = 'mcp' | 'fastmcp';

function read(host: FileHost, file: string): string | undefined {
  // Lock files rarely change during a session; the host already prefers open documents.
  if (!host.fileExists(file)) return undefined;
  return host.readFile(file);
}

export function frameworkVersion(host: FileHost, file: string, pkg: PyPackage): string | undefined {
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

function versionIn(host: FileHost, dir: string, pkg: PyPackage): string | undefined {
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
    const quoted = [...pyproject.matchAll(/["']([A-Za-z0-9_.\-]+(?:\[[^\]]*\])?\s*[<>=!~^][^"']*)["']/g)].map((m) => m[1]);
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

function fromRequirementLines(lines: string[], pkg: PyPackage): string | undefined {
  for (const raw of lines) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(.*)$/.exec(line);
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

/** Major version of a pin or a range's lower bound (`>=2.3`, `^2.3`, `~=4.0`), if readable. */
export function majorOf(version: string | undefined): number | undefined {
  if (!version) return undefined;
  const m = /(\d+)/.exec(version);
  return m ? Number(m[1]) : undefined;
}

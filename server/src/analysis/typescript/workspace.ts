/**
 * Versions read from the workspace: the installed SDK (the contract depends on it) and the zod major a bare
 * `import { z } from "zod"` means (zod 3.25.x exports v3 there, zod 4 exports v4).
 */
import * as path from 'node:path';
import type { FileHost } from '../model';
import { FRAMEWORKS, type Framework } from '../../../../common/frameworks';

function readJson(host: FileHost, file: string): Record<string, unknown> | undefined {
  const text = host.readFile(file);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function rangeOf(pkg: Record<string, unknown>, name: string): string | undefined {
  for (const key of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const deps = pkg[key];
    if (deps && typeof deps === 'object') {
      const r = (deps as Record<string, unknown>)[name];
      if (typeof r === 'string') return r;
    }
  }
  return undefined;
}

/**
 * The version of `name` seen from `fromFile`: the nearest installed node_modules copy, else the nearest
 * package-lock.json entry, else the range in the nearest package.json that lists it (e.g. "^1.32.2").
 */
function packageVersion(host: FileHost, fromFile: string, name: string): string | undefined {
  let dir = path.dirname(fromFile);
  let range: string | undefined;
  for (let i = 0; i < 40; i++) {
    const installed = readJson(host, path.join(dir, 'node_modules', name, 'package.json'));
    if (typeof installed?.version === 'string') return installed.version;
    const lock = readJson(host, path.join(dir, 'package-lock.json'));
    const packages = lock?.packages as Record<string, { version?: unknown }> | undefined;
    const locked = packages?.[`node_modules/${name}`]?.version;
    if (typeof locked === 'string') return locked;
    if (range === undefined) {
      const pkg = readJson(host, path.join(dir, 'package.json'));
      if (pkg) range = rangeOf(pkg, name);
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return range;
}

export interface WorkspaceVersions {
  /** The version of the framework's package (`versionPackage`) seen from the analysed file. */
  sdkVersion(framework: Framework): string | undefined;
  /** The version of any package seen from the analysed file (a tool helper's: `@modelcontextprotocol/ext-apps`). */
  packageVersion(name: string): string | undefined;
  /**
   * The TypeScript SDK a file's servers use when its imports do not say (a server passed in as a parameter):
   * v2 when only `@modelcontextprotocol/server` is installed or declared near the file, v1 otherwise.
   */
  defaultFramework: Framework;
  zodMajor: (fromFile: string) => 3 | 4;
}

export function workspaceVersions(host: FileHost, file: string): WorkspaceVersions {
  const perDir = new Map<string, 3 | 4>();
  const perFile = new Map<string, 3 | 4>();
  const sdkVersions = new Map<Framework, string | undefined>();
  const sdkVersion = (framework: Framework): string | undefined => {
    if (!sdkVersions.has(framework)) sdkVersions.set(framework, packageVersion(host, file, FRAMEWORKS[framework].versionPackage));
    return sdkVersions.get(framework);
  };
  let defaultFramework: Framework | undefined;
  return {
    sdkVersion,
    packageVersion: (name) => packageVersion(host, file, name),
    get defaultFramework(): Framework {
      defaultFramework ??= sdkVersion('ts-sdk') === undefined && sdkVersion('ts-sdk-v2') !== undefined ? 'ts-sdk-v2' : 'ts-sdk';
      return defaultFramework;
    },
    zodMajor(fromFile) {
      // Asked for every `z` of every schema: by file first, without recomputing the directory.
      const known = perFile.get(fromFile);
      if (known !== undefined) return known;
      const dir = path.dirname(fromFile);
      let major = perDir.get(dir);
      if (major === undefined) {
        const v = packageVersion(host, fromFile, 'zod');
        const m = v?.match(/(\d+)\./);
        major = m && m[1] === '3' ? 3 : 4;
        perDir.set(dir, major);
      }
      perFile.set(fromFile, major);
      return major;
    },
  };
}

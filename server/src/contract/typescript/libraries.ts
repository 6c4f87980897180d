/**
 * The copies of the SDK and zod a TypeScript contract is rebuilt and converted with: the workspace's own
 * (`node_modules` next to the analysed file, as the ESLint extension runs the workspace's ESLint) when the workspace
 * is trusted and has both installed, else the ones bundled with Toolsmith. Which was used is said in
 * `FileFacts.converters` (`toolsmith contract --json` prints it).
 *
 * Loading the workspace's copies runs code from its node_modules: only ever after `setWorkspaceTrust(true)` (the
 * CLI unless `--untrusted`; the language server's analysis workers when VS Code trusts the workspace). Nothing else
 * in this process flips it, and an untrusted process never requires a file outside Toolsmith.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as bundledCompat from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat as bundledToJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { zodToJsonSchema as bundledZodToJsonSchema } from 'zod-to-json-schema';
import * as bundledZ3 from 'zod/v3';
import { toJSONSchema as bundledZ4CoreToJSONSchema } from 'zod/v4/core';
import { loadedWorkspaceFiles, workspaceTrusted } from './trust';

/** One library a contract was built with (a row of `toolsmith contract --json`'s `converters`). */
export interface ConverterRow {
  library: string;
  version: string;
  source: 'workspace' | 'bundled';
  /** Why the bundled copy was used although the workspace has one (untrusted, not loadable). */
  reason?: string;
}

/** The zod module an import names: the package root, or its `zod/v3` / `zod/v4` subpath. */
export type ZodEntry = 'zod' | 'zod/v3' | 'zod/v4';

type Fn = (...args: unknown[]) => unknown;

export interface TsLibraries {
  /** Identifies these copies in cache keys (a schema converted with one copy is not another's). */
  key: string;
  source: 'workspace' | 'bundled';
  rows: ConverterRow[];
  /**
   * Bundled copies standing in for a workspace zod 4 of another minor: zod 4 releases convert differently (the version
   * matrix measured 4.0-4.4 against the bundled 4.6: strings, unions, optional fields), so such a contract is not
   * exact. zod 3 (through zod-to-json-schema) and the bundled minor itself were measured exact.
   */
  caveat?: string;
  /** The zod namespace to rebuild a schema imported from `entry` with; undefined: the bundled one. */
  zod(entry: ZodEntry): Record<string, unknown> | undefined;
  /** SDK 1.23+: zod-compat's `normalizeObjectSchema`, `objectFromShape` and zod-json-schema-compat's `toJsonSchemaCompat`. */
  normalizeObjectSchema: Fn;
  objectFromShape: Fn;
  toJsonSchemaCompat: Fn;
  /** SDK before 1.23: `z.object` of the SDK's own zod, and the zod-to-json-schema the SDK imports. */
  zodObject: Fn;
  zodToJsonSchema: Fn;
  /** zod 4 core's `toJSONSchema` (the `unrepresentable` hook locates what the conversion cannot carry). */
  z4CoreToJSONSchema: Fn;
}

declare const TOOLSMITH_BUNDLED_VERSIONS: Record<string, string> | undefined;

/** The bundled packages' versions: fixed at build time (esbuild `define`: no package.json travels with a bundle), read from node_modules in development. */
function readBundledVersion(name: string): string {
  if (typeof TOOLSMITH_BUNDLED_VERSIONS === 'object' && TOOLSMITH_BUNDLED_VERSIONS[name]) return TOOLSMITH_BUNDLED_VERSIONS[name];
  return findInstalled(__dirname, name)?.version ?? 'unknown';
}

const BUNDLED: TsLibraries = {
  key: 'bundled',
  source: 'bundled',
  rows: [],
  zod: () => undefined,
  normalizeObjectSchema: bundledCompat.normalizeObjectSchema as Fn,
  objectFromShape: bundledCompat.objectFromShape as Fn,
  toJsonSchemaCompat: bundledToJsonSchemaCompat as Fn,
  zodObject: ((shape: unknown) => bundledZ3.z.object(shape as bundledZ3.ZodRawShape)) as Fn,
  zodToJsonSchema: bundledZodToJsonSchema as Fn,
  z4CoreToJSONSchema: bundledZ4CoreToJSONSchema as Fn,
};

const BUNDLED_ZOD = readBundledVersion('zod');
const BUNDLED_SDK = readBundledVersion('@modelcontextprotocol/sdk');

function bundledRows(reason?: string, installed?: { sdk?: string; zod?: string }): ConverterRow[] {
  const note = (ws: string | undefined) => (reason ? `${reason}${ws ? ` (the workspace has ${ws})` : ''}` : undefined);
  const sdkRow: ConverterRow = { library: '@modelcontextprotocol/sdk', version: BUNDLED_SDK, source: 'bundled' };
  const zodRow: ConverterRow = { library: 'zod', version: BUNDLED_ZOD, source: 'bundled' };
  const sdkNote = note(installed?.sdk);
  const zodNote = note(installed?.zod);
  if (sdkNote) sdkRow.reason = sdkNote;
  if (zodNote) zodRow.reason = zodNote;
  return [sdkRow, zodRow];
}

/** Lookups of the last few seconds (an analysis per keystroke must not walk the directories each time; an `npm install` shows within seconds). */
const installedCache = new Map<string, { at: number; found: { dir: string; version: string } | undefined }>();
const INSTALLED_TTL_MS = 5000;

/** The nearest `node_modules/<name>` folder holding a package.json, walking up from `dir`. */
function installedPackage(dir: string, name: string): { dir: string; version: string } | undefined {
  const key = `${dir}\u0000${name}`;
  const hit = installedCache.get(key);
  const now = Date.now();
  if (hit && now - hit.at < INSTALLED_TTL_MS) return hit.found;
  const found = findInstalled(dir, name);
  if (installedCache.size > 1000) installedCache.clear();
  installedCache.set(key, { at: now, found });
  return found;
}

function findInstalled(dir: string, name: string): { dir: string; version: string } | undefined {
  for (let d = dir, i = 0; i < 40; i++) {
    const pkgDir = path.join(d, 'node_modules', name);
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string') return { dir: pkgDir, version: pkg.version };
    } catch {
      /* not installed here: look further up */
    }
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  return undefined;
}

const workspaceCache = new Map<string, TsLibraries>();

function requireFrom(req: NodeJS.Require, id: string): Record<string, unknown> {
  const file = req.resolve(id);
  loadedWorkspaceFiles().add(file);
  // The workspace's own copy, resolved as its code resolves it.
  return req(file) as Record<string, unknown>;
}

function fn(mod: Record<string, unknown>, name: string, where: string): Fn {
  const f = mod[name];
  if (typeof f !== 'function') throw new Error(`${where} has no ${name}()`);
  return f as Fn;
}

/** The workspace's copies as the file's own imports resolve them (throws when they cannot be loaded). */
function loadWorkspace(file: string, sdk: { dir: string; version: string }, zod: { dir: string; version: string }): TsLibraries {
  const fromFile = createRequire(file);
  const fromSdk = createRequire(path.join(sdk.dir, 'package.json'));
  const sdkMajorMinor = sdk.version.split('.').map(Number);
  const zodCompat = sdkMajorMinor[0] > 1 || (sdkMajorMinor[0] === 1 && sdkMajorMinor[1] >= 23);
  // SDK 1.23+: its compat modules (they import zod/v3, zod/v4 and zod-to-json-schema as the SDK resolves them).
  const compat = zodCompat ? requireFrom(fromSdk, path.join(sdk.dir, 'dist/cjs/server/zod-compat.js')) : undefined;
  const jsonCompat = zodCompat ? requireFrom(fromSdk, path.join(sdk.dir, 'dist/cjs/server/zod-json-schema-compat.js')) : undefined;
  // Before 1.23: `z.object` of the zod the SDK imports (npm nests its own when the workspace's is older) and its zod-to-json-schema.
  const sdkZod = zodCompat ? undefined : requireFrom(fromSdk, 'zod');
  const zodToJsonSchema = requireFrom(fromSdk, 'zod-to-json-schema');
  const entries = new Map<ZodEntry, Record<string, unknown> | undefined>();
  const zodOf = (entry: ZodEntry): Record<string, unknown> | undefined => {
    if (!entries.has(entry)) {
      let ns: Record<string, unknown> | undefined;
      try {
        const mod = requireFrom(fromFile, entry);
        ns = (mod.z as Record<string, unknown> | undefined) ?? mod;
      } catch {
        ns = undefined; // e.g. `zod/v4` of zod 3.22: the server's own import fails too; rebuilt with the bundled copy
      }
      entries.set(entry, ns);
    }
    return entries.get(entry);
  };
  let core: Record<string, unknown> | undefined;
  try {
    core = requireFrom(fromFile, 'zod/v4/core');
  } catch {
    core = undefined;
  }
  const z3Object = sdkZod ? fn((sdkZod.z as Record<string, unknown> | undefined) ?? sdkZod, 'object', "the SDK's zod") : BUNDLED.zodObject;
  const zodObject: Fn = (shape) => z3Object.call((sdkZod?.z as object | undefined) ?? sdkZod, shape);
  return {
    key: `workspace:${sdk.dir}@${sdk.version}:${zod.dir}@${zod.version}`,
    source: 'workspace',
    rows: [
      { library: '@modelcontextprotocol/sdk', version: sdk.version, source: 'workspace' },
      { library: 'zod', version: zod.version, source: 'workspace' },
    ],
    zod: zodOf,
    normalizeObjectSchema: compat ? fn(compat, 'normalizeObjectSchema', 'zod-compat') : BUNDLED.normalizeObjectSchema,
    objectFromShape: compat ? fn(compat, 'objectFromShape', 'zod-compat') : BUNDLED.objectFromShape,
    toJsonSchemaCompat: jsonCompat ? fn(jsonCompat, 'toJsonSchemaCompat', 'zod-json-schema-compat') : BUNDLED.toJsonSchemaCompat,
    zodObject,
    zodToJsonSchema: fn(zodToJsonSchema, 'zodToJsonSchema', 'zod-to-json-schema'),
    z4CoreToJSONSchema: core && typeof core.toJSONSchema === 'function' ? (core.toJSONSchema as Fn) : BUNDLED.z4CoreToJSONSchema,
  };
}

/**
 * The copies a 1.x contract of `file` is built with. Workspace copies need trust, an installed SDK 1.x and zod; a
 * failure to load them falls back to the bundled ones, with the reason in the rows.
 */
export function librariesFor(file: string): TsLibraries {
  const dir = path.dirname(file);
  const sdk = installedPackage(dir, '@modelcontextprotocol/sdk');
  const zod = installedPackage(dir, 'zod');
  if (!workspaceTrusted()) {
    if (!sdk && !zod) return { ...BUNDLED, rows: bundledRows() };
    const why = 'the workspace is not trusted';
    return { ...BUNDLED, rows: bundledRows(why, { sdk: sdk?.version, zod: zod?.version }), caveat: zodCaveat(zod?.version, why) };
  }
  if (!sdk || !zod || !sdk.version.startsWith('1.')) return { ...BUNDLED, rows: bundledRows() };
  // The very releases Toolsmith bundles: the same code, already loaded (spares ~80 ms of loading per CLI run).
  if (sdk.version === BUNDLED_SDK && zod.version === BUNDLED_ZOD) return { ...BUNDLED, rows: bundledRows("identical to the workspace's copy", { sdk: sdk.version, zod: zod.version }) };
  const key = `${sdk.dir}@${sdk.version}\u0000${zod.dir}@${zod.version}\u0000${dir}`;
  let libs = workspaceCache.get(key);
  if (!libs) {
    try {
      libs = loadWorkspace(file, sdk, zod);
    } catch (err) {
      const reason = `the workspace's copies could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
      libs = { ...BUNDLED, rows: bundledRows(reason, { sdk: sdk.version, zod: zod.version }), caveat: zodCaveat(zod.version, reason) };
    }
    workspaceCache.set(key, libs);
  }
  return libs;
}

/** Why bundled copies do not stand for the workspace's zod `version` (see TsLibraries.caveat), if they do not. */
function zodCaveat(version: string | undefined, why: string): string | undefined {
  if (version === undefined || !version.startsWith('4.')) return undefined;
  const minor = (v: string) => v.split('.').slice(0, 2).join('.');
  if (minor(version) === minor(BUNDLED_ZOD)) return undefined;
  return `converted with the bundled zod ${BUNDLED_ZOD} because ${why}; the workspace has zod ${version}, whose JSON Schema conversion differs between zod 4 releases (trust the workspace to convert with its own copy)`;
}

/** The bundled copies (the v2 builder and low-level servers). */
export function bundledLibraries(): TsLibraries {
  return BUNDLED;
}

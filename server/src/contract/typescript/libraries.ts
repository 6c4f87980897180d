/**
 * The copies of the SDK and the schema libraries a TypeScript contract is rebuilt and converted with: the workspace's
 * own (`node_modules` next to the analysed file, as the ESLint extension runs the workspace's ESLint) when the
 * workspace is trusted and has them installed, else the ones bundled with Toolsmith. 1.x: `@modelcontextprotocol/sdk`
 * and zod (`librariesFor`); v2: `@modelcontextprotocol/server`, zod, ArkType, Valibot and `@valibot/to-json-schema`
 * (`librariesForV2`). Which was used is said in `FileFacts.converters` (`toolsmith contract --json` prints it).
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
import { loadedWorkspaceFiles, trustedElsewhere, workspaceTrusted } from './trust';

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

/** The Standard Schema libraries besides zod that v2 servers use (the SDK documents ArkType, and Valibot through its JSON Schema wrapper). */
export type SchemaLibrary = 'arktype' | 'valibot' | '@valibot/to-json-schema';
const SCHEMA_LIBRARIES: readonly SchemaLibrary[] = ['arktype', 'valibot', '@valibot/to-json-schema'];

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
  /** The module a schema imported from ArkType / Valibot is rebuilt with; undefined: the bundled one. */
  schemaLibrary(name: SchemaLibrary): Record<string, unknown> | undefined;
  /**
   * v2: the workspace's own `@modelcontextprotocol/server` functions registerTool and tools/list call
   * (`normalizeRawShapeSchema`, `standardSchemaToJsonSchema`); undefined: v2.ts's model of them (the bundled release).
   */
  v2?: { normalizeRawShapeSchema: Fn; standardSchemaToJsonSchema: Fn };
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
  schemaLibrary: () => undefined,
};

const BUNDLED_ZOD = readBundledVersion('zod');
const BUNDLED_SDK = readBundledVersion('@modelcontextprotocol/sdk');

/**
 * Why the bundled copies convert on a thread that may not load workspace code: the workspace is not trusted, or it is
 * and this is the language server's main thread (its closed files; an analysis worker converts them again).
 */
const MAIN_THREAD_REASON =
  "this closed file was analysed on the language server's main thread, which never loads workspace code (an analysis worker is asked to convert it again with the workspace's copies)";
function notLoadedHere(): string {
  return trustedElsewhere() ? MAIN_THREAD_REASON : 'the workspace is not trusted';
}
const IDENTICAL = "identical to the workspace's copy";

/** Whether an analysis used the bundled copies only because it ran on the language server's main thread, where the workspace has other releases. */
export function convertedOnMainThread(rows: readonly ConverterRow[] | undefined): boolean {
  return !!rows?.some((r) => r.source === 'bundled' && r.reason?.startsWith(MAIN_THREAD_REASON));
}

/** The reason of a bundled row standing for an installed `version` (on the main thread, the same release is no stand-in). */
function standInReason(reason: string, bundled: string, version: string | undefined): string {
  if (reason === IDENTICAL || (reason === MAIN_THREAD_REASON && version === bundled)) return IDENTICAL;
  return `${reason}${version ? ` (the workspace has ${version})` : ''}`;
}

function bundledRows(reason?: string, installed?: { sdk?: string; zod?: string }): ConverterRow[] {
  const sdkRow: ConverterRow = { library: '@modelcontextprotocol/sdk', version: BUNDLED_SDK, source: 'bundled' };
  const zodRow: ConverterRow = { library: 'zod', version: BUNDLED_ZOD, source: 'bundled' };
  const sdkNote = reason && standInReason(reason, BUNDLED_SDK, installed?.sdk);
  const zodNote = reason && standInReason(reason, BUNDLED_ZOD, installed?.zod);
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
    schemaLibrary: () => undefined,
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
    const why = notLoadedHere();
    return { ...BUNDLED, rows: bundledRows(why, { sdk: sdk?.version, zod: zod?.version }), caveat: zodCaveat(zod?.version, why) };
  }
  if (!sdk || !zod || !sdk.version.startsWith('1.')) return { ...BUNDLED, rows: bundledRows() };
  // The very releases Toolsmith bundles: the same code, already loaded (spares ~80 ms of loading per CLI run).
  if (sdk.version === BUNDLED_SDK && zod.version === BUNDLED_ZOD) return { ...BUNDLED, rows: bundledRows(IDENTICAL, { sdk: sdk.version, zod: zod.version }) };
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

/** The bundled copies (low-level servers, and any contract built without a workspace to read). */
export function bundledLibraries(): TsLibraries {
  return BUNDLED;
}

// ---- v2: @modelcontextprotocol/server ----------------------------------------------------------------------------

const BUNDLED_SERVER = readBundledVersion('@modelcontextprotocol/server');
const BUNDLED_SCHEMA_LIBRARY: Record<SchemaLibrary, string> = {
  arktype: readBundledVersion('arktype'),
  valibot: readBundledVersion('valibot'),
  '@valibot/to-json-schema': readBundledVersion('@valibot/to-json-schema'),
};

type Installed = { dir: string; version: string };
/** What a v2 workspace has installed near the analysed file. */
interface V2Installed {
  server?: Installed;
  zod?: Installed;
  libraries: [SchemaLibrary, Installed][];
}

/**
 * The converters rows of a v2 contract: the SDK and zod always, ArkType / Valibot when the workspace has them. `used`
 * says per library which copy converted; `reason` why a bundled one stands for an installed one.
 */
function v2Rows(installed: V2Installed, used: (library: string) => { source: 'workspace' | 'bundled'; reason?: string }): ConverterRow[] {
  const row = (library: string, bundled: string, own: Installed | undefined): ConverterRow => {
    const { source, reason } = used(library);
    const out: ConverterRow = { library, version: source === 'workspace' && own ? own.version : bundled, source };
    if (reason) out.reason = standInReason(reason, bundled, own?.version);
    return out;
  };
  return [
    row('@modelcontextprotocol/server', BUNDLED_SERVER, installed.server),
    row('zod', BUNDLED_ZOD, installed.zod),
    ...installed.libraries.map(([name, own]) => row(name, BUNDLED_SCHEMA_LIBRARY[name], own)),
  ];
}

const minorOf = (v: string) => v.split('.').slice(0, 2).join('.');

/**
 * Why bundled copies do not stand for a v2 workspace's own (see TsLibraries.caveat): another @modelcontextprotocol/server
 * release is predicted through its traits (common/frameworks.ts), but another minor of a schema library converts
 * differently (the v2 matrix measured zod 4 minors against the bundled one), so such a contract is not exact.
 */
function v2Caveat(installed: V2Installed, why: string): string | undefined {
  const differing: string[] = [];
  if (installed.zod && installed.zod.version.startsWith('4.') && minorOf(installed.zod.version) !== minorOf(BUNDLED_ZOD)) differing.push(`zod ${installed.zod.version} (bundled: ${BUNDLED_ZOD})`);
  for (const [name, own] of installed.libraries) {
    if (minorOf(own.version) !== minorOf(BUNDLED_SCHEMA_LIBRARY[name])) differing.push(`${name} ${own.version} (bundled: ${BUNDLED_SCHEMA_LIBRARY[name]})`);
  }
  if (!differing.length) return undefined;
  return `converted with the bundled schema libraries because ${why}; the workspace has ${differing.join(', ')}, whose JSON Schema conversion may differ (trust the workspace to convert with its own copies)`;
}

/** The chunk of a v2 SDK's CommonJS build that exports the schema functions (tsdown names it `dist/src-<hash>.cjs`; 2.0.0-2.4.0 have one). */
function serverSchemaFunctions(server: Installed): NonNullable<TsLibraries['v2']> {
  const dist = path.join(server.dir, 'dist');
  const fromServer = createRequire(path.join(server.dir, 'package.json'));
  for (const f of fs.readdirSync(dist).filter((name) => /^src-[\w-]+\.cjs$/.test(name))) {
    const mod = requireFrom(fromServer, path.join(dist, f));
    if (typeof mod.normalizeRawShapeSchema === 'function' && typeof mod.standardSchemaToJsonSchema === 'function') {
      // The SDK warns once on stderr when it falls back to z.toJSONSchema (zod < 4.2): a note for the server's author, not our output.
      return { normalizeRawShapeSchema: withoutWarnings(mod.normalizeRawShapeSchema as Fn), standardSchemaToJsonSchema: withoutWarnings(mod.standardSchemaToJsonSchema as Fn) };
    }
  }
  throw new Error(`@modelcontextprotocol/server ${server.version} has no dist/src-*.cjs exporting standardSchemaToJsonSchema`);
}

function withoutWarnings(f: Fn): Fn {
  return (...args) => {
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      return f(...args);
    } finally {
      console.warn = warn;
    }
  };
}

const workspaceV2Cache = new Map<string, TsLibraries>();

/** The workspace's copies for a v2 file; a library at the very release Toolsmith bundles keeps the bundled copy (already loaded). */
function loadWorkspaceV2(file: string, installed: V2Installed & { server: Installed }): TsLibraries {
  const fromFile = createRequire(file);
  const serverFns = installed.server.version === BUNDLED_SERVER && installed.zod?.version === BUNDLED_ZOD ? undefined : serverSchemaFunctions(installed.server);
  const ownZod = installed.zod && installed.zod.version !== BUNDLED_ZOD;
  const entries = new Map<ZodEntry, Record<string, unknown> | undefined>();
  const zodOf = (entry: ZodEntry): Record<string, unknown> | undefined => {
    if (!ownZod) return undefined;
    if (!entries.has(entry)) {
      let ns: Record<string, unknown> | undefined;
      try {
        const mod = requireFrom(fromFile, entry);
        ns = (mod.z as Record<string, unknown> | undefined) ?? mod;
      } catch {
        ns = undefined;
      }
      entries.set(entry, ns);
    }
    return entries.get(entry);
  };
  let core: Record<string, unknown> | undefined;
  try {
    core = ownZod ? requireFrom(fromFile, 'zod/v4/core') : undefined;
  } catch {
    core = undefined;
  }
  const own = new Set(installed.libraries.filter(([name, lib]) => lib.version !== BUNDLED_SCHEMA_LIBRARY[name]).map(([name]) => name));
  // Each loaded on first use, as the bundled ones are (ArkType compiles its scope at start-up: ~0.3 s).
  const modules = new Map<SchemaLibrary, Record<string, unknown>>();
  const schemaLibrary = (name: SchemaLibrary): Record<string, unknown> | undefined => {
    if (!own.has(name)) return undefined;
    let mod = modules.get(name);
    if (!mod) modules.set(name, (mod = requireFrom(fromFile, name)));
    return mod;
  };
  return {
    ...BUNDLED,
    key: `workspace-v2:${[installed.server, installed.zod, ...installed.libraries.map(([, l]) => l)].map((l) => (l ? `${l.dir}@${l.version}` : '-')).join('\u0000')}`,
    source: 'workspace',
    rows: v2Rows(installed, (library) => {
      if (library === '@modelcontextprotocol/server') return serverFns ? { source: 'workspace' } : { source: 'bundled', reason: IDENTICAL };
      if (library === 'zod') return ownZod ? { source: 'workspace' } : { source: 'bundled', ...(installed.zod ? { reason: IDENTICAL } : {}) };
      return own.has(library as SchemaLibrary) ? { source: 'workspace' } : { source: 'bundled', reason: IDENTICAL };
    }),
    zod: zodOf,
    z4CoreToJSONSchema: core && typeof core.toJSONSchema === 'function' ? (core.toJSONSchema as Fn) : BUNDLED.z4CoreToJSONSchema,
    schemaLibrary,
    ...(serverFns ? { v2: serverFns } : {}),
  };
}

/**
 * The copies a v2 contract of `file` is rebuilt and converted with. Workspace copies need trust and an installed
 * @modelcontextprotocol/server 2.x; zod, ArkType and Valibot are the workspace's when it has them. A failure to
 * load them falls back to the bundled ones, with the reason in the rows.
 */
export function librariesForV2(file: string): TsLibraries {
  const dir = path.dirname(file);
  const installed: V2Installed = {
    server: installedPackage(dir, '@modelcontextprotocol/server'),
    zod: installedPackage(dir, 'zod'),
    libraries: SCHEMA_LIBRARIES.flatMap((name): [SchemaLibrary, Installed][] => {
      const found = installedPackage(dir, name);
      return found ? [[name, found]] : [];
    }),
  };
  const bundled = (reason?: string): TsLibraries => ({
    ...BUNDLED,
    rows: v2Rows(installed, () => ({ source: 'bundled', ...(reason ? { reason } : {}) })),
    ...(reason ? { caveat: v2Caveat(installed, reason) } : {}),
  });
  if (!workspaceTrusted()) return bundled(installed.server || installed.zod || installed.libraries.length ? notLoadedHere() : undefined);
  const server = installed.server;
  if (!server || !server.version.startsWith('2.')) return bundled();
  const key = `${dir}\u0000${[server, installed.zod, ...installed.libraries.map(([, l]) => l)].map((l) => (l ? `${l.dir}@${l.version}` : '-')).join('\u0000')}`;
  let libs = workspaceV2Cache.get(key);
  if (!libs) {
    try {
      libs = loadWorkspaceV2(file, { ...installed, server });
    } catch (err) {
      libs = bundled(`the workspace's copies could not be loaded (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
    }
    if (workspaceV2Cache.size > 200) workspaceV2Cache.clear();
    workspaceV2Cache.set(key, libs);
  }
  return libs;
}

/**
 * What a bundle (bun or esbuild output, not minified) says about its own modules, from the line comments the bundler
 * writes before each (`// ../../node_modules/zod/v4/core/versions.js`): which statements are a library's, and zod
 * inlined in it.
 *
 * zod inlined in a bundle (bun or esbuild output that is not minified: the MCP Apps examples, exa-mcp-server): the
 * bundle's `exports_external.object({...})` is zod's own `z.object`, of the zod release the bundle was built with.
 *
 * Recognised only from what the bundler wrote: each module of the bundle follows a line comment naming its file
 * (`// ../../node_modules/zod/v4/classic/external.js`), and a module's namespace object is `var X = {};
 * __export(X, { name: () => binding, ... })`. The namespace of zod's `v4/classic/external.js` (what `import * as z
 * from "zod"` is) is zod; its release is the `version` object of the same copy's `v4/core/versions.js`. Nothing
 * else is taken for zod, and no name is guessed.
 *
 * Converted with a copy of exactly that release, as the bundle converts it: Toolsmith's own zod when it is the same
 * release, else — in a trusted workspace only, as the workspace's own zod is loaded for 1.x (libraries.ts) — zod's
 * modules of the bundle itself, run on their own (the bundler's helpers they use, then those modules in bundle order,
 * in a function of their own whose `globalThis` is a fresh object: zod's global registry stays theirs). Otherwise the
 * schema is unresolved with the release named.
 */
import * as vm from 'node:vm';
import * as z4 from 'zod/v4';
import ts from './ts';
import { workspaceTrusted, loadedWorkspaceFiles } from '../../contract/typescript/trust';
import type { ParsedFile } from './project';

/** What a bundle's zod namespace is converted with, or why it cannot be. */
export type InlinedZod = { ok: true; namespace: Record<string, unknown>; version: string; source: 'bundled' | 'inlined' } | { ok: false; reason: string };

/** The module of each top-level statement of a bundle, from the bundler's `// path/to/file.js` comments. */
interface BundleModules {
  /** Per statement index: the module file it belongs to (undefined before the first comment: the bundler's runtime). */
  moduleOf: (string | undefined)[];
}

const MODULE_COMMENT = /^\/\/ ((?:[\w@.+-]+\/)*[\w@.+-]+\.(?:[cm]?js|[cm]?ts|jsx|tsx))\s*$/;
const ZOD_NAMESPACE = 'v4/classic/external.js';
const ZOD_VERSIONS = 'v4/core/versions.js';

const modulesCache = new WeakMap<ParsedFile, BundleModules>();
/** Per parsed bundle text: what its zod runs as (running its modules costs tens of milliseconds; the text rarely changes). */
const zodCache = new WeakMap<ParsedFile, Map<string, InlinedZod>>();

function bundleModules(pf: ParsedFile): BundleModules {
  let m = modulesCache.get(pf);
  if (m) return m;
  const moduleOf: (string | undefined)[] = [];
  let current: string | undefined;
  for (const st of pf.sf.statements) {
    for (const c of ts.getLeadingCommentRanges(pf.text, st.pos) ?? []) {
      if (c.kind !== ts.SyntaxKind.SingleLineCommentTrivia) continue;
      const path = MODULE_COMMENT.exec(pf.text.slice(c.pos, c.end))?.[1];
      if (path) current = path;
    }
    moduleOf.push(current);
  }
  m = { moduleOf };
  modulesCache.set(pf, m);
  return m;
}

/**
 * Whether `node` is in a module of a package the bundle inlines (`node_modules/...`): the SDK's own
 * `this.server.setRequestHandler(ListToolsRequestSchema, ...)` is not a registration of the bundled server's.
 */
export function inLibraryModule(node: ts.Node, pf: ParsedFile): boolean {
  let statement: ts.Node = node;
  while (statement.parent && statement.parent !== pf.sf) statement = statement.parent;
  if (statement.parent !== pf.sf) return false;
  const module = bundleModules(pf).moduleOf[pf.sf.statements.indexOf(statement as ts.Statement)];
  return module !== undefined && module.includes('node_modules/');
}

/** The top-level statements of a bundle that belong to an inlined package (a module under `node_modules/`). */
export function libraryStatements(pf: ParsedFile): Set<ts.Node> {
  const { moduleOf } = bundleModules(pf);
  const out = new Set<ts.Node>();
  pf.sf.statements.forEach((st, i) => {
    if (moduleOf[i]?.includes('node_modules/')) out.add(st);
  });
  return out;
}

/**
 * The package path of the bundle module `decl` (a top-level declaration) belongs to, after its last `node_modules/`
 * (`@modelcontextprotocol/server/dist/mcp-DXXb3Vv3.mjs`): the class `new McpServer(...)` constructs in a bundle
 * says which SDK the bundle inlines.
 */
export function inlinedPackagePath(decl: ts.Node, pf: ParsedFile): string | undefined {
  let statement: ts.Node = decl;
  while (statement.parent && statement.parent !== pf.sf) statement = statement.parent;
  if (statement.parent !== pf.sf) return undefined;
  const module = bundleModules(pf).moduleOf[pf.sf.statements.indexOf(statement as ts.Statement)];
  const i = module?.lastIndexOf('node_modules/') ?? -1;
  return i < 0 ? undefined : module!.slice(i + 'node_modules/'.length);
}

/** The folder of the zod copy a bundle module belongs to (`../../node_modules/zod/`), if it is one of zod's. */
function zodRoot(module: string | undefined): string | undefined {
  const i = module?.lastIndexOf('node_modules/zod/') ?? -1;
  return i < 0 ? undefined : module!.slice(0, i + 'node_modules/zod/'.length);
}

/**
 * Whether `decl` is the namespace object of an inlined zod's `v4/classic/external.js` (`var exports_external = {}`
 * followed by `__export(exports_external, {...})`), and if so what converts it.
 */
export function inlinedZod(decl: ts.VariableDeclaration, pf: ParsedFile): InlinedZod | undefined {
  const statement = decl.parent?.parent;
  if (!statement || !ts.isVariableStatement(statement) || statement.parent !== pf.sf || !ts.isIdentifier(decl.name)) return undefined;
  const init = decl.initializer;
  if (!init || !ts.isObjectLiteralExpression(init) || init.properties.length > 0) return undefined;
  const index = pf.sf.statements.indexOf(statement);
  const { moduleOf } = bundleModules(pf);
  const module = moduleOf[index];
  const root = zodRoot(module);
  if (!root || module !== root + ZOD_NAMESPACE) return undefined;
  const name = decl.name.text;
  const filled = pf.sf.statements[index + 1];
  const exportsObject = filled && exportCall(filled, name);
  if (!exportsObject || !['object', 'string', 'toJSONSchema'].every((k) => exportsObject.has(k))) return undefined;
  const key = `${root}\u0000${name}\u0000${workspaceTrusted()}`;
  let perFile = zodCache.get(pf);
  if (!perFile) zodCache.set(pf, (perFile = new Map<string, InlinedZod>()));
  let hit = perFile.get(key);
  if (!hit) perFile.set(key, (hit = convertingCopy(pf, root, name)));
  return hit;
}

/**
 * The zod module file a top-level declaration of a bundle belongs to (`node_modules/zod/v4/classic/schemas.js`), when
 * it is one of an inlined zod's: a bundler that drops zod's namespace (`import * as z` read as `object(...)`) leaves
 * only renamed bindings (`string2`), and which zod function one is cannot be told from the bundle.
 */
export function inlinedZodModule(decl: ts.Node, pf: ParsedFile): string | undefined {
  const statement = ts.isVariableDeclaration(decl) ? decl.parent?.parent : decl;
  if (!statement || statement.parent !== pf.sf) return undefined;
  const module = bundleModules(pf).moduleOf[pf.sf.statements.indexOf(statement as ts.Statement)];
  return zodRoot(module) ? module : undefined;
}

/** `__export(name, { a: () => a2, ... })`: the exported names, if `st` is that call. */
function exportCall(st: ts.Statement, name: string): Set<string> | undefined {
  if (!ts.isExpressionStatement(st) || !ts.isCallExpression(st.expression)) return undefined;
  const [target, map] = st.expression.arguments;
  if (!target || !ts.isIdentifier(target) || target.text !== name || !map || !ts.isObjectLiteralExpression(map)) return undefined;
  const names = new Set<string>();
  for (const p of map.properties) {
    if (!ts.isPropertyAssignment(p) || !ts.isArrowFunction(p.initializer)) return undefined;
    if (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) names.add(p.name.text);
  }
  return names;
}

/** `var version = { major: 4, minor: 3, patch: 5 }` of the copy's `v4/core/versions.js`. */
function releaseOf(pf: ParsedFile, root: string): string | undefined {
  const { moduleOf } = bundleModules(pf);
  const found: string[] = [];
  pf.sf.statements.forEach((st, i) => {
    if (moduleOf[i] !== root + ZOD_VERSIONS || !ts.isVariableStatement(st)) return;
    for (const d of st.declarationList.declarations) {
      const o = d.initializer;
      if (!o || !ts.isObjectLiteralExpression(o)) continue;
      const parts: Record<string, number> = {};
      for (const p of o.properties) if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && ts.isNumericLiteral(p.initializer)) parts[p.name.text] = Number(p.initializer.text);
      if (parts.major !== undefined && parts.minor !== undefined && parts.patch !== undefined) found.push(`${parts.major}.${parts.minor}.${parts.patch}`);
    }
  });
  return found.length === 1 ? found[0] : undefined;
}

/** The release Toolsmith's own zod is (what converts every schema not rebuilt with another copy). */
export function bundledZodRelease(): string {
  const v = (z4 as unknown as { core: { version: { major: number; minor: number; patch: number } } }).core.version;
  return `${v.major}.${v.minor}.${v.patch}`;
}

function convertingCopy(pf: ParsedFile, root: string, name: string): InlinedZod {
  const version = releaseOf(pf, root);
  const where = `${root.replace(/^(\.\.\/)+/, '')}`;
  if (!version)
    return {
      ok: false,
      reason: `this bundle inlines zod (${where}) but not which release: its v4/core/versions.js does not declare one \`var version = { major, minor, patch }\` (a lazily initialised module?), and zod's JSON Schema conversion differs between releases`,
    };
  if (version === bundledZodRelease()) return { ok: true, namespace: z4 as unknown as Record<string, unknown>, version, source: 'bundled' };
  if (!workspaceTrusted())
    return {
      ok: false,
      reason: `this bundle inlines zod ${version}, and Toolsmith's zod is ${bundledZodRelease()} (zod 4 releases convert schemas differently); converting with the bundle's own copy runs the workspace's code: trust the workspace`,
    };
  try {
    const namespace = runInlinedZod(pf, root, name);
    loadedWorkspaceFiles().add(pf.file);
    const probe = (namespace.string as () => { _zod?: { version?: object } })();
    if (probe._zod?.version) copiesByVersion.set(probe._zod.version, namespace);
    return { ok: true, namespace, version, source: 'inlined' };
  } catch (err) {
    return { ok: false, reason: `this bundle inlines zod ${version}; its modules could not be run on their own (${err instanceof Error ? err.message.split('\n')[0] : String(err)})` };
  }
}

/** The inlined copies run, by the `version` object their schemas carry (`schema._zod.version`). */
const copiesByVersion = new WeakMap<object, Record<string, unknown>>();

/**
 * The namespace of the inlined zod copy (one run by `runInlinedZod`) a zod 4 schema was built with, if it was built
 * with one: a raw shape of its schemas is wrapped in `z.object()` by the bundle's SDK, with that copy.
 */
export function inlinedCopyOf(schema: unknown): Record<string, unknown> | undefined {
  const version = (schema as { _zod?: { version?: unknown } } | null)?._zod?.version;
  return typeof version === 'object' && version !== null ? copiesByVersion.get(version) : undefined;
}

/** Names a statement declares at the top level of the bundle. */
function declaredNames(st: ts.Statement): string[] {
  if (ts.isVariableStatement(st)) return st.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) return [st.name.text];
  return [];
}

/** Identifiers `node` reads as variables (not property names, not the names it declares). */
function referencedNames(node: ts.Node, out: Set<string>): void {
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      const isName =
        (ts.isPropertyAccessExpression(p) && p.name === n) ||
        ((ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p) || ts.isPropertyDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p)) && p.name === n);
      if (!isName) out.add(n.text);
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
}

/**
 * Runs the modules of one inlined zod copy (and the bundler runtime helpers they use) on their own, returning its
 * `v4/classic/external.js` namespace. Refused when those modules read a name another module of the bundle declares.
 */
function runInlinedZod(pf: ParsedFile, root: string, name: string): Record<string, unknown> {
  const { moduleOf } = bundleModules(pf);
  const statements = pf.sf.statements;
  const zodIdx: number[] = [];
  const declaredBy = new Map<string, number>();
  statements.forEach((st, i) => {
    if (moduleOf[i]?.startsWith(root)) zodIdx.push(i);
    for (const n of declaredNames(st)) if (!declaredBy.has(n)) declaredBy.set(n, i);
  });
  const inSlice = new Set(zodIdx);
  // The runtime helpers (before the first module comment) zod's modules use, and the helpers those use.
  const pending: number[] = [...zodIdx];
  const seen = new Set<number>(zodIdx);
  while (pending.length) {
    const i = pending.pop()!;
    const names = new Set<string>();
    referencedNames(statements[i], names);
    for (const n of names) {
      const j = declaredBy.get(n);
      if (j === undefined || seen.has(j)) continue;
      if (moduleOf[j] !== undefined) throw new Error(`zod's modules use \`${n}\`, declared by ${moduleOf[j]}`);
      seen.add(j);
      inSlice.add(j);
      pending.push(j);
    }
  }
  const parts: string[] = ['"use strict";'];
  for (const i of [...inSlice].sort((a, b) => a - b)) {
    const st = statements[i];
    if (ts.isImportDeclaration(st) || ts.isExportDeclaration(st) || ts.isExportAssignment(st)) throw new Error('a runtime helper zod uses is an import');
    parts.push(pf.text.slice(st.getStart(pf.sf), st.end));
  }
  parts.push(`return ${name};`);
  // A function of its own: `globalThis` is a fresh object (zod keeps its registry there), the rest is this realm's.
  const fn = vm.runInThisContext(`(function (globalThis) {\n${parts.join('\n')}\n})`, { filename: `${pf.file} (inlined zod)` }) as (g: object) => unknown;
  const ns = fn({});
  if (typeof ns !== 'object' || ns === null || typeof (ns as { object?: unknown }).object !== 'function') throw new Error('the namespace has no object()');
  return ns as Record<string, unknown>;
}

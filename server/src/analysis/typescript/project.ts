/**
 * Parsing and cross-file name resolution for the TypeScript front-end.
 *
 * One `ts.createSourceFile` per file (never a full Program: analysis must stay within 2x of parsing), a cache of
 * parsed files keyed by path + text, and a small module resolver for relative imports (`.js` specifiers for `.ts`
 * files, barrel `index.ts`, re-exports). Only top-level declarations are indexed; inner scopes are looked up on demand.
 */
import * as path from 'node:path';
import ts from './ts';
import type { FileHost, Span } from '../model';
import { FRAMEWORKS } from '../../../../common/frameworks';

/** SyntaxKind read once: `SK.X` in a hot switch is a chain of property reads per case. */
const SK = ts.SyntaxKind;

export type Decl =
  | { kind: 'var'; name: string; node: ts.VariableDeclaration; pf: ParsedFile }
  | { kind: 'function'; name: string; node: ts.FunctionDeclaration; pf: ParsedFile }
  | { kind: 'enum'; name: string; node: ts.EnumDeclaration; pf: ParsedFile }
  | { kind: 'class'; name: string; node: ts.ClassDeclaration; pf: ParsedFile }
  | { kind: 'param'; name: string; node: ts.ParameterDeclaration; pf: ParsedFile }
  /** `import { a as b } from "m"` / `import * as ns from "m"` (name "*") / `import d from "m"` (name "default"). */
  | { kind: 'import'; name: string; module: string; imported: string; node: ts.Node; pf: ParsedFile }
  /** `export default <expression>` */
  | { kind: 'expr'; name: string; node: ts.Expression; pf: ParsedFile };

type ExportEntry = { kind: 'local'; local: string } | { kind: 'reexport'; module: string; imported: string } | { kind: 'default-expr'; node: ts.Expression };

export interface ParsedFile {
  file: string;
  text: string;
  sf: ts.SourceFile;
  /** Top-level declarations (including import bindings) by local name. */
  locals: Map<string, Decl>;
  exports: Map<string, ExportEntry>;
  /** `export * from "m"` specifiers, in order. */
  starExports: string[];
  /** Module specifiers imported by this file. */
  importSpecifiers: string[];
  /** Every call that looks like a tool registration (`x.registerTool(...)`, `x.tool("name", ...)`), in document order. */
  registrationCalls: ts.CallExpression[];
  /** `const s = new McpServer(...)` / `new Server(...)` declarations, in document order. */
  serverDeclarations: ts.VariableDeclaration[];
  /** The file writes its exports CommonJS-style (`exports.x = ...`, `Object.defineProperty(exports, "x", ...)`). */
  commonJs?: boolean;
}

const cache = new Map<string, ParsedFile>();
const MAX_CACHE = 500;

function scriptKindOf(file: string): ts.ScriptKind {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.tsx') return ts.ScriptKind.TSX;
  if (ext === '.jsx') return ts.ScriptKind.JSX;
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs') return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/**
 * JSDoc comments are not parsed into nodes: nothing in the analysis reads them (descriptions come from the
 * registration's arguments), and a documented file spent a share of its parse building them. Positions, syntax
 * errors and every node the analysis walks are the same.
 */
const PARSE_OPTIONS: ts.CreateSourceFileOptions = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };

/** Parses (or returns the cached parse of) a file. Parent pointers are needed for scope lookups. */
export function parseFile(file: string, text: string): ParsedFile {
  const hit = cache.get(file);
  if (hit && hit.text === text) return hit;
  // Parent pointers are set by the one walk below (which also indexes what the analysis looks for) rather than by
  // the parser's own extra pass: one traversal of the tree instead of three.
  const sf = ts.createSourceFile(file, text, PARSE_OPTIONS, false, scriptKindOf(file));
  const pf: ParsedFile = { file, text, sf, locals: new Map(), exports: new Map(), starExports: [], importSpecifiers: [], registrationCalls: [], serverDeclarations: [] };
  walkFile(pf);
  indexFile(pf);
  if (cache.size >= MAX_CACHE) cache.delete(cache.keys().next().value as string);
  cache.set(file, pf);
  return pf;
}

/** The request schema of `x.setRequestHandler(ListToolsRequestSchema, handler)` (also `types.ListToolsRequestSchema`). */
function requestHandlerSchema(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'setRequestHandler' || call.arguments.length < 2) return undefined;
  const schema = skipOuter(call.arguments[0]);
  return ts.isIdentifier(schema) ? schema.text : ts.isPropertyAccessExpression(schema) ? schema.name.text : undefined;
}

/** The low-level Server's list handlers read statically (lowlevel.ts, lowlevel-surfaces.ts), by request schema. */
const LIST_HANDLER_KINDS = {
  ListToolsRequestSchema: 'listTools',
  ListPromptsRequestSchema: 'listPrompts',
  ListResourcesRequestSchema: 'listResources',
  ListResourceTemplatesRequestSchema: 'listResourceTemplates',
} as const;

/** The names of the package functions that register a tool (`registerAppTool`: the framework table's `toolHelpers`). */
const TOOL_HELPER_NAMES = new Set(Object.values(FRAMEWORKS).flatMap((f) => (f.toolHelpers ?? []).map((h) => h.name)));
/** Likewise for resources (`registerAppResource`: the framework table's `resourceHelpers`). */
const RESOURCE_HELPER_NAMES = new Set(Object.values(FRAMEWORKS).flatMap((f) => (f.resourceHelpers ?? []).map((h) => h.name)));

/** Same test as the analysis applies to a call (index.ts registrationKind): a registration by its shape alone. */
export function registrationKind(
  call: ts.CallExpression,
):
  | 'registerTool'
  | 'registerToolTask'
  | 'tool'
  | 'listTools'
  | 'listPrompts'
  | 'listResources'
  | 'listResourceTemplates'
  | 'registerPrompt'
  | 'prompt'
  | 'registerResource'
  | 'resource'
  | 'toolHelper'
  | 'resourceHelper'
  | undefined {
  const callee = call.expression;
  // `registerAppTool(server, name, config, cb)` (or `ns.registerAppTool(...)`): the analysis checks where it is imported from.
  if (ts.isIdentifier(callee)) {
    if (TOOL_HELPER_NAMES.has(callee.text) && call.arguments.length >= 3) return 'toolHelper';
    return RESOURCE_HELPER_NAMES.has(callee.text) && call.arguments.length >= 4 ? 'resourceHelper' : undefined;
  }
  if (!ts.isPropertyAccessExpression(callee) || !ts.isIdentifier(callee.name)) return undefined;
  const m = callee.name.text;
  if (TOOL_HELPER_NAMES.has(m) && call.arguments.length >= 3) return 'toolHelper';
  if (RESOURCE_HELPER_NAMES.has(m) && call.arguments.length >= 4) return 'resourceHelper';
  // The low-level Server: its tools (prompts, resources) are what this list handler returns (lowlevel.ts, lowlevel-surfaces.ts).
  if (m === 'setRequestHandler') {
    const schema = requestHandlerSchema(call);
    return schema !== undefined && Object.hasOwn(LIST_HANDLER_KINDS, schema) ? LIST_HANDLER_KINDS[schema as keyof typeof LIST_HANDLER_KINDS] : undefined;
  }
  if (m === 'registerTool' && call.arguments.length >= 2) return 'registerTool';
  // `server.experimental.tasks.registerToolTask(name, config, handler)`: registerTool with a task execution mode.
  if (m === 'registerToolTask' && call.arguments.length >= 2) return 'registerToolTask';
  if (m === 'registerPrompt' && call.arguments.length >= 2) return 'registerPrompt';
  // registerResource(name, uriOrTemplate, config, cb); 1.x resource(name, uriOrTemplate, [metadata], cb).
  if (m === 'registerResource' && call.arguments.length >= 3) return 'registerResource';
  if ((m === 'tool' || m === 'prompt' || (m === 'resource' && call.arguments.length >= 3)) && call.arguments.length >= 2) {
    // `x.tool("name", ..., handler)`: a string-like first argument is what makes it the SDK overload.
    const first = skipOuter(call.arguments[0]);
    if (ts.isCallExpression(first) || ts.isObjectLiteralExpression(first) || ts.isArrowFunction(first) || ts.isFunctionExpression(first) || ts.isNumericLiteral(first)) return undefined;
    if (ts.isArrayLiteralExpression(first)) return undefined; // inquirer.prompt([...questions])
    return m;
  }
  return undefined;
}

const FIRST_NODE = SK.FirstNode;

/** Sets every node's parent and collects registration calls and server declarations, in document order. */
function walkFile(pf: ParsedFile): void {
  const { sf, registrationCalls, serverDeclarations } = pf;
  let parent: ts.Node = sf;
  const visit = (node: ts.Node): void => {
    (node as { parent: ts.Node }).parent = parent;
    if (node.kind === SK.CallExpression) {
      if (registrationKind(node as ts.CallExpression)) registrationCalls.push(node as ts.CallExpression);
    } else if (node.kind === SK.VariableDeclaration) {
      const d = node as ts.VariableDeclaration;
      if (ts.isIdentifier(d.name) && d.initializer) {
        const init = skipOuter(d.initializer);
        if (ts.isNewExpression(init) && FRAMEWORKS['ts-sdk'].serverClasses.includes(init.expression.getText(sf).replace(/^.*\./, ''))) serverDeclarations.push(d);
      }
    }
    // Tokens (identifiers, literals, keywords: every kind below FirstNode) have no children: no call to find none.
    if (node.kind < FIRST_NODE) return;
    const saved = parent;
    parent = node;
    ts.forEachChild(node, visit);
    parent = saved;
  };
  ts.forEachChild(sf, visit);
}

function hasExport(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === SK.ExportKeyword);
}
function hasDefault(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === SK.DefaultKeyword);
}

function indexFile(pf: ParsedFile): void {
  for (const st of pf.sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const module = st.moduleSpecifier.text;
      pf.importSpecifiers.push(module);
      const clause = st.importClause;
      if (!clause) continue;
      if (clause.name) pf.locals.set(clause.name.text, { kind: 'import', name: clause.name.text, module, imported: 'default', node: clause.name, pf });
      const nb = clause.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) pf.locals.set(nb.name.text, { kind: 'import', name: nb.name.text, module, imported: '*', node: nb, pf });
      else if (nb && ts.isNamedImports(nb)) {
        for (const el of nb.elements) {
          pf.locals.set(el.name.text, { kind: 'import', name: el.name.text, module, imported: (el.propertyName ?? el.name).text, node: el, pf });
        }
      }
    } else if (ts.isImportEqualsDeclaration(st) && ts.isExternalModuleReference(st.moduleReference) && ts.isStringLiteral(st.moduleReference.expression)) {
      const module = st.moduleReference.expression.text;
      pf.importSpecifiers.push(module);
      pf.locals.set(st.name.text, { kind: 'import', name: st.name.text, module, imported: '*', node: st, pf });
    } else if (ts.isVariableStatement(st)) {
      const exported = hasExport(st);
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) {
          pf.locals.set(d.name.text, { kind: 'var', name: d.name.text, node: d, pf });
          if (exported) pf.exports.set(d.name.text, { kind: 'local', local: d.name.text });
          // CommonJS `const x = require("m")`, also through the interop helpers of compiled output (`__importStar(require("m"))`)
          const module = d.initializer && requiredModule(d.initializer);
          if (module !== undefined) {
            pf.importSpecifiers.push(module);
            pf.locals.set(d.name.text, { kind: 'import', name: d.name.text, module, imported: '*', node: d, pf });
          }
        } else if (
          ts.isObjectBindingPattern(d.name) &&
          d.initializer &&
          ts.isCallExpression(d.initializer) &&
          ts.isIdentifier(d.initializer.expression) &&
          d.initializer.expression.text === 'require' &&
          d.initializer.arguments[0] &&
          ts.isStringLiteral(d.initializer.arguments[0])
        ) {
          const module = d.initializer.arguments[0].text;
          pf.importSpecifiers.push(module);
          for (const el of d.name.elements) {
            if (ts.isIdentifier(el.name)) {
              const imported = el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : el.name.text;
              pf.locals.set(el.name.text, { kind: 'import', name: el.name.text, module, imported, node: el, pf });
            }
          }
        }
      }
    } else if (ts.isFunctionDeclaration(st) && st.name) {
      pf.locals.set(st.name.text, { kind: 'function', name: st.name.text, node: st, pf });
      if (hasExport(st)) pf.exports.set(hasDefault(st) ? 'default' : st.name.text, { kind: 'local', local: st.name.text });
    } else if (ts.isEnumDeclaration(st)) {
      pf.locals.set(st.name.text, { kind: 'enum', name: st.name.text, node: st, pf });
      if (hasExport(st)) pf.exports.set(st.name.text, { kind: 'local', local: st.name.text });
    } else if (ts.isClassDeclaration(st) && st.name) {
      pf.locals.set(st.name.text, { kind: 'class', name: st.name.text, node: st, pf });
      if (hasExport(st)) pf.exports.set(hasDefault(st) ? 'default' : st.name.text, { kind: 'local', local: st.name.text });
    } else if (ts.isExportDeclaration(st)) {
      const module = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (module) pf.importSpecifiers.push(module);
      const clause = st.exportClause;
      if (!clause) {
        if (module) pf.starExports.push(module);
      } else if (ts.isNamespaceExport(clause)) {
        if (module) pf.exports.set(clause.name.text, { kind: 'reexport', module, imported: '*' });
      } else {
        for (const el of clause.elements) {
          const local = (el.propertyName ?? el.name).text;
          pf.exports.set(el.name.text, module ? { kind: 'reexport', module, imported: local } : { kind: 'local', local });
        }
      }
    } else if (ts.isExportAssignment(st) && !st.isExportEquals) {
      if (ts.isIdentifier(st.expression)) pf.exports.set('default', { kind: 'local', local: st.expression.text });
      else pf.exports.set('default', { kind: 'default-expr', node: st.expression });
    } else if (ts.isExpressionStatement(st)) {
      indexCommonJsExport(pf, st.expression);
    }
  }
}

/** Interop helpers TypeScript, Babel and bundlers wrap around `require` (`__importStar(require("m"))`): the module itself. */
const REQUIRE_WRAPPERS = new Set(['__importStar', '__importDefault', '__toESM', '_interopRequireWildcard', '_interopRequireDefault']);

/** The module of `require("m")`, or of it wrapped in an interop helper (`tslib_1.__importStar(require("m"))`). */
function requiredModule(expr: ts.Expression): string | undefined {
  const e = skipOuter(expr);
  if (!ts.isCallExpression(e) || !e.arguments[0]) return undefined;
  const callee = skipOuter(e.expression);
  if (ts.isIdentifier(callee) && callee.text === 'require') return ts.isStringLiteral(e.arguments[0]) ? e.arguments[0].text : undefined;
  const helper = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  return helper && REQUIRE_WRAPPERS.has(helper) ? requiredModule(e.arguments[0]) : undefined;
}

/** `exports` or `module.exports`. */
function isExportsObject(e: ts.Expression): boolean {
  const x = skipOuter(e);
  if (ts.isIdentifier(x)) return x.text === 'exports';
  return ts.isPropertyAccessExpression(x) && x.name.text === 'exports' && ts.isIdentifier(x.expression) && x.expression.text === 'module';
}

/**
 * CommonJS exports as compiled output writes them: `exports.x = value` (a chain `exports.a = exports.b = void 0`
 * declares them), `Object.defineProperty(exports, "x", { enumerable: true, get: function () { return m.x; } })`
 * (re-exports) and `__exportStar(require("m"), exports)` (`export *`).
 */
function indexCommonJsExport(pf: ParsedFile, expr: ts.Expression): void {
  const set = (name: string, value: ts.Expression) => {
    pf.commonJs = true;
    const v = skipOuter(value);
    if (ts.isVoidExpression(v)) {
      if (!pf.exports.has(name)) pf.exports.set(name, { kind: 'default-expr', node: v });
      return;
    }
    // The last write wins; the key keeps the place its first write gave it (its enumeration order at run time).
    pf.exports.set(name, ts.isIdentifier(v) && pf.locals.has(v.text) ? { kind: 'local', local: v.text } : { kind: 'default-expr', node: v });
  };
  let e = skipOuter(expr);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === SK.EqualsToken) {
    // `exports.a = exports.b = value`: every name in the chain gets the value at its end.
    const names: string[] = [];
    while (ts.isBinaryExpression(e) && e.operatorToken.kind === SK.EqualsToken) {
      const target = skipOuter(e.left);
      if (ts.isPropertyAccessExpression(target) && isExportsObject(target.expression)) names.push(target.name.text);
      else if (ts.isElementAccessExpression(target) && isExportsObject(target.expression) && ts.isStringLiteral(target.argumentExpression)) names.push(target.argumentExpression.text);
      else return;
      e = skipOuter(e.right);
    }
    // The runtime assigns from the right: the innermost name is created first.
    for (const name of names.reverse()) set(name, e);
    return;
  }
  if (!ts.isCallExpression(e)) return;
  const callee = skipOuter(e.expression);
  const [a0, a1, a2] = e.arguments;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'defineProperty' && ts.isIdentifier(callee.expression) && callee.expression.text === 'Object') {
    if (!a0 || !isExportsObject(a0) || !a1 || !ts.isStringLiteral(a1) || !a2 || !ts.isObjectLiteralExpression(a2)) return;
    const prop = (key: string) => a2.properties.find((p) => p.name && ts.isIdentifier(p.name) && p.name.text === key);
    const enumerable = prop('enumerable');
    if (!enumerable || !ts.isPropertyAssignment(enumerable) || enumerable.initializer.kind !== SK.TrueKeyword) return; // `__esModule`
    const getter = prop('get');
    const fn = getter && ts.isPropertyAssignment(getter) ? skipOuter(getter.initializer) : getter && ts.isMethodDeclaration(getter) ? getter : undefined;
    const body = fn && (ts.isFunctionExpression(fn) || ts.isArrowFunction(fn) || ts.isMethodDeclaration(fn)) ? fn.body : undefined;
    const returned = body && (ts.isBlock(body) ? (body.statements.length === 1 && ts.isReturnStatement(body.statements[0]) ? body.statements[0].expression : undefined) : body);
    if (returned) set(a1.text, returned);
    return;
  }
  const helper = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
  if (helper === '__exportStar' && a0 && a1 && isExportsObject(a1)) {
    const module = requiredModule(a0);
    if (module !== undefined) {
      pf.commonJs = true;
      pf.importSpecifiers.push(module);
      pf.starExports.push(module);
    }
  }
}

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** The workspace files an analysis reads, and how it reads them. */
export class Project {
  readonly dependencies = new Set<string>();
  constructor(readonly host: FileHost) {}

  /** Resolves a relative module specifier to a file path (undefined for packages or missing files). */
  resolveModule(fromFile: string, specifier: string): string | undefined {
    if (!specifier.startsWith('.') && !path.isAbsolute(specifier)) return undefined;
    const base = path.resolve(path.dirname(fromFile), specifier);
    const candidates: string[] = [];
    const ext = path.extname(base);
    // `.js` specifiers name the emitted file; the source is the `.ts` next to it.
    if (ext === '.js' || ext === '.jsx') candidates.push(base.slice(0, -ext.length) + '.ts', base.slice(0, -ext.length) + '.tsx');
    if (ext === '.mjs') candidates.push(base.slice(0, -4) + '.mts');
    if (ext === '.cjs') candidates.push(base.slice(0, -4) + '.cts');
    if (EXTENSIONS.includes(ext)) candidates.push(base);
    for (const e of EXTENSIONS) candidates.push(base + e);
    for (const e of EXTENSIONS) candidates.push(path.join(base, 'index' + e));
    for (const c of candidates) if (this.host.fileExists(c)) return c;
    return undefined;
  }

  /** The files this analysis parsed, by path. */
  readonly parsed = new Map<string, ParsedFile>();

  load(file: string): ParsedFile | undefined {
    const text = this.host.readFile(file);
    if (text === undefined) return undefined;
    this.dependencies.add(file);
    const pf = parseFile(file, text);
    this.parsed.set(file, pf);
    return pf;
  }

  loadModule(fromFile: string, specifier: string): ParsedFile | undefined {
    const file = this.resolveModule(fromFile, specifier);
    return file ? this.load(file) : undefined;
  }

  /** The declaration an export name of a file stands for (following re-exports and `export *`). */
  resolveExport(pf: ParsedFile, name: string, seen = new Set<string>()): Decl | undefined {
    const key = pf.file + '#' + name;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const entry = pf.exports.get(name);
    if (entry) {
      if (entry.kind === 'local') {
        const d = pf.locals.get(entry.local);
        if (d?.kind === 'import') return this.resolveImport(d, seen);
        return d;
      }
      if (entry.kind === 'default-expr') return { kind: 'expr', name, node: entry.node, pf };
      const target = this.loadModule(pf.file, entry.module);
      if (!target) return undefined;
      if (entry.imported === '*') return { kind: 'import', name, module: entry.module, imported: '*', node: pf.sf, pf };
      return this.resolveExport(target, entry.imported, seen);
    }
    if (name === 'default') return undefined;
    for (const spec of pf.starExports) {
      const target = this.loadModule(pf.file, spec);
      if (!target) continue;
      const d = this.resolveExport(target, name, seen);
      if (d) return d;
    }
    return undefined;
  }

  /** Every name a file exports (its own, then those of its `export *` modules), in the order they were written. */
  exportNames(pf: ParsedFile, seen = new Set<string>()): string[] {
    if (seen.has(pf.file)) return [];
    seen.add(pf.file);
    const names = [...pf.exports.keys()];
    for (const spec of pf.starExports) {
      const target = this.loadModule(pf.file, spec);
      if (!target) continue;
      for (const n of this.exportNames(target, seen)) if (n !== 'default' && !names.includes(n)) names.push(n);
    }
    return names;
  }

  /** Follows an import binding into a workspace file; package imports stay as they are. */
  resolveImport(d: Extract<Decl, { kind: 'import' }>, seen = new Set<string>()): Decl | undefined {
    if (d.imported === '*') return d;
    const target = this.loadModule(d.pf.file, d.module);
    if (!target) return d; // a package (zod, the SDK...) or a missing file: the caller decides
    return this.resolveExport(target, d.imported, seen);
  }
}

/** Identifiers a file writes to (assignment targets, `++`/`--`, `for (x of ...)`) and its variable declarations, by name. */
interface Writes {
  targets: Map<string, ts.Identifier[]>;
  /** The object written into: `x` of `x.p = v`, `x[k] += v`, `delete x.p`. */
  members: Map<string, ts.Identifier[]>;
  /** Handed to a call, where it may be filled: `fill(x)`, `x.push(v)`. */
  passed: Map<string, ts.Identifier[]>;
  /** Calls of an array's mutating methods on a name: `x.push(v)`, `x.splice(i, 1)`. */
  mutators: Map<string, ts.CallExpression[]>;
  declarations: Map<string, ts.VariableDeclaration[]>;
}
const writesOf = new WeakMap<ParsedFile, Writes>();

function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= SK.FirstAssignment && kind <= SK.LastAssignment;
}

/** Built on the first `let`/`var` the evaluation reads in a file: one walk, most files never need it. */
function fileWrites(pf: ParsedFile): Writes {
  let w = writesOf.get(pf);
  if (w) return w;
  const writes: Writes = { targets: new Map(), members: new Map(), passed: new Map(), mutators: new Map(), declarations: new Map() };
  const push = <T>(map: Map<string, T[]>, name: string, node: T) => {
    const list = map.get(name);
    if (list) list.push(node);
    else map.set(name, [node]);
  };
  // Every identifier inside a target: a destructuring assignment `({ a, b: c } = o)` writes a and c (and reads
  // nothing that matters here: over-approximating the written names only ever keeps a value unresolved).
  const targetsIn = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) push(writes.targets, n.text, n);
    else ts.forEachChild(n, targetsIn);
  };
  // `a.b.c`, `a[k]` -> a: the object a member write or a method call reaches.
  const receiver = (e: ts.Expression): ts.Identifier | undefined => {
    let x = skipOuter(e);
    while (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) x = skipOuter(x.expression);
    return ts.isIdentifier(x) ? x : undefined;
  };
  const visit = (n: ts.Node): void => {
    const member = (e: ts.Expression) => {
      const r = receiver(e);
      if (r) push(writes.members, r.text, r);
    };
    if (ts.isBinaryExpression(n) && isAssignmentOperator(n.operatorToken.kind)) {
      const left = skipOuter(n.left);
      if (ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) member(left);
      else targetsIn(left);
    } else if (ts.isDeleteExpression(n)) member(n.expression);
    else if (ts.isCallExpression(n)) {
      for (const a of n.arguments) {
        const arg = skipOuter(a);
        if (ts.isIdentifier(arg)) push(writes.passed, arg.text, arg);
      }
      const callee = skipOuter(n.expression);
      if (ts.isPropertyAccessExpression(callee) || ts.isElementAccessExpression(callee)) {
        const r = receiver(callee);
        if (r) push(writes.passed, r.text, r);
        const on = skipOuter(callee.expression);
        if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(on) && ARRAY_MUTATORS.has(callee.name.text)) push(writes.mutators, on.text, n);
      }
    } else if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === SK.PlusPlusToken || n.operator === SK.MinusMinusToken)) targetsIn(n.operand);
    else if ((ts.isForOfStatement(n) || ts.isForInStatement(n)) && !ts.isVariableDeclarationList(n.initializer)) targetsIn(n.initializer);
    else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) push(writes.declarations, n.name.text, n);
    ts.forEachChild(n, visit);
  };
  visit(pf.sf);
  w = writes;
  writesOf.set(pf, w);
  return w;
}

const ARRAY_MUTATORS = new Set(['push', 'unshift', 'splice', 'pop', 'shift', 'sort', 'reverse', 'fill', 'copyWithin']);

/**
 * What changes the object or array a declaration holds after it is created, read from the whole file: `pushes` are
 * `x.push(a, b)` statements at the module's top level (run once, when the module loads, in order); `other` is any
 * other change (a member written or deleted, another mutating method, a push inside a function).
 */
export function mutationsOf(decl: ts.VariableDeclaration, pf: ParsedFile): { pushes: ts.CallExpression[]; other: ts.Node[] } {
  const out = { pushes: [] as ts.CallExpression[], other: [] as ts.Node[] };
  if (!ts.isIdentifier(decl.name)) return out;
  const w = writesOfName(pf, decl.name.text);
  out.other.push(...(w.members.get(decl) ?? []));
  for (const call of w.mutators.get(decl) ?? []) {
    const callee = call.expression as ts.PropertyAccessExpression;
    const topLevel = ts.isExpressionStatement(call.parent) && ts.isSourceFile(call.parent.parent);
    if (callee.name.text === 'push' && topLevel) out.pushes.push(call);
    else out.other.push(call);
  }
  return out;
}

/**
 * Whether a `let`/`var` is assigned anywhere after its declaration: a write to its name or to one of its members
 * that resolves to it, a second declaration of the same binding (`var x = 1; var x = 2`), or an empty `{}`/`[]`
 * handed to a call. One that never is holds its initializer, as a const does: what bundlers (esbuild, tsup) emit for
 * every top-level const of the source.
 */
export function isReassigned(decl: ts.VariableDeclaration, pf: ParsedFile): boolean {
  if (!ts.isIdentifier(decl.name)) return true;
  const w = writesOfName(pf, decl.name.text);
  if (w.assigned.has(decl)) return true;
  // An empty `{}` / `[]` handed to a call is being filled (a bundler's `var ns = {}; __export(ns, {...})`).
  const init = decl.initializer && skipOuter(decl.initializer);
  const empty = init && ((ts.isObjectLiteralExpression(init) && init.properties.length === 0) || (ts.isArrayLiteralExpression(init) && init.elements.length === 0));
  return !!empty && w.passed.has(decl);
}

/** The writes of one name in a file, each resolved once to the declaration it reaches (see resolvedWrites). */
interface WritesOfName {
  /** Declarations written after they are made: assigned, a member written, or declared again. */
  assigned: Set<ts.Node>;
  /** Declarations handed to a call. */
  passed: Set<ts.Node>;
  members: Map<ts.Node, ts.Identifier[]>;
  mutators: Map<ts.Node, ts.CallExpression[]>;
}
const resolvedWrites = new WeakMap<ParsedFile, Map<string, WritesOfName>>();

/**
 * Every write of `name` in the file resolved to its declaration, once per name: asking per declaration resolved all
 * the writes of its name each time, which minified bundles (thousands of `e` and `t`) made quadratic.
 */
function writesOfName(pf: ParsedFile, name: string): WritesOfName {
  let byName = resolvedWrites.get(pf);
  if (!byName) resolvedWrites.set(pf, (byName = new Map<string, WritesOfName>()));
  let out = byName.get(name);
  if (out) return out;
  out = { assigned: new Set(), passed: new Set(), members: new Map(), mutators: new Map() };
  const w = fileWrites(pf);
  const target = (at: ts.Node) => lookupName(name, at, pf)?.node;
  const add = <T>(map: Map<ts.Node, T[]>, key: ts.Node, v: T) => {
    const list = map.get(key);
    if (list) list.push(v);
    else map.set(key, [v]);
  };
  for (const id of w.targets.get(name) ?? []) {
    const d = target(id);
    if (d) out.assigned.add(d);
  }
  for (const id of w.members.get(name) ?? []) {
    const d = target(id);
    if (d) {
      out.assigned.add(d);
      add(out.members, d, id);
    }
  }
  for (const other of w.declarations.get(name) ?? []) {
    const d = target(other.name);
    if (d && d !== other) out.assigned.add(d);
  }
  for (const id of w.passed.get(name) ?? []) {
    const d = target(id);
    if (d) out.passed.add(d);
  }
  for (const call of w.mutators.get(name) ?? []) {
    const d = target((call.expression as ts.PropertyAccessExpression).expression);
    if (d) add(out.mutators, d, call);
  }
  byName.set(name, out);
  return out;
}

/** What a node is for scope lookups, by SyntaxKind: read once per ancestor, so one array read instead of type tests. */
const SCOPE_NONE = 0;
const SCOPE_STATEMENTS = 1;
const SCOPE_CLAUSE = 2;
const SCOPE_FUNCTION = 3;
const SCOPE_FOR = 4;
const scopeKinds = (() => {
  const table = new Uint8Array(SK.Count + 1);
  for (let k = 0; k <= SK.Count; k++) {
    const fake = { kind: k } as ts.Node;
    if (ts.isBlock(fake) || ts.isModuleBlock(fake)) table[k] = SCOPE_STATEMENTS;
    else if (ts.isCaseClause(fake) || ts.isDefaultClause(fake)) table[k] = SCOPE_CLAUSE;
    else if (ts.isFunctionLike(fake)) table[k] = SCOPE_FUNCTION;
    else if (ts.isForOfStatement(fake) || ts.isForInStatement(fake) || ts.isForStatement(fake)) table[k] = SCOPE_FOR;
  }
  return table;
})();

/** ts.isFunctionLike by kind alone (one array read). */
export function isFunctionLikeKind(kind: ts.SyntaxKind): boolean {
  return scopeKinds[kind] === SCOPE_FUNCTION;
}

/** Looks a name up from a node outwards: block scopes, function parameters, then the file's top level. */
export function lookupName(name: string, from: ts.Node, pf: ParsedFile): Decl | undefined {
  let node: ts.Node | undefined = from.parent;
  while (node && node !== pf.sf) {
    switch (scopeKinds[node.kind]) {
      case SCOPE_NONE:
        break;
      case SCOPE_STATEMENTS:
      case SCOPE_CLAUSE: {
        const d = findInStatements(name, (node as ts.Block | ts.ModuleBlock | ts.CaseOrDefaultClause).statements, pf);
        if (d) return d;
        break;
      }
      case SCOPE_FUNCTION:
        for (const p of (node as ts.SignatureDeclaration).parameters) if (ts.isIdentifier(p.name) && p.name.text === name) return { kind: 'param', name, node: p, pf };
        break;
      case SCOPE_FOR: {
        const init = (node as ts.ForOfStatement | ts.ForInStatement | ts.ForStatement).initializer;
        if (init && ts.isVariableDeclarationList(init)) {
          for (const d of init.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return { kind: 'var', name, node: d, pf };
        }
        break;
      }
    }
    node = node.parent;
  }
  return pf.locals.get(name);
}

/**
 * The declarations of a statement list by name (the first of a name wins, as a scan in order finds it): built once
 * per list. A bundle wraps whole modules in one function, so a list can hold thousands of statements and a scan per
 * lookup made name resolution quadratic (nx-mcp's 2.6 MiB bundle: 75 s, most of it here).
 */
const declarationsOf = new WeakMap<ts.NodeArray<ts.Statement>, Map<string, Decl>>();
function findInStatements(name: string, statements: ts.NodeArray<ts.Statement>, pf: ParsedFile): Decl | undefined {
  let byName = declarationsOf.get(statements);
  if (!byName) {
    byName = new Map();
    const add = (d: Decl) => {
      if (!byName!.has(d.name)) byName!.set(d.name, d);
    };
    for (const st of statements) {
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add({ kind: 'var', name: d.name.text, node: d, pf });
      } else if (ts.isFunctionDeclaration(st) && st.name) add({ kind: 'function', name: st.name.text, node: st, pf });
      else if (ts.isEnumDeclaration(st)) add({ kind: 'enum', name: st.name.text, node: st, pf });
      else if (ts.isClassDeclaration(st) && st.name) add({ kind: 'class', name: st.name.text, node: st, pf });
    }
    declarationsOf.set(statements, byName);
  }
  return byName.get(name);
}

export function spanOf(node: ts.Node, pf: ParsedFile): Span {
  return { file: pf.file, start: node.getStart(pf.sf), end: node.getEnd() };
}

/** Strips parentheses and type-only wrappers (`as`, `satisfies`, `!`, `<T>x`). */
export function skipOuter(node: ts.Expression): ts.Expression {
  for (;;) {
    switch (node.kind) {
      case SK.ParenthesizedExpression:
      case SK.AsExpression:
      case SK.SatisfiesExpression:
      case SK.NonNullExpression:
      case SK.TypeAssertionExpression:
        node = (node as ts.ParenthesizedExpression).expression;
        break;
      default:
        return node;
    }
  }
}

/**
 * The module graph of a Python server's entry, in the order the interpreter runs it: an `import` statement runs the
 * imported module (and first every package `__init__.py` above it) at that point, once per process; `python -m pkg`
 * runs `pkg/__init__.py` before `pkg/__main__.py`. Only the project's own modules are followed (the entry's top-level
 * package when it is installed in site-packages, else the project folder); a relative import that names no module,
 * an own-package module that is not there, or `importlib.import_module(<computed>)` is reported, never guessed.
 */
import * as path from 'node:path';
import type { SyntaxNode } from '@lezer/common';
import type { FileHost, Span, Unresolved } from '../model';
import { parsePython } from './parse';
import { argsOf, child, children, dottedName, stringValue } from './syntax';

/** One import statement: the modules it runs, in order, and where it is written. */
export interface ImportEvent {
  pos: number;
  /** Files run by the statement (package `__init__.py` files first), each resolved inside the project. */
  files: string[];
}

export interface PyModuleGraph {
  /** Every module reached, in the order the interpreter first runs it. */
  modules: string[];
  /** Per module: its import statements (any depth: an import inside a function runs when it is called), in source order. */
  imports: Map<string, ImportEvent[]>;
  unfollowed: Unresolved[];
}

/** Folders that are never the project's own code. */
const FOREIGN_DIRS = new Set(['site-packages', 'dist-packages', 'node_modules', '.venv', 'venv', '.tox', '__pycache__', '.git']);
const PROJECT_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg'];

/** Where absolute imports of the project resolve, and which files count as its own. */
interface Boundary {
  /** Folders an absolute import is looked up in (sys.path as the entry sees it, restricted to the project). */
  roots: string[];
  /** A file is the project's own when it lies under this folder... */
  within: string;
  /** ...and, installed in site-packages, belongs to this top-level package. */
  topPackage?: string;
}

function isPackageDir(host: FileHost, dir: string): boolean {
  return host.fileExists(path.join(dir, '__init__.py'));
}

function boundaryOf(host: FileHost, entry: string): Boundary {
  let top = path.dirname(entry);
  if (isPackageDir(host, top)) {
    while (isPackageDir(host, path.dirname(top)) && path.dirname(top) !== top) top = path.dirname(top);
  } else top = '';
  const importRoot = top ? path.dirname(top) : path.dirname(entry);
  if (path.basename(importRoot) === 'site-packages' || path.basename(importRoot) === 'dist-packages') {
    // An installed package: its own top-level package only (the other packages there are its dependencies).
    return { roots: [importRoot], within: top || path.dirname(entry), topPackage: top ? path.basename(top) : undefined };
  }
  let project = importRoot;
  for (let dir = importRoot, i = 0; i < 6; i++) {
    if (PROJECT_MARKERS.some((m) => host.fileExists(path.join(dir, m)))) {
      project = dir;
      break;
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const roots = [...new Set([path.dirname(entry), importRoot, project, path.join(project, 'src')])];
  return { roots, within: project };
}

function inside(b: Boundary, file: string): boolean {
  const rel = path.relative(b.within, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return false;
  if (b.topPackage === undefined && rel.split(path.sep).some((part) => FOREIGN_DIRS.has(part))) return false;
  return true;
}

/** `a/b/c` -> `a/b/c.py` or `a/b/c/__init__.py`, if either exists. */
function moduleFile(host: FileHost, base: string): string | undefined {
  if (host.fileExists(base + '.py')) return base + '.py';
  const init = path.join(base, '__init__.py');
  return host.fileExists(init) ? init : undefined;
}

/** A folder without `__init__.py`: an implicit namespace package (PEP 420), importable, running no code. */
function namespacePackage(host: FileHost, base: string): boolean {
  return host.listDir?.(base) !== undefined;
}

/** The `__init__.py` files of the packages above `file` up to (not above) `root`, outermost first. */
function packageChain(host: FileHost, file: string, root: string): string[] {
  const chain: string[] = [];
  let dir = path.dirname(file);
  if (path.basename(file) === '__init__.py') dir = path.dirname(dir);
  while (dir.length > root.length && dir.startsWith(root)) {
    const init = path.join(dir, '__init__.py');
    if (!host.fileExists(init)) break;
    chain.unshift(init);
    dir = path.dirname(dir);
  }
  return chain;
}

/** An import statement's parts: `from <level dots><module> import <names>` or `import <module>[, ...]`. */
function importStatementParts(stmt: SyntaxNode, text: string): { level: number; modules: string[]; names: string[] } {
  const parts = children(stmt);
  const src = (n: SyntaxNode) => text.slice(n.from, n.to);
  if (parts[0]?.name === 'from') {
    let level = 0;
    let mod = '';
    let i = 1;
    for (; i < parts.length && parts[i].name !== 'import'; i++) {
      const p = parts[i];
      if (p.name === '.') {
        if (!mod) level++;
        else mod += '.';
      } else if (p.name === 'Ellipsis') level += 3;
      else if (p.name === 'VariableName') mod += src(p);
    }
    const names: string[] = [];
    for (i++; i < parts.length; i++) {
      if (parts[i].name !== 'VariableName') continue;
      names.push(src(parts[i]));
      if (parts[i + 1]?.name === 'as') i += 2;
    }
    return { level, modules: [mod], names };
  }
  const modules: string[] = [];
  let mod = '';
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i];
    if (p.name === 'as') {
      i++;
      continue;
    }
    if (p.name === ',') {
      if (mod) modules.push(mod);
      mod = '';
    } else mod += p.name === '.' ? '.' : src(p);
  }
  if (mod) modules.push(mod);
  return { level: 0, modules, names: [] };
}

/** Inside `if TYPE_CHECKING:` (never run). */
function typeCheckingOnly(node: SyntaxNode, text: string): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (n.name !== 'IfStatement') continue;
    const cond = n.firstChild?.nextSibling;
    if (cond && /^(typing\.)?TYPE_CHECKING$/.test(text.slice(cond.from, cond.to))) return true;
  }
  return false;
}

/**
 * The modules `entry` runs, following the project's own imports. `text` is the entry's text; the others are read
 * through `host` (its size cap applies: a module it cannot read is reported).
 */
export function pythonModuleGraph(entry: string, text: string, host: FileHost): PyModuleGraph {
  const boundary = boundaryOf(host, entry);
  const graph: PyModuleGraph = { modules: [], imports: new Map(), unfollowed: [] };
  const seen = new Set<string>();
  const queue: { file: string; text: string }[] = [];
  const enqueue = (file: string, known?: string): boolean => {
    if (seen.has(file)) return true;
    const t = known ?? host.readFile(file);
    if (t === undefined) return false;
    seen.add(file);
    queue.push({ file, text: t });
    return true;
  };
  // `python -m pkg` / a module of a package: the packages above it run first.
  const packageRoot = boundary.topPackage ? boundary.roots[0] : boundary.within;
  for (const init of packageChain(host, entry, packageRoot)) enqueue(init);
  enqueue(entry, text);
  for (let i = 0; i < queue.length && i < 2000; i++) {
    const { file, text: src } = queue[i];
    graph.modules.push(file);
    const events: ImportEvent[] = [];
    graph.imports.set(file, events);
    const tree = parsePython(file, src);
    const unfollowed = (reason: string, span: Span) => graph.unfollowed.push({ part: 'module', reason, span });
    /** A module by dotted name, relative (`level` dots) to `file` or absolute; undefined when it is not the project's. */
    const resolve = (level: number, dotted: string): { file?: string; own: boolean; namespace?: boolean } => {
      const rel = dotted ? dotted.split('.') : [];
      if (level > 0) {
        let dir = path.dirname(file);
        for (let k = 1; k < level; k++) dir = path.dirname(dir);
        const base = path.join(dir, ...rel);
        const found = rel.length ? moduleFile(host, base) : host.fileExists(path.join(dir, '__init__.py')) ? path.join(dir, '__init__.py') : undefined;
        if (!found && namespacePackage(host, base)) return { own: true, namespace: true };
        return { file: found && inside(boundary, found) ? found : undefined, own: true };
      }
      if (!rel.length) return { own: false };
      if (boundary.topPackage !== undefined && rel[0] !== boundary.topPackage) return { own: false };
      for (const root of boundary.roots) {
        const found = moduleFile(host, path.join(root, ...rel));
        if (found && inside(boundary, found)) return { file: found, own: true };
        if (!found && inside(boundary, path.join(root, ...rel)) && namespacePackage(host, path.join(root, ...rel))) return { own: true, namespace: true };
      }
      // The project's own top-level package (or one of its folders) that does not hold this module.
      const own = boundary.topPackage !== undefined || boundary.roots.some((r) => moduleFile(host, path.join(r, rel[0])) !== undefined);
      return { own };
    };
    /** The files one import of `target` runs: the packages above it, the module, and `from pkg import sub` submodules. */
    const run = (files: string[], target: string, level: number, dotted: string, names: string[]) => {
      const chainRoot = level > 0 || boundary.topPackage ? packageRoot : path.dirname(target);
      for (const init of [...packageChain(host, target, chainRoot), target]) if (!files.includes(init)) files.push(init);
      for (const n of names) {
        const sub = resolve(level, dotted ? `${dotted}.${n}` : n).file;
        if (sub && !files.includes(sub)) files.push(sub);
      }
    };
    tree.iterate({
      enter: (n) => {
        if (n.name === 'ImportStatement') {
          const node = n.node;
          if (typeCheckingOnly(node, src)) return false;
          const { level, modules, names } = importStatementParts(node, src);
          const span = { file, start: n.from, end: n.to };
          const files: string[] = [];
          for (const dotted of modules) {
            if (level === 0 && dotted === '__future__') continue;
            const r = resolve(level, dotted);
            if (r.file) run(files, r.file, level, dotted, names);
            else if (r.namespace) {
              // `from pkg.ns import sub` with `pkg/ns/` a namespace package: the submodules named run.
              for (const n of names) {
                const sub = resolve(level, dotted ? `${dotted}.${n}` : n).file;
                if (sub && !files.includes(sub)) files.push(sub);
              }
            } else if (r.own) unfollowed(`the module ${'.'.repeat(level)}${dotted} is not found in the project: its tools, if any, are not in this prediction`, span);
          }
          const ran: string[] = [];
          for (const f of files)
            if (enqueue(f)) ran.push(f);
            else unfollowed(`the module ${path.basename(f)} could not be read (larger than the size cap, or not a regular file): its tools, if any, are not in this prediction`, span);
          if (ran.length) events.push({ pos: n.from, files: ran });
          return false;
        }
        if (n.name === 'CallExpression') {
          // importlib.import_module("pkg.tools") runs a module too; a computed name cannot be followed.
          const callee = n.node.firstChild;
          const name = callee ? dottedName(callee, src) : undefined;
          if (name === 'importlib.import_module' || name === 'import_module' || name === '__import__') {
            const first = argsOf(child(n.node, 'ArgList'))[0]?.value;
            const literal = first ? stringValue(first, src) : undefined;
            const span = { file, start: n.from, end: n.to };
            if (literal !== undefined && !literal.startsWith('.')) {
              const r = resolve(0, literal);
              const files: string[] = [];
              if (r.file) run(files, r.file, 0, literal, []);
              const ran = files.filter((f) => enqueue(f));
              if (ran.length) events.push({ pos: n.from, files: ran });
            } else if (first) {
              unfollowed(
                `${name}() with a computed module name (${src.slice(first.from, Math.min(first.to, first.from + 60))}): the modules it loads are not followed, their tools are not in this prediction`,
                span,
              );
            }
          }
        }
        return undefined;
      },
    });
  }
  return graph;
}

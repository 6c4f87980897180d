/**
 * How to start a tool's server from its source file: the interpreter (virtual-environment Python, or node) and the
 * arguments, all as absolute paths. Used for "Copy client configuration", for the installed SDK version, and to start
 * the server through the server manager when no configured or detected server runs the file. vscode-free so the unit
 * tests run it as is.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse as parseJsonc } from 'jsonc-parser';
import type { LaunchSpec } from '../servers/session';

/** A launch (the one LaunchSpec every session starts from) resolved from a source file, with where it came from. */
export interface SourceLaunch extends LaunchSpec {
  language: 'typescript' | 'python';
  /** Absolute path of the interpreter. */
  command: string;
  cwd: string;
  /** The source file that registers the tools. */
  serverFile: string;
  /** The file the interpreter actually runs (compiled JS for a TypeScript build, else the source itself). */
  entryFile: string;
  /** How the interpreter was chosen, for the UI ("virtual environment .venv", "tsx from node_modules"...). */
  note: string;
}

export interface LaunchOptions {
  /** Folder the search for a venv / node_modules stops at (the workspace folder). */
  workspaceRoot?: string;
  /** An explicit Python interpreter (e.g. the Python extension's selection). */
  pythonPath?: string;
  /** An explicit node binary. */
  nodePath?: string;
}

function exists(p: string): boolean {
  try {
    fs.accessSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Directories from `dir` up to `stop` (inclusive), or to the file-system root. */
function ancestors(dir: string, stop?: string): string[] {
  const out: string[] = [];
  let d = path.resolve(dir);
  const end = stop ? path.resolve(stop) : undefined;
  for (;;) {
    out.push(d);
    if (d === end) break;
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  return out;
}

/** Absolute path of a program found on PATH, or undefined. */
export function which(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, program);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      /* not here */
    }
  }
  return undefined;
}

const VENV_NAMES = ['.venv', 'venv', '.env', 'env'];

/** The virtual-environment Python nearest to the file (up to the workspace root), else python3 on PATH. */
export function findPython(file: string, opts: LaunchOptions = {}): { python: string; note: string } | undefined {
  if (opts.pythonPath && exists(opts.pythonPath)) return { python: path.resolve(opts.pythonPath), note: 'configured interpreter' };
  for (const dir of ancestors(path.dirname(file), opts.workspaceRoot)) {
    for (const name of VENV_NAMES) {
      for (const rel of ['bin/python', 'Scripts/python.exe']) {
        const candidate = path.join(dir, name, rel);
        if (exists(candidate)) return { python: candidate, note: `virtual environment ${path.join(dir, name)}` };
      }
    }
  }
  const system = which('python3') ?? which('python');
  return system ? { python: system, note: 'python on PATH (no virtual environment found: the mcp package may be missing)' } : undefined;
}

/** A node binary: the configured one, else node on PATH (the extension host's own executable may be Electron). */
export function findNode(opts: LaunchOptions = {}): string | undefined {
  if (opts.nodePath && exists(opts.nodePath)) return path.resolve(opts.nodePath);
  const onPath = which('node');
  if (onPath) return onPath;
  return process.versions.electron ? undefined : process.execPath;
}

/** For a .ts file: the compiled .js that the nearest tsconfig.json's outDir/rootDir maps it to, when it exists. */
export function compiledOutputOf(file: string, opts: LaunchOptions = {}): string | undefined {
  for (const dir of ancestors(path.dirname(file), opts.workspaceRoot)) {
    const tsconfig = path.join(dir, 'tsconfig.json');
    if (!exists(tsconfig)) continue;
    const config = parseJsonc(fs.readFileSync(tsconfig, 'utf8')) as { compilerOptions?: { outDir?: string; rootDir?: string } } | undefined;
    const outDir = config?.compilerOptions?.outDir;
    if (!outDir) return undefined;
    const rootDir = path.resolve(dir, config?.compilerOptions?.rootDir ?? '.');
    const rel = path.relative(rootDir, file);
    if (rel.startsWith('..')) return undefined;
    const candidate = path.join(path.resolve(dir, outDir), rel).replace(/\.(m|c)?tsx?$/, (_m, k: string | undefined) => `.${k ?? ''}js`);
    return exists(candidate) ? candidate : undefined;
  }
  return undefined;
}

function nodeMajorMinor(node: string): [number, number] | undefined {
  try {
    const v = execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 5000 }).trim();
    const m = /^v(\d+)\.(\d+)/.exec(v);
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  } catch {
    return undefined;
  }
}

export function resolveLaunch(fileIn: string, opts: LaunchOptions = {}): SourceLaunch | { error: string } {
  const file = path.resolve(fileIn);
  const cwd = path.dirname(file);
  if (/\.pyi?$/.test(file)) {
    const found = findPython(file, opts);
    if (!found) return { error: 'No Python interpreter found: create a virtual environment (.venv) next to the server.' };
    return { language: 'python', command: found.python, args: [file], cwd, serverFile: file, entryFile: file, note: found.note };
  }
  const node = findNode(opts);
  if (!node) return { error: 'No node binary found on PATH.' };
  if (/\.(m|c)?jsx?$/.test(file)) return { language: 'typescript', command: node, args: [file], cwd, serverFile: file, entryFile: file, note: 'node' };
  const compiled = compiledOutputOf(file, opts);
  if (compiled) return { language: 'typescript', command: node, args: [compiled], cwd, serverFile: file, entryFile: compiled, note: `compiled output ${compiled}` };
  for (const dir of ancestors(cwd, opts.workspaceRoot)) {
    const tsx = path.join(dir, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    if (exists(tsx)) return { language: 'typescript', command: node, args: [tsx, file], cwd, serverFile: file, entryFile: file, note: `tsx from ${path.join(dir, 'node_modules')}` };
  }
  const version = nodeMajorMinor(node);
  if (version && (version[0] > 22 || (version[0] === 22 && version[1] >= 6))) {
    return { language: 'typescript', command: node, args: ['--experimental-strip-types', file], cwd, serverFile: file, entryFile: file, note: 'node type stripping' };
  }
  return { error: `Cannot run ${path.basename(file)} directly: build it (tsconfig outDir) or add tsx to the workspace's devDependencies.` };
}

/** The server's display name for client configurations: the file stem, or its folder for generic stems. */
export function serverDisplayName(file: string): string {
  const stem = path.basename(file).replace(/\.[^.]+$/, '');
  const generic = /^(server|index|main|app|mcp_server|mcp-server|__main__)$/i.test(stem);
  let dir = path.dirname(file);
  // helpdesk-ts/src/server.ts -> helpdesk-ts: a source folder says nothing about the server.
  if (/^(src|lib|app|dist|build|out)$/i.test(path.basename(dir))) dir = path.dirname(dir);
  const raw = generic ? path.basename(dir) : stem;
  return raw.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'mcp-server';
}

export type ClientTarget = 'vscode' | 'claude' | 'cursor';

/** The configuration snippet each client expects, with absolute paths. */
export function clientConfiguration(spec: SourceLaunch, target: ClientTarget, name = serverDisplayName(spec.serverFile)): string {
  const entry = { command: spec.command, args: spec.args };
  if (target === 'vscode') return JSON.stringify({ servers: { [name]: { type: 'stdio', ...entry } } }, null, 2);
  return JSON.stringify({ mcpServers: { [name]: entry } }, null, 2);
}

export const CLIENT_TARGETS: { target: ClientTarget; label: string; where: string }[] = [
  { target: 'vscode', label: 'VS Code (.vscode/mcp.json)', where: '.vscode/mcp.json in the workspace' },
  { target: 'claude', label: 'Claude Desktop (claude_desktop_config.json)', where: 'claude_desktop_config.json (Settings > Developer > Edit Config)' },
  { target: 'cursor', label: 'Cursor (.cursor/mcp.json)', where: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json' },
];

/** The SDK version installed where the server runs: node_modules for TypeScript, the interpreter's site-packages for Python. */
export function installedSdkVersion(spec: SourceLaunch, packageName: string, opts: LaunchOptions = {}): string | undefined {
  if (spec.language === 'typescript') {
    for (const dir of ancestors(path.dirname(spec.serverFile), opts.workspaceRoot)) {
      const pkg = path.join(dir, 'node_modules', ...packageName.split('/'), 'package.json');
      if (exists(pkg)) {
        try {
          return (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version?: string }).version;
        } catch {
          return undefined;
        }
      }
    }
    return undefined;
  }
  // <venv>/bin/python -> <venv>/lib/python3.x/site-packages/<name>-<version>.dist-info
  const venv = path.dirname(path.dirname(spec.command));
  const libs = [path.join(venv, 'Lib', 'site-packages')];
  try {
    for (const d of fs.readdirSync(path.join(venv, 'lib'))) libs.push(path.join(venv, 'lib', d, 'site-packages'));
  } catch {
    /* not a venv layout */
  }
  const wanted = packageName.toLowerCase().replace(/[-_.]+/g, '_');
  for (const lib of libs) {
    let entries: string[];
    try {
      entries = fs.readdirSync(lib);
    } catch {
      continue;
    }
    for (const e of entries) {
      const m = /^(.+)-([^-]+)\.dist-info$/.exec(e);
      if (m && m[1].toLowerCase().replace(/[-_.]+/g, '_') === wanted) return m[2];
    }
  }
  return undefined;
}

/**
 * Where the playground finds the workspace's MCP servers, without vscode so it can be unit-tested:
 * - `.vscode/mcp.json` (`servers`, VS Code's format, with `inputs` for `${input:...}` prompts),
 * - a root `.mcp.json` or `mcp.json` (`mcpServers`, the format most clients share),
 * - the `toolsmith.servers` setting (the `.vscode/mcp.json` `servers` format),
 * - detected candidates: a TS/JS file connecting an McpServer to a stdio transport, a Python file running an
 *   MCPServer/FastMCP; the author confirms each once, then it runs with the workspace's own tsx/node or venv Python.
 * Variables are kept as written here and resolved only at launch (resolveLaunch), where prompts can be shown.
 */
import * as path from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import type { LaunchSpec } from './session';
import { constructsServer } from '../../../common/frameworks';

/** 'source': started from a source file no configured or detected server runs (see ServerManager.addSourceServer). */
export type ServerOrigin = '.vscode/mcp.json' | '.mcp.json' | 'mcp.json' | 'setting' | 'detected' | 'source';

export interface InputDefinition {
  id: string;
  type?: string;
  description?: string;
  password?: boolean;
  default?: string;
  options?: string[];
}

export interface ServerConfig {
  /** Stable id: origin + name (detected: origin + relative file). */
  id: string;
  name: string;
  origin: ServerOrigin;
  /** The file that declared it (or the candidate source file). */
  file?: string;
  /** Empty for a server reached over HTTP (url set). */
  command: string;
  args: string[];
  env: Record<string, string>;
  /** A remote server (mcp.json `"type": "http"` or `"sse"`): its URL and headers, variables unresolved. */
  url?: string;
  headers?: Record<string, string>;
  transport?: 'http' | 'sse';
  envFile?: string;
  cwd?: string;
  inputs: InputDefinition[];
  /** Detected candidates run only once the author confirmed them. */
  detected?: { sourceFile: string; language: 'typescript' | 'python'; confirmed: boolean };
  /** Saves under this folder restart the server (when restartOnSave is on). */
  watchRoot: string;
}

export interface SkippedEntry {
  name: string;
  origin: ServerOrigin;
  reason: string;
}

export interface DiscoveryResult {
  servers: ServerConfig[];
  skipped: SkippedEntry[];
  /** Files that could not be parsed, with the problem. */
  problems: { file: string; message: string }[];
}

/** What discovery needs from the workspace (a folder on disk in tests, vscode.workspace.fs in the extension). */
export interface WorkspaceReader {
  root: string;
  readText: (absPath: string) => Promise<string | undefined>;
  exists: (absPath: string) => Promise<boolean>;
}

function asStringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = String(x);
  }
  return out;
}

/** Turns one `servers`/`mcpServers` map into configs; non-stdio entries are reported, not dropped silently. */
export function readServerMap(map: unknown, origin: ServerOrigin, file: string | undefined, root: string, inputs: InputDefinition[]): { servers: ServerConfig[]; skipped: SkippedEntry[] } {
  const servers: ServerConfig[] = [];
  const skipped: SkippedEntry[] = [];
  if (!map || typeof map !== 'object' || Array.isArray(map)) return { servers, skipped };
  for (const [name, raw] of Object.entries(map as Record<string, unknown>)) {
    if (!raw || typeof raw !== 'object') {
      skipped.push({ name, origin, reason: 'not an object' });
      continue;
    }
    const e = raw as Record<string, unknown>;
    const type = typeof e.type === 'string' ? e.type : e.url ? 'http' : 'stdio';
    if (type === 'http' || type === 'sse') {
      if (typeof e.url !== 'string' || !e.url.trim()) {
        skipped.push({ name, origin, reason: 'no "url"' });
        continue;
      }
      servers.push({ id: `${origin}:${name}`, name, origin, file, command: '', args: [], env: {}, url: e.url, headers: asStringRecord(e.headers), transport: type, inputs, watchRoot: root });
      continue;
    }
    if (type !== 'stdio') {
      skipped.push({ name, origin, reason: `type "${type}" is not supported by the playground (stdio, http and sse only)` });
      continue;
    }
    if (typeof e.command !== 'string' || !e.command.trim()) {
      skipped.push({ name, origin, reason: 'no "command"' });
      continue;
    }
    const cwd = typeof e.cwd === 'string' ? e.cwd : undefined;
    servers.push({
      id: `${origin}:${name}`,
      name,
      origin,
      file,
      command: e.command,
      args: Array.isArray(e.args) ? e.args.map(String) : [],
      env: asStringRecord(e.env),
      envFile: typeof e.envFile === 'string' ? e.envFile : undefined,
      cwd,
      inputs,
      watchRoot: root,
    });
  }
  return { servers, skipped };
}

function parseFile(text: string, file: string, problems: DiscoveryResult['problems']): Record<string, unknown> | undefined {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length || !value || typeof value !== 'object') {
    problems.push({ file, message: `${path.basename(file)} is not valid JSON (${errors.length} error${errors.length === 1 ? '' : 's'})` });
    return undefined;
  }
  return value as Record<string, unknown>;
}

function readInputs(v: unknown): InputDefinition[] {
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is InputDefinition => !!x && typeof x === 'object' && typeof (x as InputDefinition).id === 'string');
}

/** The configured servers of a workspace folder plus the `toolsmith.servers` setting. */
export async function discoverConfigured(ws: WorkspaceReader, setting: unknown): Promise<DiscoveryResult> {
  const result: DiscoveryResult = { servers: [], skipped: [], problems: [] };
  const add = (r: { servers: ServerConfig[]; skipped: SkippedEntry[] }) => {
    result.servers.push(...r.servers);
    result.skipped.push(...r.skipped);
  };
  const vscodeFile = path.join(ws.root, '.vscode', 'mcp.json');
  const vscodeText = await ws.readText(vscodeFile);
  if (vscodeText !== undefined) {
    const json = parseFile(vscodeText, vscodeFile, result.problems);
    if (json) add(readServerMap(json.servers, '.vscode/mcp.json', vscodeFile, ws.root, readInputs(json.inputs)));
  }
  for (const name of ['.mcp.json', 'mcp.json'] as const) {
    const file = path.join(ws.root, name);
    const text = await ws.readText(file);
    if (text === undefined) continue;
    const json = parseFile(text, file, result.problems);
    if (json) add(readServerMap(json.mcpServers ?? json.servers, name, file, ws.root, readInputs(json.inputs)));
  }
  add(readServerMap(setting, 'setting', undefined, ws.root, []));
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Detected candidates

const TS_STDIO = /\bStdioServerTransport\b/;
const TS_CONNECT = /\.connect\s*\(/;
const PY_RUN = /\.run(?:_async)?\s*\(([^)]*)\)/g;

/** Whether a source file starts an MCP server on stdio (a fast textual test: the analysis stays in the server). */
export function detectCandidate(file: string, text: string): 'typescript' | 'python' | undefined {
  const ext = path.extname(file).toLowerCase();
  if (['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'].includes(ext)) {
    if (file.endsWith('.d.ts')) return undefined;
    return constructsServer('typescript', text) && TS_STDIO.test(text) && TS_CONNECT.test(text) ? 'typescript' : undefined;
  }
  if (ext === '.py') {
    if (!constructsServer('python', text)) return undefined;
    for (const m of text.matchAll(PY_RUN)) {
      const args = m[1];
      // run() defaults to stdio; an explicit other transport is not for the playground.
      if (!/transport\s*=/.test(args) && !/["'](sse|http|streamable-http)["']/.test(args)) return 'python';
      if (/["']stdio["']/.test(args)) return 'python';
    }
    return undefined;
  }
  return undefined;
}

const VENV_DIRS = ['.venv', 'venv', 'env', '.env'];

/** The command that runs a candidate with the workspace's own tools. */
export async function candidateCommand(ws: WorkspaceReader, sourceFile: string, language: 'typescript' | 'python'): Promise<{ command: string; args: string[] }> {
  // Look from the file's folder up to the workspace root: monorepos keep node_modules / venvs per package.
  const dirs: string[] = [];
  for (let d = path.dirname(sourceFile); ; d = path.dirname(d)) {
    dirs.push(d);
    if (path.relative(ws.root, d) === '' || path.relative(ws.root, d).startsWith('..') || d === path.dirname(d)) break;
  }
  if (language === 'python') {
    const bin = process.platform === 'win32' ? path.join('Scripts', 'python.exe') : path.join('bin', 'python');
    for (const d of dirs) {
      for (const v of VENV_DIRS) {
        const p = path.join(d, v, bin);
        if (await ws.exists(p)) return { command: p, args: [sourceFile] };
      }
    }
    return { command: process.platform === 'win32' ? 'python' : 'python3', args: [sourceFile] };
  }
  const ext = path.extname(sourceFile);
  if (['.js', '.mjs', '.cjs'].includes(ext)) return { command: 'node', args: [sourceFile] };
  for (const d of dirs) {
    const tsx = path.join(d, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');
    if (await ws.exists(tsx)) return { command: tsx, args: [sourceFile] };
  }
  // No tsx in the workspace: Node's own type stripping (Node 22.6+).
  return { command: 'node', args: ['--experimental-strip-types', sourceFile] };
}

/** Builds the configs of detected candidates; configured servers that already run the file hide its candidate. */
export async function candidateConfigs(
  ws: WorkspaceReader,
  found: { file: string; language: 'typescript' | 'python' }[],
  configured: ServerConfig[],
  confirmed: ReadonlySet<string>,
): Promise<ServerConfig[]> {
  const out: ServerConfig[] = [];
  for (const { file, language } of found) {
    const rel = path.relative(ws.root, file).split(path.sep).join('/');
    const norm = (c: ServerConfig, a: string) => {
      const withRoot = a.replace(/\$\{workspaceFolder\}/g, ws.root);
      return path.resolve(c.cwd ? path.resolve(ws.root, c.cwd.replace(/\$\{workspaceFolder\}/g, ws.root)) : ws.root, withRoot);
    };
    const covered = configured.some((c) => c.args.some((a) => norm(c, a) === file));
    if (covered) continue;
    const { command, args } = await candidateCommand(ws, file, language);
    out.push({
      id: `detected:${rel}`,
      name: rel,
      origin: 'detected',
      file,
      command,
      args,
      env: {},
      cwd: path.dirname(file),
      inputs: [],
      detected: { sourceFile: file, language, confirmed: confirmed.has(rel) },
      watchRoot: path.dirname(file),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Launch: variables, envFile

export interface ResolveContext {
  workspaceFolder: string;
  env: Record<string, string | undefined>;
  /** Asks the author for an `${input:id}` value; undefined = cancelled. */
  promptInput(input: InputDefinition): Promise<string | undefined>;
  readText(absPath: string): Promise<string | undefined>;
  /** Values already given, kept for the session so a restart does not ask again. */
  inputCache?: Map<string, string>;
}

export class LaunchCancelled extends Error {}

/** Parses a dotenv file: KEY=value, `export KEY=value`, quotes, # comments. */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)?\s*$/.exec(line);
    if (!m) continue;
    let v = (m[2] ?? '').trim();
    if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) {
      const quote = v[0];
      v = v.slice(1, -1);
      if (quote === '"') v = v.replace(/\\n/g, '\n').replace(/\\"/g, '"');
    } else {
      const hash = v.search(/\s#/);
      if (hash >= 0) v = v.slice(0, hash).trim();
    }
    out[m[1]] = v;
  }
  return out;
}

const VARIABLE = /\$\{([^}]+)\}/g;

/** Replaces ${workspaceFolder}, ${workspaceFolderBasename}, ${userHome}, ${pathSeparator}, ${env:X}, ${input:id}. */
export async function resolveVariables(value: string, config: ServerConfig, ctx: ResolveContext, secrets?: Set<string>): Promise<string> {
  const parts: string[] = [];
  let last = 0;
  for (const m of value.matchAll(VARIABLE)) {
    parts.push(value.slice(last, m.index));
    last = (m.index ?? 0) + m[0].length;
    const name = m[1];
    if (name === 'workspaceFolder' || name === 'workspaceRoot') parts.push(ctx.workspaceFolder);
    else if (name === 'workspaceFolderBasename') parts.push(path.basename(ctx.workspaceFolder));
    else if (name === 'userHome') parts.push(ctx.env.HOME ?? ctx.env.USERPROFILE ?? '');
    else if (name === 'pathSeparator' || name === '/') parts.push(path.sep);
    else if (name.startsWith('env:')) parts.push(ctx.env[name.slice(4)] ?? '');
    else if (name.startsWith('input:')) {
      const id = name.slice(6);
      const key = `${config.id}#${id}`;
      const def = config.inputs.find((i) => i.id === id) ?? { id, type: 'promptString', description: `Value for \${input:${id}}` };
      let v = ctx.inputCache?.get(key);
      if (v === undefined) {
        v = await ctx.promptInput(def);
        if (v === undefined) throw new LaunchCancelled(`No value given for \${input:${id}}: ${config.name} was not started.`);
        ctx.inputCache?.set(key, v);
      }
      if (def.password === true) secrets?.add(v);
      parts.push(v);
    } else parts.push(m[0]); // unknown variables stay visible rather than silently empty
  }
  parts.push(value.slice(last));
  return parts.join('');
}

/** The exact process to spawn for a server: variables resolved, envFile merged under env. */
export async function resolveLaunch(config: ServerConfig, ctx: ResolveContext): Promise<LaunchSpec> {
  // Password inputs are secrets wherever they land: the command, an argument, any env var.
  const secrets = new Set<string>();
  const r = (v: string) => resolveVariables(v, config, ctx, secrets);
  if (config.url) {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(config.headers ?? {})) {
      headers[k] = await r(v);
      // A header value is a credential more often than not (Authorization, X-API-Key): masked like a secret env value.
      if (headers[k].length >= 4) secrets.add(headers[k].replace(/^(Bearer|Basic|Token)\s+/i, ''));
    }
    return { command: '', args: [], url: await r(config.url), headers, transport: config.transport ?? 'http', secrets: [...secrets] };
  }
  const command = await r(config.command);
  const args: string[] = [];
  for (const a of config.args) args.push(await r(a));
  const env: Record<string, string> = {};
  if (config.envFile) {
    const envFile = path.resolve(ctx.workspaceFolder, await r(config.envFile));
    const text = await ctx.readText(envFile);
    if (text === undefined) throw new Error(`envFile ${envFile} of ${config.name} cannot be read.`);
    Object.assign(env, parseEnvFile(text));
  }
  for (const [k, v] of Object.entries(config.env)) env[k] = await r(v);
  return { command, args, env, cwd: await launchCwd(config, ctx), secrets: [...secrets] };
}

/** The working directory of a launch: its cwd resolved against the workspace folder, else the workspace folder. */
async function launchCwd(config: ServerConfig, ctx: ResolveContext): Promise<string> {
  return config.cwd ? path.resolve(ctx.workspaceFolder, await resolveVariables(config.cwd, config, ctx)) : ctx.workspaceFolder;
}

/**
 * Whether `config` runs `file`: one of its arguments, resolved as at launch and against its working directory, is
 * that file (a detected candidate runs its source file). A variable that cannot be resolved (an ${input:...} the
 * context does not give) means no match.
 */
export async function runsFile(config: ServerConfig, file: string, ctx: ResolveContext): Promise<boolean> {
  if (config.detected) return config.detected.sourceFile === file;
  try {
    const cwd = await launchCwd(config, ctx);
    for (const a of config.args) if (path.resolve(cwd, await resolveVariables(a, config, ctx)) === file) return true;
  } catch (err) {
    if (!(err instanceof LaunchCancelled)) throw err;
  }
  return false;
}

/** A one-line description of a launch for logs, with secret values masked by the caller. */
export function describeLaunch(spec: LaunchSpec): string {
  if (spec.url) {
    const names = Object.keys(spec.headers ?? {});
    return `${spec.transport === 'sse' ? 'SSE' : 'Streamable HTTP'} ${spec.url}${names.length ? ` (headers: ${names.join(', ')})` : ''}`;
  }
  const q = (s: string) => (/[\s"']/.test(s) ? JSON.stringify(s) : s);
  return [spec.command, ...spec.args].map(q).join(' ');
}

/**
 * `toolsmith` — the same analysis headless, for CI and scripts.
 *   toolsmith check [paths...] [--format stylish|json|sarif] [--fix] [--untrusted]
 *   toolsmith contract <entry file or folder> [--json] [--untrusted] [--max-file-size N]
 * Exit codes: 0 clean, 1 findings at error level, 2 usage or I/O error or a file not analysed (named on stderr).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeFile, type FileAnalysis } from './service';
import { createFileHost } from './host';
import { analyzeSource, sourceKindOf } from './analysis/analyze';
import { PRESETS, type Preset, type ToolsmithSettings } from '../../common/settings';
import type { FileFacts, FileHost, PromptDefinition, ResourceDefinition, Span, ToolDefinition, Unresolved } from './analysis/model';
import { RULES } from './rules';
import { loadSettings as loadSettingsFrom, SettingsError } from './cli/settings';
import { fileRows, finishRows, Positions, type FindingRow } from './cli/rows';
import { buildIdentity, CheckCache, recordingHost } from './cli/check-cache';
import { compareLikeLocale } from './cli/collate';
import { conditionRows, contractJson, moduleRows, promptsJson, resourcesJson, serversJson, wholeListRow } from './cli/contract-json';
import { analyzeEntry, type ServerPrediction, type EntryAnalysis } from './analysis/entry';
import { declaredEntries } from './analysis/entries';
import { constructsServer, FRAMEWORKS } from '../../common/frameworks';
import { formatStylish } from './cli/stylish';
import { formatSarif } from './cli/sarif';
import { fixUntilStable } from './cli/fix';
import { SKIPPED_DIRS } from './lsp/workspaceIndex';
import { CONTRACT_MAX_BYTES, MAX_SOURCE_BYTES, readSourceFileSync } from './sourceFile';
import { setWorkspaceTrust, workspaceTrusted } from './contract/typescript/trust';

declare const TOOLSMITH_VERSION: string | undefined;
const VERSION = typeof TOOLSMITH_VERSION === 'string' ? TOOLSMITH_VERSION : '0.1.0';

const HELP = `toolsmith ${VERSION} — lint and preview MCP tool contracts

Usage:
  toolsmith check [paths...] [--format stylish|json|sarif] [--fix] [--preset recommended|strict] [--no-cache] [--untrusted]
      Analyse TypeScript/JavaScript and Python files (directories are walked; node_modules, .venv, dist
      and hidden folders are skipped) and report findings. Default path: the current directory.
      --format, -f   stylish (default, for people), json (one object per finding), sarif (SARIF 2.1.0)
      --fix          apply every safe fix, write the files, then report what is left
      --preset recommended|strict
                     which rules run (default: the settings' "preset", else recommended; strict runs every rule but the opt-in ones)
      --max-file-size N
                     analyse files up to N MiB (default 1); larger ones are skipped, named, and exit 2
      --no-cache     analyse every file again: neither read nor write the result cache (kept per working
                     directory in the user cache directory; an entry is reused only for the same file text,
                     settings and Toolsmith build, and while every file its analysis read is unchanged)
  toolsmith contract <entry file or folder> [--json] [--untrusted] [--max-file-size N]
      Print the whole tools/list of the server(s) an entry starts, predicted from the source: the entry's module
      graph is followed as the runtime runs it (TS/JS: static, side-effect and dynamic import(), require() with
      a literal; Python: the project's absolute and relative imports, __main__.py), with every registration on
      the servers those modules construct. A folder: the entries its package.json ("bin", "main") and
      pyproject.toml ([project.scripts]) declare, and the files under it that construct a server; one contract
      per server. With --json: {"tools": [...], "unresolved": [{tool, name, part, reason, file, line, column,
      endLine, endColumn}], "converters": [{file, library, version, source, reason?}], "servers": [{name,
      variable, framework, file, line, column, endLine, endColumn, constructed, entry, tools: [indices]}]} — a
      tool listed in "unresolved" is partial (what is missing from it is not known, not absent); a row with
      "tool": null and "part": "module" is an import that could not be followed (a computed specifier, a
      module that is not there): tools it would load are not in "tools"; "converters" names the SDK and zod
      copies the contracts were converted with; "servers" says which tools each server publishes. Prompts add
      "prompts" and "promptsUnresolved" [{prompt, name, part, ...}]; resources add "resources" (resources/list),
      "resourceTemplates" (resources/templates/list) and "resourcesUnresolved" [{list, index, name, part, ...}];
      a null "prompt" or "index" is a row about entries known only at run time, any number of them. A tool
      registered under a guard has a "conditions" row [{tool, name, condition, file, line, ...}]: it is listed
      only when the guard (as written) holds.
      --max-file-size N  analyse the entry and the modules it runs up to N MiB (default 8: a published server is
                         often one bundle); a larger entry is refused, a larger module is an unresolved row
  --untrusted      TypeScript SDK 1.x: convert with Toolsmith's bundled SDK and zod, never the copies in the
                   workspace's node_modules, nor a bundle's inlined zod (by default the workspace is trusted: its
                   own installed copies are loaded, as the server would load them)

Options:
  -h, --help       show this help
  -v, --version    print the version

Exit codes: 0 no error-level findings, 1 error-level findings, 2 usage or I/O error, or a file that was found
but not analysed (not a regular file, too large, unreadable, or an internal error), named on stderr.
Settings are read from .toolsmithrc.json or the "toolsmith" key of package.json (nearest to the current directory).`;

class UsageError extends Error {}

const FORMATS = ['stylish', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

function collectFiles(target: string, out: string[], explicit: boolean): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new UsageError(`cannot read ${target}: no such file or directory`);
  }
  if (stat.isDirectory()) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(target, { withFileTypes: true });
    } catch (err) {
      throw new UsageError(`cannot read directory ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    for (const entry of entries.sort((a, b) => compareLikeLocale(a.name, b.name))) {
      const full = path.join(target, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) collectFiles(full, out, false);
      } else if (entry.isFile() && sourceKindOf(full) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  } else if (sourceKindOf(target)) {
    out.push(target);
  } else if (explicit) {
    throw new UsageError(`${target} is neither a TypeScript/JavaScript nor a Python file`);
  }
}

/** Settings nearest to `startDir` (kept as an export: tests and scripts call it). */
export function loadSettings(startDir: string): ToolsmithSettings {
  return loadSettingsFrom(startDir).settings;
}

interface Workspace {
  files: string[];
  /** Texts of the analysed files (updated in place by --fix), without their byte order mark. */
  texts: Map<string, string>;
  /** Files that began with a UTF-8 byte order mark: --fix writes it back. */
  withBom: Set<string>;
  /** Files found but not read (not a regular file, too large, unreadable), with the reason: exit 2. */
  skipped: { file: string; message: string }[];
  /** The run's file host: the texts above first, then the disk through the guarded reader. */
  host: FileHost;
  /** Analyses one file of the run; `host` (default: the run's) answers its reads, so a caller can record them. */
  analyze: (file: string, text: string, host?: FileHost) => FileAnalysis;
}

function openWorkspace(paths: string[], settings: ToolsmithSettings, maxBytes: number): Workspace {
  const found: string[] = [];
  for (const p of paths) collectFiles(path.resolve(p), found, true);
  const texts = new Map<string, string>();
  const withBom = new Set<string>();
  const skipped: Workspace['skipped'] = [];
  for (const file of new Set(found)) {
    const read = readSourceFileSync(file, maxBytes);
    if (!read.ok) {
      skipped.push({ file, message: read.reason === 'too-large' ? `${read.message} (raise it with --max-file-size)` : read.message });
      continue;
    }
    texts.set(file, read.text);
    if (read.bom) withBom.add(file);
  }
  const files = [...texts.keys()];
  // Cross-file imports read the in-memory texts first, so a fix pass sees the fixes of the previous one.
  const host = runHost(texts, maxBytes);
  const logged = new Set<string>();
  const log = (m: string) => {
    const key = m.split('\n')[0];
    if (logged.has(key)) return;
    logged.add(key);
    process.stderr.write(`toolsmith: internal error (please report): ${m}\n`);
  };
  return { files, texts, withBom, skipped, host, analyze: (file, text, through = host) => analyzeFile(file, text, through, settings, log) };
}

/**
 * The file host of one run: the in-memory texts first, then the disk, which a run reads but never changes (--fix
 * writes the texts at the end). What the front-ends look up around every file — package.json, pyproject.toml,
 * .python-version, a venv — is read once per run, not once per analysed file.
 */
function runHost(texts: Map<string, string>, maxBytes: number): FileHost {
  const disk = createFileHost(undefined, maxBytes);
  const read = new Map<string, string | undefined>();
  const exists = new Map<string, boolean>();
  const listed = new Map<string, string[] | undefined>();
  return {
    readFile(file) {
      const text = texts.get(file);
      if (text !== undefined) return text;
      if (!read.has(file)) read.set(file, disk.readFile(file));
      return read.get(file);
    },
    fileExists(file) {
      if (texts.get(file) !== undefined) return true;
      let found = exists.get(file);
      if (found === undefined) exists.set(file, (found = disk.fileExists(file)));
      return found;
    },
    listDir(dir) {
      if (!listed.has(dir)) listed.set(dir, disk.listDir?.(dir));
      return listed.get(dir);
    },
  };
}

function parsePreset(value: string | undefined): Preset {
  if (value === undefined || !(PRESETS as readonly string[]).includes(value)) throw new UsageError(`--preset needs recommended or strict${value === undefined ? '' : `, not "${value}"`}`);
  return value as Preset;
}

function runCheck(args: string[]): number {
  let format = 'stylish' as Format; // assigned through setFormat; the cast keeps TS from narrowing it to the initial literal
  let fix = false;
  let useCache = true;
  let preset: Preset | undefined;
  let maxBytes = MAX_SOURCE_BYTES;
  const paths: string[] = [];
  const setFormat = (value: string | undefined) => {
    if (value === undefined) throw new UsageError('--format needs a value (stylish, json or sarif)');
    if (!(FORMATS as readonly string[]).includes(value)) throw new UsageError(`unknown format "${value}" (stylish, json or sarif)`);
    format = value as Format;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--format' || a === '-f') setFormat(args[++i]);
    else if (a.startsWith('--format=')) setFormat(a.slice('--format='.length));
    else if (a === '--fix') fix = true;
    else if (a === '--no-cache') useCache = false;
    else if (a === '--preset' || a.startsWith('--preset=')) preset = parsePreset(a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    else if (a === '--max-file-size' || a.startsWith('--max-file-size=')) maxBytes = parseMaxFileSize(a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    else if (a === '--untrusted') setWorkspaceTrust(false);
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else paths.push(a);
  }
  if (paths.length === 0) paths.push('.');
  const cwd = process.cwd();
  let settings: ToolsmithSettings;
  try {
    settings = loadSettingsFrom(cwd).settings;
    if (preset) settings = { ...settings, preset };
  } catch (err) {
    if (err instanceof SettingsError) throw new UsageError(err.message);
    throw err;
  }
  const ws = openWorkspace(paths, settings, maxBytes);
  if (fix) {
    const originals = new Map(ws.texts);
    const outcome = fixUntilStable(ws.files, ws.texts, ws.analyze);
    for (const file of outcome.files) {
      const text = ws.texts.get(file);
      if (text === undefined || text === originals.get(file)) continue;
      try {
        fs.writeFileSync(file, ws.withBom.has(file) ? `\uFEFF${text}` : text);
      } catch (err) {
        throw new UsageError(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
    }
    if (outcome.applied) process.stderr.write(`toolsmith: applied ${outcome.applied} fix${outcome.applied === 1 ? '' : 'es'} in ${outcome.files.size} file${outcome.files.size === 1 ? '' : 's'}\n`);
    for (const o of outcome.outside)
      process.stderr.write(`toolsmith: not applied "${o.title}": it edits ${o.files.map((f) => path.relative(cwd, f)).join(', ')}, outside the checked paths (check that file too to fix it)\n`);
  }
  const { rows, analyses } = checkFiles(ws, settings, useCache ? buildIdentity(__filename, VERSION) : undefined);
  if (format === 'json') {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  } else if (format === 'sarif') {
    const rules = RULES.map((r) => ({ id: r.id, summary: r.summary, defaultSeverity: r.defaultSeverity }));
    process.stdout.write(formatSarif(rows, { cwd, version: VERSION, rules }) + '\n');
  } else {
    const color = !!process.stdout.isTTY && !process.env.NO_COLOR;
    process.stdout.write(formatStylish(rows, { cwd, color }));
    if (ws.files.length === 0 && ws.skipped.length === 0) process.stderr.write(`toolsmith: no TypeScript/JavaScript or Python files under ${paths.join(', ')}\n`);
  }
  if (reportUnanalysed(ws, analyses)) return 2;
  return rows.some((r) => r.severity === 'error') ? 1 : 0;
}

/**
 * The rows of every file of the run: from the result cache where an entry still holds (`identity` undefined: no
 * cache), else analysed (and stored). `analyses`: the files analysed in this run, for their internal errors.
 */
function checkFiles(ws: Workspace, settings: ToolsmithSettings, identity: ReturnType<typeof buildIdentity>): { rows: FindingRow[]; analyses: FileAnalysis[] } {
  const cache = identity ? CheckCache.open(process.cwd()) : undefined;
  // Trust picks the converters (the workspace's installed zod/SDK or the bundled ones): part of the key like the settings.
  const settingsJson = JSON.stringify({ settings, trusted: workspaceTrusted() });
  const analyses: FileAnalysis[] = [];
  const rows: FindingRow[] = [];
  for (const file of ws.files) {
    const text = ws.texts.get(file) as string;
    const id = identity?.(sourceKindOf(file) ?? 'python');
    const key = cache && id !== undefined ? CheckCache.keyOf(id, settingsJson, file, text) : undefined;
    const cached = key !== undefined ? cache?.lookup(file, key, ws.host) : undefined;
    if (cached) {
      rows.push(...cached);
      continue;
    }
    const recorded = recordingHost(ws.host);
    const analysis = ws.analyze(file, text, recorded.host);
    analyses.push(analysis);
    // A finding may point into a file the run did not analyse (cross-file spans): the host reads it the guarded way.
    const own = fileRows(analysis, new Positions((f) => (f === file ? text : recorded.host.readFile(f))));
    rows.push(...own);
    if (key !== undefined && analysis.internalError === undefined) cache?.store(file, key, recorded.dependencies(), own);
  }
  cache?.save();
  if (cache && process.env.TOOLSMITH_CACHE_LOG === '1') process.stderr.write(`toolsmith: cache: ${cache.hits} of ${ws.files.length} files from the cache\n`);
  return { rows: finishRows(rows), analyses };
}

/** Names on stderr every file that was found but not analysed, or whose analysis failed; true when there is one. */
function reportUnanalysed(ws: Workspace, analyses: FileAnalysis[]): boolean {
  for (const s of ws.skipped) process.stderr.write(`toolsmith: skipped ${s.file}: ${s.message}\n`);
  const failed = analyses.filter((a) => a.internalError !== undefined);
  for (const a of failed) process.stderr.write(`toolsmith: could not analyse ${a.file}: internal error (reported above; its findings are incomplete)\n`);
  return ws.skipped.length > 0 || failed.length > 0;
}

function parseMaxFileSize(value: string | undefined): number {
  const mib = value === undefined ? NaN : Number(value);
  if (!Number.isFinite(mib) || mib <= 0) throw new UsageError('--max-file-size needs a size in MiB greater than 0 (e.g. --max-file-size 4)');
  return Math.round(mib * 1024 * 1024);
}

/** One entry of a `contract` run and its whole-server analysis. */
interface EntryRun {
  file: string;
  analysis: EntryAnalysis;
}

/**
 * The entries of a folder: those its package.json / pyproject.toml declare, then every source file under it that
 * constructs a server (by its syntax tree) and is not already run by an earlier entry.
 */
function folderEntries(folder: string, ws: Workspace): { files: string[]; problems: string[] } {
  const declared = declaredEntries(ws.host, folder);
  const files = declared.entries.map((e) => e.file);
  const found: string[] = [];
  collectFiles(folder, found, false);
  for (const file of found) {
    if (files.includes(file)) continue;
    const read = readSourceFileSync(file, MAX_SOURCE_BYTES);
    const kind = sourceKindOf(file);
    if (!read.ok || !kind || !constructsServer(kind, read.text)) continue;
    let constructs = false;
    try {
      constructs = analyzeSource(file, read.text, ws.host).files.some((f) => f.file === file && f.servers.length > 0);
    } catch {
      // A file the front-end fails on is no entry found here; as an entry it would be reported.
    }
    if (constructs) files.push(file);
  }
  return { files, problems: declared.problems };
}

function runContract(argv: string[]): number {
  // The entry and the modules it runs up to 8 MiB (a published server is often one bundle); --max-file-size N.
  let maxBytes = CONTRACT_MAX_BYTES;
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--max-file-size' || a.startsWith('--max-file-size=')) maxBytes = parseMaxFileSize(a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i]);
    else args.push(a);
  }
  const json = args.includes('--json');
  if (args.includes('--untrusted')) setWorkspaceTrust(false);
  const targets = args.filter((a) => !a.startsWith('-'));
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--json' && a !== '--untrusted');
  if (unknown.length) throw new UsageError(`unknown option ${unknown[0]}`);
  if (targets.length !== 1) throw new UsageError('contract takes exactly one entry file or folder');
  const target = path.resolve(targets[0]);
  let isFolder = false;
  try {
    isFolder = fs.statSync(target).isDirectory();
  } catch {
    // A missing path is reported by the read below (file) with its reason.
  }
  if (!isFolder && !sourceKindOf(target)) throw new UsageError(`${targets[0]} is neither a TypeScript/JavaScript nor a Python file, nor a folder`);
  let settings: ToolsmithSettings;
  try {
    settings = loadSettingsFrom(isFolder ? target : path.dirname(target)).settings;
  } catch (err) {
    if (err instanceof SettingsError) throw new UsageError(err.message);
    throw err;
  }
  const ws = openWorkspace([], settings, maxBytes);
  if (!isFolder) {
    const read = readSourceFileSync(target, maxBytes);
    if (!read.ok) throw new UsageError(`cannot read ${targets[0]}: ${read.reason === 'too-large' ? `${read.message} (raise it with --max-file-size)` : read.message}`);
    ws.texts.set(target, read.text);
  }
  let entries = [target];
  let failed = false;
  if (isFolder) {
    const found = folderEntries(target, ws);
    for (const p of found.problems) process.stderr.write(`toolsmith: ${p}\n`);
    failed = found.problems.length > 0;
    entries = found.files;
    if (entries.length === 0)
      throw new UsageError(`no server entry found under ${targets[0]}: no package.json "bin"/"main", no pyproject.toml [project.scripts], and no file constructing an MCP server`);
  }
  const runs: EntryRun[] = [];
  for (const file of entries) {
    // The entry itself is read with the size cap (a module of its graph that is too large is an unresolved row).
    let text = ws.texts.get(file);
    if (text === undefined) {
      const read = readSourceFileSync(file, maxBytes);
      if (!read.ok) {
        process.stderr.write(`toolsmith: skipped ${file}: ${read.message}\n`);
        failed = true;
        continue;
      }
      text = read.text;
    }
    try {
      runs.push({ file, analysis: analyzeEntry(file, text, ws.host) });
    } catch (err) {
      if (!isFolder) throw new UsageError(`could not analyse ${targets[0]}: internal error (please report):\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.stderr.write(`toolsmith: could not analyse ${file}: internal error (please report): ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      failed = true;
    }
  }
  // One contract per server: a server reached from two entries (a factory both transports call) is printed once.
  const tools: ToolDefinition[] = [];
  const prompts: PromptDefinition[] = [];
  const resources: ResourceDefinition[] = [];
  const files: FileFacts[] = [];
  const unfollowed: Unresolved[] = [];
  const servers: { server: ServerPrediction; entry: string; offset: number }[] = [];
  const printedServers = new Set<string>();
  for (const { file, analysis } of runs) {
    const { result } = analysis;
    const offset = tools.length;
    const own = analysis.servers.filter((s) => !printedServers.has(s.id));
    const kept = new Set(own.flatMap((s) => s.tools));
    const renumber = new Map<number, number>();
    result.tools.forEach((t, i) => {
      if (!kept.has(i)) return;
      renumber.set(i, tools.length - offset);
      tools.push(t);
    });
    for (const s of own) {
      printedServers.add(s.id);
      servers.push({ server: { ...s, tools: s.tools.map((i) => renumber.get(i)!) }, entry: file, offset });
    }
    prompts.push(...(result.prompts ?? []).filter((p) => !runs.some((r) => r.file !== file && r.analysis.result.prompts?.includes(p))));
    resources.push(...(result.resources ?? []).filter((r) => !runs.some((o) => o.file !== file && o.analysis.result.resources?.includes(r))));
    files.push(...result.files.filter((f) => !files.some((g) => g.file === f.file)));
    for (const u of result.graph.unfollowed) if (!unfollowed.some((v) => v.span.file === u.span.file && v.span.start === u.span.start)) unfollowed.push(u);
  }
  const textOf = (f: string) => ws.host.readFile(f);
  if (json) {
    const contract = contractJson(tools, textOf, files);
    const out = { ...contract, unresolved: [...contract.unresolved, ...moduleRows(unfollowed, textOf)], servers: serversJson(servers, textOf) };
    const conditions = conditionRows(tools, textOf);
    const printed = {
      ...out,
      ...(conditions.length ? { conditions } : {}),
      ...(prompts.length ? promptsJson(prompts, textOf) : {}),
      ...(resources.length ? resourcesJson(resources, textOf) : {}),
    };
    process.stdout.write(JSON.stringify(printed, null, 2) + '\n');
  } else {
    const cwd = process.cwd();
    const where = (span: Span) => `${path.relative(cwd, span.file) || span.file}:${new Positions(textOf).of(span).line}`;
    // "No tools" tells a file with no server from a server whose tools are not seen (the rows below name the form).
    const unseen = unfollowed.some((u) => u.part === 'tools');
    if (tools.length === 0 && prompts.length === 0 && resources.length === 0)
      process.stdout.write(
        `${targets[0]}: no MCP tools found${servers.length ? ` (the server${servers.length === 1 ? ' is' : 's are'} constructed, no registration reaches ${servers.length === 1 ? 'it' : 'them'})` : unseen ? ' that Toolsmith can read (see below)' : ''}\n`,
      );
    // With several servers (or a folder), each server's tools under its own heading.
    const headed = servers.length > 1 || isFolder;
    for (const { server, entry } of servers) {
      if (headed || !server.constructed) {
        const label = server.name !== undefined ? JSON.stringify(server.name) : server.variable;
        const framework = server.framework ? ` (${FRAMEWORKS[server.framework].name})` : '';
        const origin = server.constructed ? `constructed at ${where(server.span)}` : `not constructed in the modules followed: tools registered on ${server.variable} (${where(server.span)})`;
        process.stdout.write(
          `\nserver ${label}${framework}: ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}, ${origin}${isFolder ? `, from ${path.relative(cwd, entry) || entry}` : ''}\n`,
        );
      }
      for (const i of server.tools) printTool(tools[i], where);
    }
    for (const p of prompts) {
      const whole = wholeListRow(p);
      if (whole) {
        process.stdout.write(`\nprompts known only at run time (any number): ${whole.reason}\n`);
        continue;
      }
      process.stdout.write(`\nprompt ${p.name.value ?? '<unresolved name>'}${p.title?.value ? `  (${p.title.value})` : ''}\n`);
      const description = p.description?.value;
      process.stdout.write(`  description: ${description === undefined ? (p.description ? '<unresolved>' : '<none>') : JSON.stringify(description)}\n`);
      for (const a of p.arguments ?? []) process.stdout.write(`  - ${a.name}${a.required ? ' (required)' : ''}${a.description ? ` — ${a.description}` : ''}\n`);
      for (const u of p.unresolved) process.stdout.write(`  unresolved ${u.part}: ${u.reason}\n`);
    }
    for (const r of resources) {
      const what = r.kind === 'resource' ? 'resource' : 'resource template';
      const whole = wholeListRow(r);
      if (whole) {
        process.stdout.write(`\n${what}s known only at run time (any number): ${whole.reason}\n`);
        continue;
      }
      process.stdout.write(`\n${what} ${r.uri.value ?? '<unresolved URI>'}  name: ${r.name.value ?? '<unresolved>'}${r.title?.value ? `  (${r.title.value})` : ''}\n`);
      const description = r.description?.value;
      process.stdout.write(`  description: ${description === undefined ? (r.description ? '<unresolved>' : '<none>') : JSON.stringify(description)}\n`);
      if (r.mimeType?.value !== undefined) process.stdout.write(`  mimeType: ${r.mimeType.value}\n`);
      for (const u of r.unresolved) process.stdout.write(`  unresolved ${u.part}: ${u.reason}\n`);
    }
    for (const u of unfollowed) process.stdout.write(`\nunresolved ${u.part === 'tools' ? 'tools' : 'module'} (${where(u.span)}): ${u.reason}\n`);
  }
  return failed ? 2 : 0;
}

function printTool(t: ToolDefinition, where: (span: Span) => string): void {
  process.stdout.write(`\n${t.name.value ?? '<unresolved name>'}${t.title?.value ? `  (${t.title.value})` : ''}\n`);
  const condition = t.registration.condition;
  if (condition) process.stdout.write(`  listed only when: ${condition.text} (${where(condition.span)})\n`);
  const description = t.description?.value;
  process.stdout.write(`  description: ${description === undefined ? (t.description ? '<unresolved>' : '<none>') : JSON.stringify(description)}\n`);
  const schema = t.contract.inputSchema as { properties?: Record<string, { type?: unknown; description?: unknown }>; required?: string[] } | undefined;
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    const req = schema?.required?.includes(name) ? ' (required)' : '';
    process.stdout.write(`  - ${name}: ${JSON.stringify(prop.type ?? 'any')}${req}${prop.description ? ` — ${String(prop.description)}` : ''}\n`);
  }
  if (t.contract.annotations) process.stdout.write(`  annotations: ${JSON.stringify(t.contract.annotations)}\n`);
  for (const u of t.unresolved) process.stdout.write(`  unresolved ${u.part}: ${u.reason}\n`);
}

export function main(argv: string[]): number {
  const [command, ...rest] = argv;
  try {
    if (!command || command === '-h' || command === '--help' || command === 'help') {
      process.stdout.write(HELP + '\n');
      return command ? 0 : 2;
    }
    if (command === '-v' || command === '--version') {
      process.stdout.write(VERSION + '\n');
      return 0;
    }
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(HELP + '\n');
      return 0;
    }
    // The command line trusts the workspace it is run in (as `npx eslint` runs its ESLint); --untrusted opts out.
    setWorkspaceTrust(true);
    if (command === 'check') return runCheck(rest);
    if (command === 'contract') return runContract(rest);
    throw new UsageError(`unknown command "${command}" (check or contract)`);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`toolsmith: ${err.message}\nRun "toolsmith --help" for usage.\n`);
      return 2;
    }
    process.stderr.write(`toolsmith: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 2;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}

/**
 * `toolsmith` — the same analysis headless, for CI and scripts.
 *   toolsmith check [paths...] [--format stylish|json|sarif] [--fix]
 *   toolsmith contract <file> [--json]
 * Exit codes: 0 clean, 1 findings at error level, 2 usage or I/O error.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { analyzeFile, type FileAnalysis } from './service';
import { createFileHost } from './host';
import { sourceKindOf } from './analysis/analyze';
import { DEFAULT_SETTINGS, normalizeSettings, type ToolsmithSettings } from '../../common/settings';
import { LineIndex } from './positions';

declare const TOOLSMITH_VERSION: string | undefined;
const VERSION = typeof TOOLSMITH_VERSION === 'string' ? TOOLSMITH_VERSION : '0.1.0';

const HELP = `toolsmith ${VERSION} — lint and preview MCP tool contracts

Usage:
  toolsmith check [paths...] [--format stylish|json|sarif] [--fix]
      Analyse TypeScript/JavaScript and Python files (directories are walked) and report findings.
  toolsmith contract <file> [--json]
      Print the tools/list contract predicted from the source ({"tools": [...]} with --json).

Options:
  -h, --help       show this help
  -v, --version    print the version

Exit codes: 0 no error-level findings, 1 error-level findings, 2 usage or I/O error.
Settings are read from .toolsmithrc.json or the "toolsmith" key of package.json (nearest to the current directory).`;

class UsageError extends Error {}

const IGNORED_DIRS = new Set(['node_modules', '.git', 'dist', 'out', '.venv', 'venv', '__pycache__', '.tox', 'build']);

function collectFiles(target: string, out: string[]): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new UsageError(`cannot read ${target}: no such file or directory`);
  }
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(target, { withFileTypes: true })) {
      if (entry.name.startsWith('.') && entry.isDirectory()) continue;
      if (entry.isDirectory() && IGNORED_DIRS.has(entry.name)) continue;
      const full = path.join(target, entry.name);
      if (entry.isDirectory()) collectFiles(full, out);
      else if (sourceKindOf(full) && !entry.name.endsWith('.d.ts')) out.push(full);
    }
  } else {
    out.push(target);
  }
}

export function loadSettings(startDir: string): ToolsmithSettings {
  let dir = path.resolve(startDir);
  for (;;) {
    const rc = path.join(dir, '.toolsmithrc.json');
    if (fs.existsSync(rc)) return normalizeSettings(JSON.parse(fs.readFileSync(rc, 'utf8')));
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      const json = JSON.parse(fs.readFileSync(pkg, 'utf8')) as { toolsmith?: unknown };
      if (json.toolsmith) return normalizeSettings(json.toolsmith);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return DEFAULT_SETTINGS;
    dir = parent;
  }
}

function analyzePaths(paths: string[], settings: ToolsmithSettings): FileAnalysis[] {
  const files: string[] = [];
  for (const p of paths) collectFiles(path.resolve(p), files);
  const host = createFileHost();
  return files.map((file) => {
    const text = host.readFile(file);
    if (text === undefined) throw new UsageError(`cannot read ${file}`);
    return analyzeFile(file, text, host, settings, (m) => process.stderr.write(m + '\n'));
  });
}

function runCheck(args: string[]): number {
  let format = 'stylish';
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--format' || a === '-f') {
      format = args[++i] ?? '';
      if (!['stylish', 'json', 'sarif'].includes(format)) throw new UsageError(`unknown format "${format}" (stylish, json or sarif)`);
    } else if (a.startsWith('--format=')) {
      format = a.slice('--format='.length);
      if (!['stylish', 'json', 'sarif'].includes(format)) throw new UsageError(`unknown format "${format}" (stylish, json or sarif)`);
    } else if (a.startsWith('-')) {
      throw new UsageError(`unknown option ${a}`);
    } else paths.push(a);
  }
  if (paths.length === 0) paths.push('.');
  const settings = loadSettings(process.cwd());
  const analyses = analyzePaths(paths, settings);
  const rows = analyses.flatMap((a) => {
    const index = new LineIndex(fs.readFileSync(a.file, 'utf8'));
    return a.findings.map((f) => {
      const s = index.position(f.span.start);
      const e = index.position(f.span.end);
      return {
        file: f.span.file,
        line: s.line + 1,
        column: s.character + 1,
        endLine: e.line + 1,
        endColumn: e.character + 1,
        ruleId: f.ruleId,
        severity: f.severity,
        message: f.message,
        tool: f.tool,
        fixes: f.fixes.map((x) => ({ title: x.title, safe: x.safe })),
      };
    });
  });
  if (format === 'json') {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  } else if (format === 'stylish') {
    const byFile = new Map<string, typeof rows>();
    for (const r of rows) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
    for (const [file, list] of byFile) {
      process.stdout.write(`\n${path.relative(process.cwd(), file) || file}\n`);
      for (const r of list) process.stdout.write(`  ${r.line}:${r.column}  ${r.severity.padEnd(7)}  ${r.message}  ${r.ruleId}\n`);
    }
    const errors = rows.filter((r) => r.severity === 'error').length;
    const warnings = rows.filter((r) => r.severity === 'warning').length;
    const infos = rows.length - errors - warnings;
    process.stdout.write(rows.length ? `\n✖ ${rows.length} problems (${errors} errors, ${warnings} warnings, ${infos} infos)\n` : '');
  } else {
    throw new UsageError('--format sarif is not available yet');
  }
  return rows.some((r) => r.severity === 'error') ? 1 : 0;
}

function runContract(args: string[]): number {
  const json = args.includes('--json');
  const files = args.filter((a) => !a.startsWith('-'));
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--json');
  if (unknown.length) throw new UsageError(`unknown option ${unknown[0]}`);
  if (files.length !== 1) throw new UsageError('contract takes exactly one file');
  const file = path.resolve(files[0]);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new UsageError(`cannot read ${files[0]}: no such file`);
  if (!sourceKindOf(file)) throw new UsageError(`${files[0]} is neither a TypeScript/JavaScript nor a Python file`);
  const [analysis] = analyzePaths([file], loadSettings(path.dirname(file)));
  const tools = analysis.result.tools;
  if (json) {
    process.stdout.write(JSON.stringify({ tools: tools.map((t) => t.contract) }, null, 2) + '\n');
  } else {
    if (tools.length === 0) process.stdout.write(`${files[0]}: no MCP tools found\n`);
    for (const t of tools) {
      process.stdout.write(`\n${t.name.value ?? '<unresolved name>'}${t.title?.value ? `  (${t.title.value})` : ''}\n`);
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
  }
  return 0;
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
    if (command === 'check') return runCheck(rest);
    if (command === 'contract') return runContract(rest);
    throw new UsageError(`unknown command "${command}" (check or contract)`);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`toolsmith: ${err.message}\nRun "toolsmith --help" for usage.\n`);
      return 2;
    }
    process.stderr.write(`toolsmith: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}

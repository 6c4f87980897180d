/**
 * Every quick fix offered on the real-world corpus, proven on the real code (issue 14): each fix toolsmith offers
 * under the strict preset (every rule) on the published packages of test/corpus/packages.json is
 *  1. re-analysed: its finding is gone and no error or warning appears that was not there;
 *  2. parsed by the runtime the package runs on (V8 for JavaScript, the package venv's CPython for Python);
 *  3. loaded at the package's pinned versions: every package with fixes is started with them applied (all fixes
 *     that do not touch each other together, the others in further rounds) and must answer tools/list, where each
 *     fix shows what its title says (a bound in the schema, the annotations, the new name...);
 *  4. for the fixes that change what a call does, a call on a live server shows the change.
 * The corpus is shared and read-only: fixed files are written to a scratch copy of each package (npm: the package
 * folder copied, its dependencies linked; PyPI: the edited top-level package copied ahead on PYTHONPATH).
 * Fixes of the v1 -> v2 TypeScript migration (ts-sdk-v1-import) import @modelcontextprotocol/server, which their
 * companion fix adds to package.json: the scratch copy links the v2 release the repository installs.
 */
import { after, before, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadCorpus, repoRoot, type CorpusPackage } from '../corpus/labelled-set';
import { applyFix, copyTree, offeredFixes, reanalyse, type OfferedFix } from '../corpus/fixes';
import { startEnv, substituteStart } from '../corpus/server-start';
import { mapLimit } from '../util/pool';
import type { Tool } from './compare';

interface StartedPackage extends CorpusPackage {
  start: { command: string; args: string[]; env?: Record<string, string> };
}
interface Location {
  dir: string;
  root: string;
  bin: string;
  python: string;
}

let corpus: { locate(p: CorpusPackage): Location };
let packages: StartedPackage[] = [];
const offered = new Map<string, OfferedFix[]>();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-fixproof-'));

before(async () => {
  const loaded = await loadCorpus();
  corpus = (await import(path.join(repoRoot, 'scripts/ensure-corpus.mjs'))) as typeof corpus;
  packages = loaded.packages as StartedPackage[];
  for (const p of packages) offered.set(keyOf(p), offeredFixes(p, loaded.rootOf(p)));
});

after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function keyOf(p: CorpusPackage): string {
  return `${p.name}@${p.version}`;
}

function all(): OfferedFix[] {
  return [...offered.values()].flat();
}

function describe(o: OfferedFix): string {
  const line = o.finding.span.file.length ? `${path.basename(o.finding.span.file)}:${o.finding.span.start}` : '';
  return `${keyOf(o.package)} [${o.kind}] "${o.fix.title}" on ${o.finding.tool ?? '(file)'} (${line})`;
}

const diskText = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined);

/**
 * What is applied as one step: a fix alone, or the migration fixes of one file together (ts-sdk-v1-import: its
 * import rewrites and the package.json entry they need, which alone removes no finding).
 */
function steps(fixes: OfferedFix[]): OfferedFix[][] {
  const out: OfferedFix[][] = [];
  const migration = new Map<string, OfferedFix[]>();
  for (const o of fixes) {
    if (o.finding.ruleId !== 'ts-sdk-v1-import') out.push([o]);
    else {
      const k = `${keyOf(o.package)}\0${o.finding.span.file}`;
      if (!migration.has(k)) out.push(migration.set(k, []).get(k)!);
      migration.get(k)!.push(o);
    }
  }
  return out;
}

test('every offered fix, re-analysed: its finding is gone, no error or warning appears, the tools stay', () => {
  const failures: string[] = [];
  const kinds = new Map<string, number>();
  for (const step of steps(all())) {
    for (const o of step) kinds.set(o.kind, (kinds.get(o.kind) ?? 0) + 1);
    const what = step.map(describe).join(' + ');
    let edited: Map<string, string>;
    try {
      // Fixes of one step edit different places (their offsets are the original's): applied one after the other
      // from the original text only when they are in different files; same-file ones are applied together.
      edited = step.length === 1 ? applyFix(step[0].fix, diskText) : applyRound(step);
    } catch (err) {
      failures.push(`${what}: ${String(err)}`);
      continue;
    }
    const r = reanalyse(step, edited);
    if (r.internalError) failures.push(`${what}: the analysis failed on the fixed text: ${r.internalError.slice(0, 300)}`);
    for (const f of r.stillReported) failures.push(`${what}: still reported after the fix: [${f.ruleId}] ${f.message.slice(0, 120)}`);
    for (const f of r.newFindings) failures.push(`${what}: the fix brings a new ${f.severity} [${f.ruleId}] ${f.message.slice(0, 160)}`);
    if (r.toolsAfter !== r.toolsBefore) failures.push(`${what}: the analysis sees ${r.toolsAfter} tools after the fix, ${r.toolsBefore} before`);
  }
  console.log(`[fix proof] ${all().length} fixes of ${kinds.size} kinds re-analysed:\n${[...kinds].map(([k, n]) => `  ${n} × ${k}`).join('\n')}`);
  assert.ok(all().length > 0, 'the corpus offers no fix at all: the analysis or the corpus is broken');
  assert.deepEqual(failures, []);
});

/** ESM or CommonJS, as Node decides for this file. */
function isModule(file: string): boolean {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module';
    if (path.dirname(dir) === dir) return false;
  }
}

// V8's own parser, as `node --check` runs it, for many files in one process: a module through vm.SourceTextModule,
// a CommonJS file through vm.compileFunction with the wrapper's parameters.
const JS_PARSER = `
const vm = require('node:vm'); const fs = require('node:fs');
const out = [];
for (const [file, esm] of JSON.parse(fs.readFileSync(process.argv[1], 'utf8'))) {
  const text = fs.readFileSync(file, 'utf8');
  try {
    if (esm) new vm.SourceTextModule(text, { identifier: file });
    else vm.compileFunction(text.replace(/^#!.*/, ''), ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  } catch (e) { out.push(file + ': ' + e.message); }
}
process.stdout.write(JSON.stringify(out));`;

const PY_PARSER = `
import json, sys
out = []
for f in json.load(open(sys.argv[1])):
    try:
        compile(open(f, encoding='utf-8').read(), f, 'exec')
    except SyntaxError as e:
        out.append(f'{f}:{e.lineno}: {e.msg}')
print(json.dumps(out))`;

test('every offered fix parses with the runtime its package runs on (V8; the package venv CPython)', () => {
  const failures: string[] = [];
  for (const pkg of packages) {
    const fixes = offered.get(keyOf(pkg)) ?? [];
    if (!fixes.length) continue;
    const dir = fs.mkdtempSync(path.join(scratch, 'parse-'));
    const files: [string, boolean][] = [];
    const origin = new Map<string, OfferedFix>();
    fixes.forEach((o, i) => {
      for (const [file, text] of applyFix(o.fix, diskText)) {
        if (!/\.(m|c)?js$|\.py$/.test(file)) continue;
        const copy = path.join(dir, `${i}-${path.basename(file)}`);
        fs.writeFileSync(copy, text);
        files.push([copy, isModule(file)]);
        origin.set(copy, o);
      }
    });
    const list = path.join(dir, 'files.json');
    const where = corpus.locate(pkg);
    const r =
      pkg.registry === 'npm'
        ? (fs.writeFileSync(list, JSON.stringify(files)), spawnSync(process.execPath, ['--experimental-vm-modules', '--no-warnings', '-e', JS_PARSER, list], { encoding: 'utf8' }))
        : (fs.writeFileSync(list, JSON.stringify(files.map(([f]) => f))), spawnSync(where.python, ['-c', PY_PARSER, list], { encoding: 'utf8' }));
    assert.equal(r.status, 0, `${keyOf(pkg)}: the parser did not run: ${r.stderr}`);
    for (const bad of JSON.parse(r.stdout) as string[]) {
      const file = bad.slice(0, bad.indexOf(':'));
      failures.push(`${describe(origin.get(file)!)}: ${bad.slice(file.length + 1)}`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(failures, []);
});

/** Rounds of fixes that can be applied together: no two edit the same text, no two are alternatives for one finding. */
function rounds(fixes: OfferedFix[]): OfferedFix[][] {
  const out: { fixes: OfferedFix[]; edits: Map<string, { start: number; end: number; text: string }[]>; findings: Set<unknown> }[] = [];
  // A tool renamed in a round is not found under its name by the round's other fixes on it: they go to another round.
  const renames = (o: OfferedFix) => /^tool-name-/.test(o.finding.ruleId) && o.fix.title.startsWith('Rename to');
  const clashes = (o: OfferedFix, x: OfferedFix) => o.finding.tool !== null && o.finding.tool === x.finding.tool && (renames(o) || renames(x));
  for (const o of fixes) {
    const fits = (r: (typeof out)[number]) =>
      !r.findings.has(o.finding) &&
      !r.fixes.some((x) => clashes(o, x)) &&
      o.fix.edits.every((e) =>
        (r.edits.get(e.span.file) ?? []).every((x) => (x.start === e.span.start && x.end === e.span.end && x.text === e.newText) || e.span.end <= x.start || x.end <= e.span.start),
      ) &&
      // Two insertions at one offset would come out in an order nobody chose.
      o.fix.edits.every((e) => (r.edits.get(e.span.file) ?? []).every((x) => x.text === e.newText || !(x.start === e.span.start && x.end === x.start && e.span.end === e.span.start)));
    let r = out.find(fits);
    if (!r) out.push((r = { fixes: [], edits: new Map(), findings: new Set() }));
    r.fixes.push(o);
    r.findings.add(o.finding);
    for (const e of o.fix.edits) r.edits.set(e.span.file, [...(r.edits.get(e.span.file) ?? []), { start: e.span.start, end: e.span.end, text: e.newText }]);
  }
  return out.map((r) => r.fixes);
}

/** Applies a round's fixes together (shared identical edits once), by file. */
function applyRound(fixes: OfferedFix[]): Map<string, string> {
  const byFile = new Map<string, Map<string, { start: number; end: number; text: string }>>();
  for (const o of fixes)
    for (const e of o.fix.edits) {
      const m = byFile.get(e.span.file) ?? new Map();
      m.set(`${e.span.start}:${e.span.end}:${e.newText}`, { start: e.span.start, end: e.span.end, text: e.newText });
      byFile.set(e.span.file, m);
    }
  const out = new Map<string, string>();
  for (const [file, edits] of byFile) {
    let text = diskText(file)!;
    for (const e of [...edits.values()].sort((a, b) => b.start - a.start || b.end - a.end)) text = text.slice(0, e.start) + e.text + text.slice(e.end);
    out.set(file, text);
  }
  return out;
}

/** A scratch copy of a package that fixed files can be written into, and how to start it. */
interface Sandbox {
  /** Where a file of the installed package lives in the copy. */
  map(file: string): string;
  restore(): void;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

function sandbox(pkg: StartedPackage): Sandbox {
  const where = corpus.locate(pkg);
  const base = fs.mkdtempSync(path.join(scratch, 'pkg-'));
  const tmp = path.join(base, 'tmp');
  fs.mkdirSync(tmp);
  const originals = new Map<string, string>();
  let root: string;
  let pythonPath: string | undefined;
  if (pkg.registry === 'npm') {
    // node_modules of the install, the package itself copied, every dependency linked.
    const nm = path.join(base, 'node_modules');
    const installed = path.join(where.dir, 'node_modules');
    const [scope, name] = pkg.name.startsWith('@') ? pkg.name.split('/') : [undefined, pkg.name];
    fs.mkdirSync(nm);
    for (const e of fs.readdirSync(installed)) {
      if (scope && e === scope) {
        fs.mkdirSync(path.join(nm, e));
        for (const m of fs.readdirSync(path.join(installed, e))) if (m !== name) fs.symlinkSync(path.join(installed, e, m), path.join(nm, e, m));
      } else if (e !== pkg.name) fs.symlinkSync(path.join(installed, e), path.join(nm, e));
    }
    root = path.join(nm, pkg.name);
    copyTree(where.root, root, (n) => n === 'node_modules');
    if (fs.existsSync(path.join(where.root, 'node_modules'))) fs.symlinkSync(path.join(where.root, 'node_modules'), path.join(root, 'node_modules'));
    // The v2 SDK the migration fixes import (their companion fix adds it to package.json).
    const v2 = path.join(nm, '@modelcontextprotocol');
    if (fs.existsSync(v2) && fs.lstatSync(v2).isSymbolicLink()) {
      // The scope was linked whole: make it a folder of links, so that the v2 links land in this copy and never in the
      // shared install (an earlier version wrote them there, pointing into the clone that ran it: skip those).
      const scopeDir = fs.realpathSync(v2);
      fs.unlinkSync(v2);
      fs.mkdirSync(v2);
      for (const m of fs.readdirSync(scopeDir)) {
        if ((m === 'server' || m === 'core') && fs.lstatSync(path.join(scopeDir, m)).isSymbolicLink()) continue;
        fs.symlinkSync(path.join(scopeDir, m), path.join(v2, m));
      }
    }
    for (const m of ['server', 'core']) {
      const from = path.join(repoRoot, 'node_modules/@modelcontextprotocol', m);
      if (fs.existsSync(v2) && !fs.existsSync(path.join(v2, m)) && fs.existsSync(from)) fs.symlinkSync(fs.realpathSync(from), path.join(v2, m));
    }
  } else {
    root = where.root;
    pythonPath = path.join(base, 'py');
    fs.mkdirSync(pythonPath);
  }
  const at = { root, bin: where.bin, python: where.python, tmp };
  const substitute = (text: string) => substituteStart(text, at);
  const env = startEnv(at, pkg.start.env, pythonPath ? { PYTHONPATH: pythonPath } : {});
  const map = (file: string): string => {
    const rel = path.relative(where.root, file);
    if (!pythonPath) return path.join(root, rel);
    // The top-level package of the file, copied once ahead of site-packages.
    const top = rel.split(path.sep)[0];
    if (!fs.existsSync(path.join(pythonPath, top))) copyTree(path.join(where.root, top), path.join(pythonPath, top), (n) => n === '__pycache__');
    return path.join(pythonPath, rel);
  };
  return {
    map(file) {
      const to = map(file);
      if (!originals.has(to)) originals.set(to, fs.readFileSync(to, 'utf8'));
      return to;
    },
    restore() {
      for (const [f, text] of originals) fs.writeFileSync(f, text);
    },
    command: substitute(pkg.start.command),
    args: pkg.start.args.map(substitute),
    env,
    cwd: tmp,
  };
}

const FILE_LEVEL = new Set(['ts-sdk-v1-import', 'mcp-v1-import']);

/** Starts the sandboxed server, runs `fn` with a connected client, closes it. */
async function withServer<T>(box: Sandbox, fn: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: box.command, args: box.args, cwd: box.cwd, env: box.env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  // Every client capability declared: servers list some tools only to clients that can sample, elicit or give roots.
  const client = new Client({ name: 'toolsmith-fix-proof', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {}, roots: {} } });
  try {
    await client.connect(transport);
    return await fn(client);
  } catch (err) {
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${stderr.slice(-1500)}`, { cause: err });
  } finally {
    await client.close().catch(() => {});
  }
}

const listTools = async (c: Client): Promise<Tool[]> => (await c.listTools()).tools;

type Props = Record<string, Record<string, unknown>>;
const propsOf = (t: Tool | undefined): Props => (t?.inputSchema as { properties?: Props } | undefined)?.properties ?? {};
const paramOf = (o: OfferedFix): string | undefined =>
  /^Parameter "([^"]+)"/.exec(o.finding.message)?.[1] ?? /^The description of "([^"]+)"/.exec(o.finding.message)?.[1] ?? /^`([^`:]+)(?::[^`]*)?`/.exec(o.finding.message)?.[1];

/** A JSON Schema property as the SDKs publish an optional one too (`anyOf: [{...}, {type: null}]`). */
function branches(p: Record<string, unknown> | undefined): Record<string, unknown>[] {
  if (!p) return [];
  const any = (p.anyOf ?? p.oneOf) as Record<string, unknown>[] | undefined;
  return [p, ...(any ?? [])];
}

/**
 * What the fix's title promises, checked on the tool it was offered on in the live tools/list (before: the same
 * server unfixed). Undefined when it shows; else what is wrong.
 */
function promised(o: OfferedFix, before: Tool[], afterList: Tool[]): string | undefined {
  const name = o.finding.tool;
  const was = before.find((t) => t.name === name);
  const now = afterList.find((t) => t.name === name);
  const rule = o.finding.ruleId;
  const title = o.fix.title;
  if (/^(tool-name-|param-private-name)/.test(rule) && title.startsWith('Rename to')) {
    const to = /"([^"]+)"/.exec(title)![1];
    return afterList.some((t) => t.name === to) && !now ? undefined : `no tool "${to}" replaces "${name}" in tools/list`;
  }
  if (rule === 'ts-sdk-v1-import' || rule === 'mcp-v1-import' || rule === 'deprecated-server-tool' || rule === 'sync-io-in-handler' || rule === 'error-returned-as-success')
    return afterList.length === before.length ? undefined : `tools/list has ${afterList.length} tools, ${before.length} before`;
  if (!now) return `the tool "${name}" is no longer listed`;
  if (rule === 'annotations-missing') {
    const hints = [...title.matchAll(/(\w+Hint): (true|false)/g)];
    const a = (now.annotations ?? {}) as Record<string, unknown>;
    const bad = hints.filter(([, k, v]) => a[k] !== (v === 'true'));
    return bad.length ? `annotations are ${JSON.stringify(a)}, the title says ${hints.map((h) => h[0]).join(', ')}` : undefined;
  }
  if (rule === 'description-no-return-info' || rule === 'description-no-usage-guidance') {
    const d0 = String(was?.description ?? '');
    const d1 = String(now.description ?? '');
    const word = rule === 'description-no-return-info' ? /\bReturns\b/ : /\bUse (this )?when\b|\bUse it when\b/;
    return d1.length > d0.length && word.test(d1) && d1.includes(d0.trim().slice(0, 40)) ? undefined : `the description did not get the sentence: ${JSON.stringify(d1.slice(-200))}`;
  }
  if (rule === 'context-param-mistyped') {
    const p = /^Annotate (\w+)/.exec(title)![1];
    const req = (now.inputSchema as { required?: string[] }).required ?? [];
    return p in propsOf(now) || req.includes(p) ? `"${p}" is still an input of ${name}` : undefined;
  }
  if (rule === 'docstring-args-not-in-schema') {
    const described = (t: Tool | undefined) => Object.values(propsOf(t)).filter((p) => typeof p.description === 'string' && p.description).length;
    return described(now) > described(was) ? undefined : `no parameter of ${name} gained a description`;
  }
  const p = paramOf(o);
  if (!p) return `cannot tell which parameter the finding is about: ${o.finding.message.slice(0, 80)}`;
  const prop = propsOf(now)[p];
  if (!prop) return `the parameter "${p}" is not in the schema of ${name} any more`;
  const b = branches(prop);
  const has = (k: string, v?: unknown) => b.some((x) => k in x && (v === undefined || x[k] === v));
  if (rule === 'param-description-missing') return 'description' in prop ? undefined : `"${p}" has no description key`;
  if (rule === 'param-number-should-be-integer') return has('type', 'integer') ? undefined : `"${p}" is ${JSON.stringify(prop)}`;
  if (rule === 'param-unbounded-string') {
    const n = Number(/(\d+)/.exec(title)![1]);
    return has('maxLength', n) ? undefined : `"${p}" is ${JSON.stringify(prop)}, not maxLength ${n}`;
  }
  if (rule === 'param-unbounded-number' || rule === 'param-range-not-in-schema') {
    const lo = /(?:ge=|\.min\()(-?\d+)/.exec(title)?.[1];
    const hi = /(?:le=|\.max\()(-?\d+)/.exec(title)?.[1];
    const ok = (lo === undefined || has('minimum', Number(lo))) && (hi === undefined || has('maximum', Number(hi)));
    return ok ? undefined : `"${p}" is ${JSON.stringify(prop)}, the title says ${title}`;
  }
  if (rule === 'param-format-hint-missing') return has('format') ? undefined : `"${p}" has no format: ${JSON.stringify(prop)}`;
  if (rule === 'param-enum-in-description') return has('enum') || has('const') ? undefined : `"${p}" has no enum: ${JSON.stringify(prop)}`;
  return `no check written for ${o.kind}: say what its title promises in promised()`;
}

test('every package with fixes starts with them applied at its pinned versions, and tools/list shows each fix', { timeout: 600_000 }, async () => {
  const failures: string[] = [];
  const started = Date.now();
  let starts = 0;
  const shown = new Map<string, number>();
  const withFixes = packages.filter((p) => (offered.get(keyOf(p)) ?? []).length > 0);
  await mapLimit(withFixes, 2, async (pkg) => {
    const box = sandbox(pkg);
    let before: Tool[];
    try {
      before = await withServer(box, listTools);
      starts++;
    } catch (err) {
      failures.push(`${keyOf(pkg)}: the unfixed copy does not start: ${String(err)}`);
      return;
    }
    for (const round of rounds(offered.get(keyOf(pkg))!)) {
      for (const [file, text] of applyRound(round)) fs.writeFileSync(box.map(file), text);
      try {
        const now = await withServer(box, listTools);
        starts++;
        for (const o of round) {
          // A tool the server lists only for a client with capabilities this one lacks (server-everything's
          // sampling and elicitation tools) cannot show its fix here; another instance of the kind must.
          // A tool whose name the analysis could not resolve (tool null on a per-tool rule) cannot be found either.
          if (o.finding.tool === null ? !FILE_LEVEL.has(o.finding.ruleId) : !before.some((t) => t.name === o.finding.tool)) continue;
          const wrong = promised(o, before, now);
          if (wrong) failures.push(`${describe(o)}: ${wrong}`);
          else shown.set(o.kind, (shown.get(o.kind) ?? 0) + 1);
        }
      } catch (err) {
        const kinds = [...new Set(round.map((o) => o.kind))];
        failures.push(`${keyOf(pkg)}: does not start or list its tools with ${round.length} fixes applied (${kinds.join('; ')}): ${String(err).slice(0, 1500)}`);
      } finally {
        box.restore();
      }
    }
  });
  const kinds = new Set(all().map((o) => o.kind));
  for (const k of kinds) if (!shown.has(k) && !failures.some((f) => f.includes(k))) failures.push(`no instance of [${k}] could be checked on a live server`);
  console.log(`[fix proof] shown live: ${[...shown].map(([k, n]) => `${n} × ${k}`).join('; ')}`);
  console.log(`[fix proof] ${starts} live starts over ${withFixes.length} packages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.deepEqual(failures, []);
});

type CallResult = { isError?: boolean; content?: { type: string; text?: string }[] };
const textOf = (r: CallResult) => (r.content ?? []).map((c) => c.text ?? '').join('\n');

/** Arguments that satisfy the schema's required properties with the smallest values, then `over` on top. */
function argumentsFor(tool: Tool, over: Record<string, unknown>): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Props; required?: string[] };
  const out: Record<string, unknown> = {};
  for (const k of schema.required ?? []) {
    const t = branches(schema.properties?.[k])
      .map((b) => b.type)
      .find((x) => typeof x === 'string');
    out[k] = t === 'integer' || t === 'number' ? 1 : t === 'boolean' ? false : t === 'array' ? [] : t === 'object' ? {} : 'x';
  }
  return { ...out, ...over };
}

async function call(box: Sandbox, name: string, args: (tools: Tool[]) => Record<string, unknown>): Promise<CallResult> {
  return withServer(box, async (c) => {
    const tools = await listTools(c);
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `${name} is not listed`);
    try {
      return (await c.callTool({ name, arguments: args(tools) })) as CallResult;
    } catch (err) {
      // Input validation of some SDKs answers with a JSON-RPC error instead of an error result.
      return { isError: true, content: [{ type: 'text', text: String(err) }] };
    }
  });
}

interface BehaviourCase {
  package: string;
  version: string;
  /** The fix kind whose every instance in the package is applied. */
  kind: string;
  /** Which instance the call exercises. */
  pick(o: OfferedFix): boolean;
  args(o: OfferedFix, tool: Tool): Record<string, unknown>;
  /** Undefined when the change is what the title says. */
  check(before: CallResult, after: CallResult, o: OfferedFix): string | undefined;
}

const bound = (title: string, which: 'hi' | 'len') => Number((which === 'len' ? /max_length=(\d+)|\.max\((\d+)\)/ : /le=(-?\d+)|\.max\((-?\d+)\)/).exec(title)!.slice(1).find(Boolean));
const rejected = (r: CallResult, word: RegExp) => r.isError === true && word.test(textOf(r));

const BEHAVIOUR: BehaviourCase[] = [
  {
    // Returned "Error: ..." text becomes an error result the client and the model can tell from a success.
    package: 'excel-mcp-server',
    version: '0.1.5',
    kind: 'error-returned-as-success: Raise ToolError instead of returning the error',
    pick: (o) => o.finding.tool === 'get_workbook_metadata',
    // Absolute: in stdio mode the server wants one (a relative name is rejected before the handler's try).
    args: () => ({ filepath: '/nonexistent/missing.xlsx' }),
    check: (b, a) =>
      !b.isError &&
      /^Error: /.test(textOf(b)) &&
      a.isError === true &&
      textOf(a).includes(
        textOf(b)
          .replace(/^Error: /, '')
          .slice(0, 30),
      )
        ? undefined
        : `before ${JSON.stringify(b)}, after ${JSON.stringify(a)}`,
  },
  {
    package: 'excel-mcp-server',
    version: '0.1.5',
    kind: 'param-unbounded-string: Add Field(max_length=N)',
    pick: (o) => o.finding.tool === 'delete_worksheet',
    args: (o, t) => argumentsFor(t, { filepath: '/nonexistent/missing.xlsx', [paramOf(o)!]: 'a'.repeat(bound(o.fix.title, 'len') + 1) }),
    check: (b, a) =>
      !rejected(b, /at most \d+ characters|string_too_long/i) && rejected(a, /at most \d+ characters|string_too_long/i)
        ? undefined
        : `before ${textOf(b).slice(0, 200)}, after ${textOf(a).slice(0, 200)}`,
  },
  {
    package: 'awslabs.iam-mcp-server',
    version: '1.1.2',
    kind: 'param-unbounded-number: Add Field(ge=N, le=N)',
    pick: () => true,
    args: (o, t) => argumentsFor(t, { [paramOf(o)!]: bound(o.fix.title, 'hi') + 1 }),
    check: (b, a) => (!rejected(b, /less than or equal/i) && rejected(a, /less than or equal/i) ? undefined : `before ${textOf(b).slice(0, 200)}, after ${textOf(a).slice(0, 200)}`),
  },
  {
    // The SDK no longer asks for ctx: a call without it passes validation.
    package: 'awslabs.iam-mcp-server',
    version: '1.1.2',
    kind: 'context-param-mistyped: Annotate <ctx> as Context',
    pick: (o) => o.finding.tool === 'list_users',
    args: () => ({}),
    check: (b, a) =>
      rejected(b, /ctx/) && !/\bctx\b[\s\S]*(missing|required)|Field required[\s\S]*ctx/i.test(textOf(a)) ? undefined : `before ${textOf(b).slice(0, 200)}, after ${textOf(a).slice(0, 200)}`,
  },
  {
    package: 'mcp-server-code-runner',
    version: '0.1.8',
    kind: 'deprecated-server-tool: Rewrite as registerTool(name, { description, inputSchema, annotations }, handler)',
    pick: () => true,
    args: () => ({ code: 'console.log(6 * 7)', languageId: 'javascript' }),
    check: (b, a) => (/42/.test(textOf(b)) && JSON.stringify(a) === JSON.stringify(b) ? undefined : `before ${JSON.stringify(b)}, after ${JSON.stringify(a)}`),
  },
  {
    package: '@modelcontextprotocol/server-everything',
    version: '2026.8.31',
    kind: 'param-number-should-be-integer: Add .int()',
    pick: () => true,
    args: (o, t) => argumentsFor(t, { [paramOf(o)!]: 2.5 }),
    check: (b, a) => (!rejected(b, /integer|int/i) && rejected(a, /integer|int/i) ? undefined : `before ${textOf(b).slice(0, 200)}, after ${textOf(a).slice(0, 200)}`),
  },
];

test('fixes that change what a call does: one call on a live server before and after shows the change the title names', { timeout: 300_000 }, async () => {
  const failures: string[] = [];
  await mapLimit(BEHAVIOUR, 2, async (c) => {
    const pkg = packages.find((p) => p.name === c.package && p.version === c.version);
    assert.ok(pkg, `${c.package}@${c.version} is not in the corpus`);
    const fixes = (offered.get(keyOf(pkg)) ?? []).filter((o) => o.kind === c.kind);
    const o = fixes.find((x) => c.pick(x));
    if (!o) {
      failures.push(`${c.package}@${c.version}: no [${c.kind}] fix is offered on the tool the call needs (offered on: ${fixes.map((x) => x.finding.tool).join(', ') || 'nothing'})`);
      return;
    }
    const box = sandbox(pkg);
    const name = o.finding.tool!;
    const args = (tools: Tool[]) =>
      c.args(
        o,
        tools.find((t) => t.name === name)!,
      );
    try {
      const before = await call(box, name, args);
      // The fixes of the kind that go together with this one (a round edits the original text once).
      for (const [file, text] of applyRound(rounds(fixes).find((r) => r.includes(o))!)) fs.writeFileSync(box.map(file), text);
      const after = await call(box, name, args);
      const wrong = c.check(before, after, o);
      if (wrong) failures.push(`${describe(o)}: ${wrong}`);
    } catch (err) {
      failures.push(`${describe(o)}: ${String(err).slice(0, 800)}`);
    } finally {
      box.restore();
    }
  });
  assert.deepEqual(failures, []);
});

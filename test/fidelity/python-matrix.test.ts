/**
 * The Python version matrix (issue 13): the fidelity fixtures run live on every framework version public servers
 * pin — mcp 1.x (the removed `mcp.server.fastmcp` import, test/fixtures/py/fidelity-mcp1/v1_*.py), mcp 2.x
 * (`MCPServer`, fidelity/sdk_*.py) and standalone fastmcp 2.x/3.x/4.x (fidelity/fast_*.py) — each installed from
 * PyPI into its own cached venv (test/python-matrix/*.txt, scripts/ensure-venv.mjs's ensureVenvAt), and compared with
 * what `toolsmith contract --json` predicts for a workspace pinning that version (a copy of the fixture folder with a
 * requirements.txt naming it). Every live tool is exact, unresolved (the JSON has an `unresolved` row for it) or
 * wrong (different, nothing said): wrong must be 0 at every version, and a version the framework table calls
 * verified must be all exact. The same run reads prompts/list, resources/list and resources/templates/list of every
 * fixture and compares them with the `prompts` / `resources` / `resourceTemplates` fields (classifySurfaces: the
 * `*_surfaces*` fixtures exercise them; 0 wrong at every release too).
 *
 * Speed: one Python process per version runs all its fixtures (./py_list_tools.py: each fixture's own run() over
 * the framework's stdio transport, stdin/stdout swapped for pipes), so the framework is imported once per version.
 * One fixture per version is also started the ordinary way (its own process, the TS SDK's Client) and must list
 * the same tools: the guard that the runner sees what a client sees.
 */
import { after, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LATEST_PROTOCOL_VERSION, ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { analyzeSource } from '../../server/src/analysis/analyze';
import { createFileHost } from '../../server/src/host';
import { contractJson, promptsJson, resourcesJson } from '../../server/src/cli/contract-json';
import { FRAMEWORKS, type Framework } from '../../common/frameworks';
import { liveTools, root, sameTool, type Tool } from './compare';

interface MatrixEntry {
  /** The PyPI package whose version is under test (the framework's versionPackage). */
  pkg: 'mcp' | 'fastmcp';
  version: string;
  framework: Framework;
  /** Pinned requirements, relative to the repository. */
  requirements: string;
  /** The venv under .cache (shared with other runs: never deleted here). */
  venv: string;
  /** Fixture folders (copied into one workspace) and the servers of each that run on this framework. */
  sources: { dir: string; pattern: RegExp }[];
  /** What the copied workspace pins (requirements.txt lines). */
  pins: string[];
}

// fidelity-matrix/ holds the constructs whose contract changed across releases (and the ones that fail a server there).
const MATRIX_FIXTURES = 'test/fixtures/py/fidelity-matrix';
const V1 = {
  sources: [
    { dir: 'test/fixtures/py/fidelity-mcp1', pattern: /^v1_.*\.py$/ },
    { dir: MATRIX_FIXTURES, pattern: /^v1_.*\.py$/ },
  ],
  framework: 'mcp-v1' as const,
};
const V2 = {
  sources: [
    { dir: 'test/fixtures/py/fidelity', pattern: /^sdk_.*\.py$/ },
    { dir: MATRIX_FIXTURES, pattern: /^sdk_.*\.py$/ },
  ],
  framework: 'mcp' as const,
};
const FAST = {
  sources: [
    { dir: 'test/fixtures/py/fidelity', pattern: /^fast_.*\.py$/ },
    { dir: MATRIX_FIXTURES, pattern: /^fast_.*\.py$/ },
  ],
  framework: 'fastmcp' as const,
};

const matrixVenv = (id: string) => ({ requirements: `test/python-matrix/${id}.txt`, venv: `.cache/venv-matrix/${id}` });

const MATRIX: MatrixEntry[] = [
  ...['1.8.1', '1.10.1', '1.23.3', '1.26.0'].map((v) => ({ pkg: 'mcp' as const, version: v, ...V1, ...matrixVenv(`mcp-${v}`), pins: [`mcp==${v}`] })),
  { pkg: 'mcp', version: '1.30.0', ...V1, requirements: 'test/python-requirements-mcp1.txt', venv: '.cache/venv-mcp1', pins: ['mcp==1.30.0'] },
  ...['2.0.1', '2.1.1', '2.2.0'].map((v) => ({ pkg: 'mcp' as const, version: v, ...V2, ...matrixVenv(`mcp-${v}`), pins: [`mcp==${v}`] })),
  { pkg: 'mcp', version: '2.3.0', ...V2, requirements: 'test/python-requirements.txt', venv: '.cache/venv', pins: ['mcp==2.3.0'] },
  // Older 2.x releases real servers pin (axians-mcp: 2.3.5; mcp-neo4j-cypher: 2.13.3, whose mcp<1.23 resolves to 1.22.0).
  { pkg: 'fastmcp', version: '2.3.5', ...FAST, ...matrixVenv('fastmcp-2.3.5'), pins: ['fastmcp==2.3.5', 'mcp==1.30.0'] },
  { pkg: 'fastmcp', version: '2.13.3', ...FAST, ...matrixVenv('fastmcp-2.13.3'), pins: ['fastmcp==2.13.3', 'mcp==1.22.0'] },
  ...['2.14.7', '3.4.11'].map((v) => ({ pkg: 'fastmcp' as const, version: v, ...FAST, ...matrixVenv(`fastmcp-${v}`), pins: [`fastmcp==${v}`, 'mcp==1.30.0'] })),
  { pkg: 'fastmcp', version: '4.2.3', ...FAST, requirements: 'test/python-requirements.txt', venv: '.cache/venv', pins: ['fastmcp==4.2.3', 'mcp==2.3.0'] },
];

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-py-matrix-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', FASTMCP_SHOW_SERVER_BANNER: 'false', FASTMCP_LOG_LEVEL: 'WARNING' } as Record<string, string>;

type EnsureVenvAt = (dir: string, requirementsFile: string) => string;
let ensureVenvAt: EnsureVenvAt | undefined;
async function venvPython(entry: MatrixEntry): Promise<{ python: string; installMs: number }> {
  ensureVenvAt ??= ((await import(path.join(root, 'scripts/ensure-venv.mjs'))) as { ensureVenvAt: EnsureVenvAt }).ensureVenvAt;
  const start = Date.now();
  const python = ensureVenvAt(path.join(root, entry.venv), path.join(root, entry.requirements));
  return { python, installMs: Date.now() - start };
}

/** A list beside tools/list: the entries, or the server's error (`Method not found`: the server has no such list). */
type ListAnswer = unknown[] | { error: string } | undefined;
interface LiveAnswer {
  tools?: unknown[];
  error?: string;
  prompts?: ListAnswer;
  resources?: ListAnswer;
  resourceTemplates?: ListAnswer;
}

/** Runs ./py_list_tools.py: file -> the raw tools/list result (with the other lists beside `tools`) or {error}. */
function runAll(python: string, files: string[]): Promise<Record<string, LiveAnswer>> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [path.join(__dirname, 'py_list_tools.py'), LATEST_PROTOCOL_VERSION, ...files], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`py_list_tools.py exited ${code}:\n${err.slice(-4000)}`));
      else resolve(JSON.parse(out) as Record<string, LiveAnswer>);
    });
  });
}

interface Figures {
  exact: number;
  unresolved: number;
  wrong: number;
  /** Servers that fail at this version before listing tools (each predicted tool must then be unresolved). */
  failing: number;
}

interface VersionResult {
  figures: Figures;
  /** One line per wrong tool, with both sides. */
  wrong: string[];
  /** Tools unresolved only because of the version caveat (`contract` part) while otherwise exact. */
  caveatOnly: number;
}

/** The CLI's pipeline per file (analyzeSource + contractJson): tools and the unresolved parts of each, by name. */
function predict(file: string): { tools: Tool[]; unresolved: Map<string, string[]> } {
  const host = createFileHost();
  const printed = contractJson(analyzeSource(file, fs.readFileSync(file, 'utf8'), host).tools, (f) => host.readFile(f));
  const unresolved = new Map<string, string[]>();
  for (const u of printed.unresolved) unresolved.set(String(u.name), [...(unresolved.get(String(u.name)) ?? []), `${u.part}: ${u.reason}`]);
  return { tools: JSON.parse(JSON.stringify(printed.tools)) as Tool[], unresolved };
}

function classify(entry: MatrixEntry, files: string[], live: Record<string, LiveAnswer>): VersionResult {
  const r: VersionResult = { figures: { exact: 0, unresolved: 0, wrong: 0, failing: 0 }, wrong: [], caveatOnly: 0 };
  for (const file of files) {
    const rel = path.basename(file);
    let got = live[file];
    const predicted = predict(file);
    // What the TS SDK's Client does with the answer: a result it refuses fails the whole list, as in the playground.
    const parsed = got?.tools ? ListToolsResultSchema.safeParse({ tools: got.tools }) : undefined;
    if (parsed && !parsed.success) got = { error: `the TypeScript SDK's client refuses the tools/list result: ${parsed.error.message.slice(0, 200)}` };
    if (!got || got.error !== undefined) {
      // The server fails at this version: every tool the prediction lists must say unresolved (with the reason).
      r.figures.failing++;
      if (process.env.PY_MATRIX_DIFF) fs.appendFileSync(process.env.PY_MATRIX_DIFF, JSON.stringify({ version: `${entry.pkg} ${entry.version}`, file: rel, error: got?.error ?? 'no answer' }) + '\n');
      for (const t of predicted.tools) {
        // A tool whose name is unresolved has no name in the JSON; its rows carry `name: null`.
        if (predicted.unresolved.has(String(t.name ?? null))) r.figures.unresolved++;
        else {
          r.figures.wrong++;
          r.wrong.push(`${rel} ${String(t.name)}: the server fails at ${entry.pkg} ${entry.version} (${got?.error ?? 'no answer'}) but the prediction says nothing`);
        }
      }
      continue;
    }
    const tools = (parsed?.success ? parsed.data.tools : []) as Tool[];
    for (const tool of tools) {
      const mine = predicted.tools.find((t) => t.name === tool.name);
      const marks = predicted.unresolved.get(String(tool.name));
      if (mine && sameTool(mine, tool)) {
        if (marks?.some((m) => m.startsWith('contract:'))) r.caveatOnly++;
        r.figures.exact++;
      } else if (marks?.length || (!mine && predicted.unresolved.has('null'))) {
        r.figures.unresolved++;
        // PY_MATRIX_DIFF=<file>: every unresolved difference as a JSON line (while modelling a version).
        if (process.env.PY_MATRIX_DIFF)
          fs.appendFileSync(process.env.PY_MATRIX_DIFF, JSON.stringify({ version: `${entry.pkg} ${entry.version}`, file: rel, marks, live: tool, predicted: mine ?? null }) + '\n');
      } else {
        r.figures.wrong++;
        r.wrong.push(`${rel} ${String(tool.name)}\n  live:      ${JSON.stringify(tool)}\n  predicted: ${mine ? JSON.stringify(mine) : 'missing'}`);
      }
    }
  }
  return r;
}

/** The lists beside tools/list, the key that names an entry in each, and where the prediction's rows point. */
const SURFACE_LISTS = [
  { list: 'prompts', key: 'name' },
  { list: 'resources', key: 'uri' },
  { list: 'resourceTemplates', key: 'uriTemplate' },
] as const;

/** The CLI's prompts and resources fields per file (promptsJson / resourcesJson), with each entry's unresolved rows. */
function predictSurfaces(file: string): Record<(typeof SURFACE_LISTS)[number]['list'], { entry: Tool; marks: string[] }[]> {
  const host = createFileHost();
  const result = analyzeSource(file, fs.readFileSync(file, 'utf8'), host);
  const textOf = (f: string) => host.readFile(f);
  const prompts = promptsJson(result.prompts ?? [], textOf);
  const resources = resourcesJson(result.resources ?? [], textOf);
  const rows = <R extends { part: string; reason: string }>(list: R[]) => list.map((u) => `${u.part}: ${u.reason}`);
  return {
    prompts: prompts.prompts.map((p, i) => ({ entry: p, marks: rows(prompts.promptsUnresolved.filter((u) => u.prompt === i)) })),
    resources: resources.resources.map((r, i) => ({ entry: r, marks: rows(resources.resourcesUnresolved.filter((u) => u.list === 'resources' && u.index === i)) })),
    resourceTemplates: resources.resourceTemplates.map((r, i) => ({ entry: r, marks: rows(resources.resourcesUnresolved.filter((u) => u.list === 'resourceTemplates' && u.index === i)) })),
  };
}

/**
 * prompts/list, resources/list and resources/templates/list of every fixture against the prediction, classified as
 * tools are: a live entry is exact (deep-equal, and in the predicted order), unresolved (the prediction has a row for
 * it) or wrong; a predicted entry the server does not list, with nothing said, is wrong too (a made-up entry); a
 * server failing at this version must see every predicted entry unresolved.
 */
function classifySurfaces(entry: MatrixEntry, files: string[], live: Record<string, LiveAnswer>): { figures: Figures; wrong: string[] } {
  const figures: Figures = { exact: 0, unresolved: 0, wrong: 0, failing: 0 };
  const wrong: string[] = [];
  for (const file of files) {
    const rel = path.basename(file);
    const predicted = predictSurfaces(file);
    const got = live[file];
    for (const { list, key } of SURFACE_LISTS) {
      const mine = predicted[list];
      const answer = got?.error === undefined ? got?.[list] : { error: got.error };
      if (answer && !Array.isArray(answer) && !/Method not found/.test(answer.error)) {
        // The server failed (at import, or this list failed): every predicted entry must say so.
        for (const m of mine) {
          if (m.marks.length) figures.unresolved++;
          else {
            figures.wrong++;
            wrong.push(`${rel} ${list} ${String(m.entry[key])}: the server fails at ${entry.pkg} ${entry.version} (${answer.error.slice(0, 200)}) but the prediction says nothing`);
          }
        }
        continue;
      }
      const listed = (Array.isArray(answer) ? answer : []) as Tool[];
      const order: string[] = [];
      for (const l of listed) {
        const m = mine.find((x) => x.entry[key] === l[key]);
        if (m && sameTool(m.entry, l)) {
          figures.exact++;
          order.push(String(l[key]));
        } else if (m?.marks.length || (!m && mine.some((x) => x.entry[key] === undefined && x.marks.length))) {
          figures.unresolved++;
          if (process.env.PY_MATRIX_DIFF)
            fs.appendFileSync(process.env.PY_MATRIX_DIFF, JSON.stringify({ version: `${entry.pkg} ${entry.version}`, file: rel, list, marks: m?.marks, live: l, predicted: m?.entry ?? null }) + '\n');
        } else {
          figures.wrong++;
          wrong.push(`${rel} ${list} ${String(l[key])}\n  live:      ${JSON.stringify(l)}\n  predicted: ${m ? JSON.stringify(m.entry) : 'missing'}`);
        }
      }
      for (const m of mine) {
        if (!listed.some((l) => l[key] === m.entry[key]) && !m.marks.length) {
          figures.wrong++;
          wrong.push(`${rel} ${list} ${String(m.entry[key])}: predicted, not listed live, and nothing said`);
        }
      }
      const predictedOrder = mine.map((m) => String(m.entry[key])).filter((k) => order.includes(k));
      if (predictedOrder.join('\n') !== order.join('\n')) wrong.push(`${rel} ${list}: listed in the order ${order.join(', ')}, predicted ${predictedOrder.join(', ')}`);
    }
  }
  return { figures, wrong };
}

const report: string[] = [];
after(() => console.log(`python matrix:\n${report.join('\n')}`));

// PY_MATRIX=mcp-1.8.1,fastmcp-2.14.7 runs only those versions (while modelling one).
const only = process.env.PY_MATRIX?.split(',').filter(Boolean) ?? [];
// Two releases at a time: each is one single-threaded Python process, and the machine has two cores.
describe('Python version matrix', { concurrency: 2 }, () => {
  for (const entry of MATRIX.filter((e) => only.length === 0 || only.includes(`${e.pkg}-${e.version}`))) {
    it(`${entry.pkg} ${entry.version}: live tools/list of every fixture equals the prediction for a workspace pinning it`, { timeout: 900_000 }, async () => {
      const { python, installMs } = await venvPython(entry);
      const installed = await new Promise<string>((resolve) => {
        const c = spawn(python, ['-c', `import importlib.metadata as m; print(m.version(${JSON.stringify(entry.pkg)}))`]);
        let o = '';
        c.stdout.on('data', (d: Buffer) => (o += d.toString()));
        c.on('close', () => resolve(o.trim()));
      });
      assert.equal(installed, entry.version, `${entry.venv} has ${entry.pkg} ${installed}, not ${entry.version}`);
      // A workspace pinning this version: the fixture folder, copied with its requirements.txt naming it.
      const dir = path.join(scratch, `${entry.pkg}-${entry.version}`);
      const files: string[] = [];
      for (const source of entry.sources) {
        fs.cpSync(path.join(root, source.dir), dir, { recursive: true });
        files.push(...fs.readdirSync(path.join(root, source.dir)).filter((f) => source.pattern.test(f)));
      }
      fs.writeFileSync(path.join(dir, 'requirements.txt'), entry.pins.join('\n') + '\n');
      files.sort();
      const servers = files.map((f) => path.join(dir, f));
      assert.ok(servers.length >= 8, `expected at least 8 fixture servers for ${entry.pkg} ${entry.version}`);
      const started = Date.now();
      const live = await runAll(python, servers);
      const runMs = Date.now() - started;
      // The guard: the first fixture that starts, run the ordinary way, lists the same tools as the runner saw.
      const probe = servers.find((f) => live[f]?.tools);
      if (probe) {
        const direct = await liveTools(probe, { command: python, args: [probe], cwd: dir, env });
        assert.ok(sameTool(direct, ListToolsResultSchema.parse({ tools: live[probe].tools }).tools), `${path.basename(probe)}: the in-process runner and a real stdio client disagree`);
      }
      const result = classify(entry, servers, live);
      const surfaces = classifySurfaces(entry, servers, live);
      const caveat = FRAMEWORKS[entry.framework].versionCaveat(entry.version);
      const f = result.figures;
      const g = surfaces.figures;
      report.push(
        `  ${entry.pkg} ${entry.version}: ${f.exact} exact, ${f.unresolved} unresolved, ${f.wrong} wrong (${servers.length} servers, ${f.failing} failing at this version)` +
          `; prompts/resources/templates ${g.exact} exact, ${g.unresolved} unresolved, ${g.wrong} wrong` +
          `${caveat ? ' — not verified' : ' — verified'}; install ${(installMs / 1000).toFixed(1)} s, run ${(runMs / 1000).toFixed(1)} s`,
      );
      assert.deepEqual(result.wrong, [], result.wrong.join('\n'));
      assert.deepEqual(surfaces.wrong, [], surfaces.wrong.join('\n'));
      // The label matches the matrix: every release checked here is one the framework table calls verified.
      assert.equal(caveat, undefined, `${entry.pkg} ${entry.version} is checked by the matrix but the framework table says: ${caveat}`);
    });
  }
});

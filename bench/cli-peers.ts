/**
 * `toolsmith check` against the peer linters fastmcp-lint and mcpolish (PyPI, pinned in bench/python-requirements.txt,
 * installed in .cache/venv-bench) on the same generated Python corpus: whole-process time (median of runs made
 * interleaved in one process, so machine noise hits all three alike) and the findings each one reports.
 */
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { writePythonCorpus } from './corpus';

const root = path.resolve(__dirname, '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timed(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): { ms: number; stdout: string; status: number | null } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: env ?? process.env });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.error) throw r.error;
  return { ms, stdout: r.stdout, status: r.status };
}

export interface PeerComparison {
  files: number;
  tools: number;
  /**
   * Whole-process medians. `toolsmith`: its result cache warm (every run after the first over unchanged files, what
   * the target figure is); `toolsmith (first run)`: an empty cache (analyses every file, then writes the cache);
   * `toolsmith --no-cache`: analyses every file, no cache read or written.
   */
  medianMs: Record<string, number>;
  /** toolsmith with its cache warm / the fastest peer (the target figure). */
  overFastestPeer: number;
  /** toolsmith --no-cache / the fastest peer: the cold figure, every file analysed in a fresh process. */
  coldOverFastestPeer: number;
  findings: Record<string, { total: number; byTool: Record<string, string[]> }>;
}

async function peerVenv(): Promise<string> {
  // Imported lazily: plain .mjs helper shared with the test scripts.
  const { ensureVenvAt } = (await import(path.join(root, 'scripts', 'ensure-venv.mjs'))) as {
    ensureVenvAt: (dir: string, req: string) => string;
  };
  return path.dirname(ensureVenvAt(path.join(root, '.cache', 'venv-bench'), path.join(root, 'bench', 'python-requirements.txt')));
}

/** The three linters on the Python files under `dir/corpus` (`rel`: those files, relative to `dir`), interleaved. */
function timePeers(bin: string, dir: string, rel: string[], runs: number, skipMcpolish = false): Pick<PeerComparison, 'medianMs' | 'overFastestPeer' | 'coldOverFastestPeer' | 'findings'> {
  // Toolsmith's result cache in a folder of the run's own: the warm runs read what the first run wrote.
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-bench-cache-'));
  const env = { ...process.env, TOOLSMITH_CACHE_DIR: cacheDir };
  const check = [path.join(root, 'dist', 'cli.js'), 'check', 'corpus', '--format', 'json'];
  const commands: Record<string, [string, string[], (() => void)?]> = {
    toolsmith: [process.execPath, check],
    'toolsmith (first run)': [process.execPath, check, () => fs.rmSync(path.join(cacheDir, 'check-cache'), { recursive: true, force: true })],
    'toolsmith --no-cache': [process.execPath, [...check, '--no-cache']],
    'fastmcp-lint': [path.join(bin, 'fastmcp-lint'), ['--json', ...rel]],
    mcpolish: [path.join(bin, 'mcpolish'), ['lint', 'corpus', '--format', 'json', '--fail-on', 'never', '--registry', 'off']],
  };
  if (skipMcpolish) delete commands.mcpolish;
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  const outputs: Record<string, string> = {};
  try {
    for (let i = 0; i < runs + 1; i++) {
      for (const [name, [cmd, args, before]] of Object.entries(commands)) {
        before?.();
        const r = timed(cmd, args, dir, env);
        if (i === 0)
          outputs[name] = r.stdout; // first run is a warm-up, also the one whose findings we read
        else times[name].push(r.ms);
        // A cached result must be the fresh one, byte for byte: a faster wrong answer is no figure.
        if (name === 'toolsmith' && i > 0 && r.stdout !== outputs['toolsmith --no-cache']) throw new Error('toolsmith check printed other findings from its cache than without it');
      }
    }
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  const medianMs = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(median(v))]));
  const fastestPeer = Math.min(medianMs['fastmcp-lint'], medianMs.mcpolish ?? Infinity);

  const findings: PeerComparison['findings'] = {};
  const add = (linter: string, tool: string, rule: string) => {
    findings[linter] ??= { total: 0, byTool: {} };
    findings[linter].total++;
    (findings[linter].byTool[tool] ??= []).push(rule);
  };
  for (const name of Object.keys(commands).filter((k) => k.startsWith('toolsmith'))) {
    for (const f of JSON.parse(outputs[name] || '[]') as { ruleId: string; tool: string | null }[]) add(name, f.tool ?? '<server>', f.ruleId);
  }
  const fl = JSON.parse(outputs['fastmcp-lint'] || '[]') as { tool: string; issues: { code: string }[] }[] | Record<string, unknown>;
  for (const t of Array.isArray(fl) ? fl : []) {
    for (const issue of t.issues) add('fastmcp-lint', t.tool, issue.code);
  }
  const mp = JSON.parse(outputs.mcpolish || '{}') as { diagnostics?: { rule_id: string; tool_name?: string | null }[] };
  for (const d of mp.diagnostics ?? []) add('mcpolish', d.tool_name ?? '<server>', d.rule_id);
  return { medianMs, overFastestPeer: +(medianMs.toolsmith / fastestPeer).toFixed(3), coldOverFastestPeer: +(medianMs['toolsmith --no-cache'] / fastestPeer).toFixed(3), findings };
}

export async function comparePeers(opts: { files?: number; toolsPerFile?: number; runs?: number } = {}): Promise<PeerComparison> {
  const files = opts.files ?? 20;
  const toolsPerFile = opts.toolsPerFile ?? 12;
  const bin = await peerVenv();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-peers-'));
  try {
    const corpus = writePythonCorpus(path.join(dir, 'corpus'), files, toolsPerFile);
    const rel = corpus.map((f) => path.relative(dir, f));
    return { files, tools: files * toolsPerFile, ...timePeers(bin, dir, rel, opts.runs ?? 5) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface RealCorpusComparison {
  packages: string[];
  files: number;
  lines: number;
  medianMs: Record<string, number>;
  overFastestPeer: number;
  coldOverFastestPeer: number;
  findings: Record<string, { total: number }>;
}

/**
 * The same comparison on the real-world corpus's Python files (test/corpus/packages.json: each PyPI package's entry
 * files, the published .py with the tools, installed by scripts/ensure-corpus.mjs), copied with their package paths
 * into one folder so the three linters read the same files.
 */
export async function comparePeersOnRealCorpus(opts: { runs?: number; skipMcpolish?: boolean } = {}): Promise<RealCorpusComparison> {
  const corpusScript = (await import(path.join(root, 'scripts', 'ensure-corpus.mjs'))) as {
    readManifest: () => { name: string; version: string; registry: string; entries: string[] }[];
    locate: (pkg: { name: string; version: string; registry: string }) => { root: string };
  };
  const bin = await peerVenv();
  const pkgs = corpusScript.readManifest().filter((p) => p.registry === 'pypi');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-peers-real-'));
  try {
    const rel: string[] = [];
    let lines = 0;
    for (const pkg of pkgs) {
      const from = corpusScript.locate(pkg).root;
      for (const entry of pkg.entries) {
        const src = path.join(from, entry);
        if (!fs.existsSync(src)) throw new Error(`the real-world corpus is not installed (${pkg.name}@${pkg.version}: ${entry}): run node scripts/ensure-corpus.mjs`);
        const to = path.join('corpus', entry);
        fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
        fs.copyFileSync(src, path.join(dir, to));
        lines += fs.readFileSync(src, 'utf8').split('\n').length;
        rel.push(to);
      }
    }
    const r = timePeers(bin, dir, rel, opts.runs ?? 5, opts.skipMcpolish);
    const findings = Object.fromEntries(Object.entries(r.findings).map(([k, v]) => [k, { total: v.total }]));
    return {
      packages: pkgs.map((p) => `${p.name}@${p.version}`),
      files: rel.length,
      lines,
      medianMs: r.medianMs,
      overFastestPeer: r.overFastestPeer,
      coldOverFastestPeer: r.coldOverFastestPeer,
      findings,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const runs = Number(process.env.RUNS ?? 5);
  // --no-mcpolish: leave out the slowest peer (~2.6 s a run, never the fastest) for quicker repeats.
  void (process.argv.includes('--real') ? comparePeersOnRealCorpus({ runs, skipMcpolish: process.argv.includes('--no-mcpolish') }) : comparePeers({ runs })).then((r) =>
    console.log(JSON.stringify(r, null, 2)),
  );
}

/**
 * `npm run bench`: every figure of issue 8 measured in one run, written to bench/results.json and BENCHMARKS.md.
 * Machines here are shared and noisy, so each figure is a median and, where a target exists, a ratio of two things
 * measured interleaved in the same process. A figure that could not be measured is recorded as null with the reason —
 * never made up.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { parser as pythonParser } from '@lezer/python';
import { analyzeFile } from '../server/src/service';
import { createFileHost } from '../server/src/host';
import { DEFAULT_SETTINGS } from '../common/settings';
import { clearSchemaCache } from '../server/src/analysis/typescript';
import { generateServer as generateTsServer, zodFloor } from './ts-analysis';
import { analyzeFull, analyzeIncremental } from '../server/src/lsp/incremental';
import { generatePythonServer } from './py-analysis';
import { writeMixedWorkspace } from './corpus';
import { comparePeers, comparePeersOnRealCorpus } from './cli-peers';
import { measureCliContract } from './cli-contract';
import { measureLspLatency } from './lsp-latency';
import { LspClient } from '../test/protocol/harness';

const root = path.resolve(__dirname, '..');
type Figure = number | null;
const results: Record<string, unknown> = { date: new Date().toISOString(), machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}` };
const notes: string[] = [];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * `--only=ts,lsp`: measure the figures whose key starts with one of these, print them, and write no file; with
 * `--write` as well, merge them into bench/results.json (the other figures kept, named as older) and re-render BENCHMARKS.md.
 */
const only = process.argv
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');

async function measure(key: string, fn: () => Promise<void> | void): Promise<void> {
  if (only && !only.some((prefix) => key.startsWith(prefix))) return;
  const t0 = Date.now();
  try {
    await fn();
    console.log(`[bench] ${key} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    notes.push(`${key}: not measured — ${reason}`);
    console.error(`[bench] ${key} FAILED: ${reason}`);
  }
}

/**
 * Full analysis (front-end + contract + every rule) over the parser alone, interleaved runs, medians. Each run gets a
 * text of its own (a different last line), so neither side can return a parse or a result cached from the run before:
 * this is the cost of opening a file (or of `toolsmith check`).
 */
function analysisOverParse(file: string, text: string, parse: (text: string) => void, beforeEach: () => void, runs: number) {
  const host = createFileHost();
  const parseMs: number[] = [];
  const fullMs: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const t = `${text}\n${file.endsWith('.py') ? '#' : '//'} run ${i}\n`;
    let t0 = performance.now();
    parse(t);
    const p = performance.now() - t0;
    beforeEach();
    t0 = performance.now();
    analyzeFile(file, t, host, DEFAULT_SETTINGS);
    const a = performance.now() - t0;
    if (i >= 3) {
      parseMs.push(p);
      fullMs.push(a);
    }
  }
  const p = median(parseMs);
  const a = median(fullMs);
  return { lines: text.split('\n').length, parseMs: round(p), analysisMs: round(a), ratio: round(a / p) };
}

/**
 * What the language server does on a keystroke inside a tool of an open file (lsp/incremental.ts): the edited tool
 * is analysed again, the others are carried over. Each run edits a different tool's description.
 */
function reanalysisOverParse(file: string, text: string, runs: number) {
  const host = createFileHost();
  let { state } = analyzeFull(file, text, host, DEFAULT_SETTINGS, () => {});
  let current = text;
  const parseMs: number[] = [];
  const reMs: number[] = [];
  let fullPath = 0;
  for (let i = 0; i < runs + 3; i++) {
    // One character typed into the description of tool (7 i mod n): "... by text" -> "... by textX".
    const marks = [...current.matchAll(/ by text/g)];
    const at = marks[(i * 7) % marks.length].index + ' by text'.length;
    const next = current.slice(0, at) + 'x' + current.slice(at);
    let t0 = performance.now();
    ts.createSourceFile(file, next, ts.ScriptTarget.Latest);
    const p = performance.now() - t0;
    t0 = performance.now();
    let r: { state: typeof state } | undefined = analyzeIncremental(state, next, host, DEFAULT_SETTINGS, () => {});
    if (!r) {
      fullPath++;
      r = analyzeFull(file, next, host, DEFAULT_SETTINGS, () => {});
    }
    const a = performance.now() - t0;
    state = r.state;
    current = next;
    if (i >= 3) {
      parseMs.push(p);
      reMs.push(a);
    }
  }
  const p = median(parseMs);
  const a = median(reMs);
  return { lines: text.split('\n').length, parseMs: round(p), reanalysisMs: round(a), ratio: round(a / p), fullPathRuns: fullPath };
}

async function main() {
  const quick = process.argv.includes('--quick');
  const runs = quick ? 5 : 11;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-bench-'));

  await measure('ts.analysisOverParse', () => {
    const sizes: Record<string, unknown> = {};
    for (const [lines, tools] of [
      [500, 20],
      [2000, 80],
      [5000, 200],
    ] as const) {
      const text = generateTsServer(tools, lines);
      const file = path.join(tmp, `ts-${lines}.ts`);
      fs.writeFileSync(file, text);
      sizes[lines] = analysisOverParse(file, text, (t) => ts.createSourceFile(file, t, ts.ScriptTarget.Latest), clearSchemaCache, runs);
    }
    results['ts.sizes'] = sizes;
    results['ts.analysisOverParse'] = (sizes[5000] as { ratio: number }).ratio;
  });

  await measure('ts.v2.analysisOverParse', () => {
    // Issue 15: the same file written for the TypeScript SDK v2 (@modelcontextprotocol/server, zod 4, 2020-12).
    const text = generateTsServer(200, 5000, 'v2');
    const file = path.join(tmp, 'ts-v2-5000.ts');
    fs.writeFileSync(file, text);
    const r = analysisOverParse(file, text, (t) => ts.createSourceFile(file, t, ts.ScriptTarget.Latest), clearSchemaCache, runs);
    results['ts.v2.analysisOverParse'] = r.ratio;
    results['ts.v2.detail'] = r;
  });

  await measure('ts.zodFloorOverParse', () => {
    // The part of a cold analysis issue 3 prescribes: the same 200 schemas built with zod and converted by the SDK.
    const r = zodFloor(runs);
    results['ts.zodFloorOverParse'] = round(r.ratio);
    results['ts.zodFloor'] = r;
  });

  await measure('ts.reanalysisOverParse', () => {
    const text = generateTsServer(200, 5000);
    const file = path.join(tmp, 'ts-reanalysis.ts');
    fs.writeFileSync(file, text);
    const r = reanalysisOverParse(file, text, runs * 3);
    results['ts.reanalysisOverParse'] = r.ratio;
    results['ts.reanalysis'] = r;
  });

  await measure('py.analysisOverParse', () => {
    const sizes: Record<string, unknown> = {};
    for (const [lines, tools] of [
      [500, 20],
      [2000, 80],
      [5000, 200],
    ] as const) {
      const text = generatePythonServer(tools, lines);
      const file = path.join(tmp, `py_${lines}.py`);
      fs.writeFileSync(file, text);
      sizes[lines] = analysisOverParse(
        file,
        text,
        (t) => pythonParser.parse(t),
        () => {},
        runs,
      );
    }
    results['py.sizes'] = sizes;
    results['py.analysisOverParse'] = (sizes[5000] as { ratio: number }).ratio;
  });

  await measure('lsp', async () => {
    const r = await measureLspLatency({ keystrokes: quick ? 100 : 300 });
    results['lsp.p50Ms'] = round(r.p50Ms, 1);
    results['lsp.p95Ms'] = round(r.p95Ms, 1);
    results['lsp.detail'] = r;
  });

  await measure('lsp.python', async () => {
    // Not a target of issue 8: the same typing in a Python file of the same size (its incremental path).
    const r = await measureLspLatency({ keystrokes: quick ? 100 : 300, language: 'python' });
    results['lsp.python.p50Ms'] = round(r.p50Ms, 1);
    results['lsp.python.p95Ms'] = round(r.p95Ms, 1);
    results['lsp.python.detail'] = r;
  });

  await measure('workspace', async () => {
    const dir = path.join(tmp, 'workspace');
    const counts = writeMixedWorkspace(dir, 1000);
    const client = await LspClient.start({ workspaceFolders: [dir] });
    try {
      const t0 = performance.now();
      const scanned = await client.scanned(600_000);
      const wall = performance.now() - t0;
      const status = fs.readFileSync(`/proc/${client.process.pid}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      results['workspace.scanMs'] = Math.round(scanned.durationMs ?? wall);
      results['workspace.rssMB'] = Math.round(rssKb / 1024);
      results['workspace.detail'] = { files: counts, ...scanned, wallMsFromInitialize: Math.round(wall) };
    } finally {
      client.process.kill();
    }
  });

  await measure('cli.contractTsMs', () => {
    const r = measureCliContract({ runs: quick ? 5 : 11 });
    results['cli.contractTsMs'] = r.warmMs;
    results['cli.contract'] = r;
  });

  await measure('cli.overFastestPeer', async () => {
    const r = await comparePeers({ runs: quick ? 3 : 5 });
    results['cli.overFastestPeer'] = r.overFastestPeer;
    results['cli.coldOverFastestPeer'] = r.coldOverFastestPeer;
    results['cli.detail'] = r;
  });

  await measure('cli.real.overFastestPeer', async () => {
    // Issue 13: the same three linters on the real-world corpus's Python files (scripts/ensure-corpus.mjs installs them).
    const r = await comparePeersOnRealCorpus({ runs: quick ? 3 : 5 });
    results['cli.real.overFastestPeer'] = r.overFastestPeer;
    results['cli.real.coldOverFastestPeer'] = r.coldOverFastestPeer;
    results['cli.real.detail'] = r;
  });

  await measure('playground', async () => {
    const modPath = path.join(root, 'bench', 'playground.ts');
    if (!fs.existsSync(modPath)) throw new Error('bench/playground.ts is missing');
    const mod = (await import(modPath)) as { measurePlayground?: () => Promise<{ ratio: number } & Record<string, unknown>> };
    if (!mod.measurePlayground) throw new Error('bench/playground.ts exports no measurePlayground()');
    const r = await mod.measurePlayground();
    results['playground.callOverheadRatio'] = round(r.ratio);
    results['playground.detail'] = r;
  });

  await measure('playground.formRenderMs', async () => {
    const modPath = path.join(root, 'bench', 'form-render.ts');
    if (!fs.existsSync(modPath)) throw new Error('bench/form-render.ts is missing');
    const mod = (await import(modPath)) as { measureFormRender?: () => Promise<{ medianMs: number } & Record<string, unknown>> };
    if (!mod.measureFormRender) throw new Error('bench/form-render.ts exports no measureFormRender()');
    const r = await mod.measureFormRender();
    results['playground.formRenderMs'] = round(r.medianMs, 1);
  });

  await measure('bundle', () => {
    const kb = (f: string) => Math.round(fs.statSync(path.join(root, 'dist', f)).size / 1024);
    results['bundle.clientKB'] = kb('client.js');
    results['bundle.serverKB'] = kb('server.js');
    results['bundle.cliKB'] = kb('cli.js');
    // Loaded by the CLI on its first TypeScript/JavaScript file only.
    results['bundle.cliTypescriptKB'] = kb('cli-typescript.js');
    const webview = fs.readdirSync(path.join(root, 'dist', 'webview')).filter((f) => f.endsWith('.js'));
    results['bundle.webviewKB'] = webview.reduce((s, f) => s + kb(path.join('webview', f)), 0);
  });

  await measure('activation.ms', () => {
    // Written by the code-server end-to-end suite from the extension's own log line ("Toolsmith activated in N ms").
    const file = path.join(root, 'test-results', 'activation.json');
    if (!fs.existsSync(file)) throw new Error('test-results/activation.json is missing: run `npm run test:e2e` first');
    results['activation.ms'] = (JSON.parse(fs.readFileSync(file, 'utf8')) as { ms: number }).ms;
  });

  await measure('rules', async () => {
    // Precision on the labelled real-world set (test/corpus/labels.json): the default preset (recommended, what a new
    // user sees) gives the headline figures, the strict preset the `.strict` ones.
    const set = await import('../test/corpus/labelled-set');
    const { packages, rootOf } = await set.loadCorpus();
    const labels = set.readLabels();
    for (const preset of ['recommended', 'strict'] as const) {
      const stats = { tools: 0 };
      const found = set.corpusFindings(packages, rootOf, { ...DEFAULT_SETTINGS, preset }, stats);
      const c = set.compare(found, labels);
      const share = (s: ('error' | 'warning' | 'info')[]) => {
        const v = set.keepShare(c, s);
        return v === null ? null : round(v, 3);
      };
      const suffix = preset === 'recommended' ? '' : '.strict';
      results[`rules.precisionWarn${suffix}`] = share(['error', 'warning']);
      results[`rules.precisionInfo${suffix}`] = share(['info']);
      results[`rules.findingsPerTool${suffix}`] = stats.tools ? round(found.length / stats.tools, 2) : null;
      results[`rules.detail${suffix}`] = {
        findings: found.length,
        tools: stats.tools,
        errors: found.filter((f) => f.severity === 'error').length,
        kept: c.keep.length,
        killed: c.kill.length,
        unlabelled: c.unlabelled.length,
      };
    }
  });
  results.notes = notes;
  fs.rmSync(tmp, { recursive: true, force: true });
  if (only && !process.argv.includes('--write')) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  if (only) {
    const file = path.join(root, 'bench', 'results.json');
    const previous = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
    const fresh = Object.keys(results).filter((k) => k !== 'date' && k !== 'machine' && k !== 'notes');
    const kept = Object.keys(previous).filter((k) => !(k in results) && k !== 'date' && k !== 'machine' && k !== 'notes' && k !== 'partial');
    results.partial = { measured: fresh, keptFrom: previous.date ?? null, kept };
    Object.assign(results, Object.fromEntries(kept.map((k) => [k, previous[k]])));
    console.log(JSON.stringify(Object.fromEntries(fresh.map((k) => [k, results[k]])), null, 2));
  }
  fs.writeFileSync(path.join(root, 'bench', 'results.json'), JSON.stringify(results, null, 2) + '\n');
  fs.writeFileSync(path.join(root, 'BENCHMARKS.md'), renderMarkdown());
  console.log(renderTable());
}

const TARGETS: [string, string, string][] = [
  ['ts.analysisOverParse', '≤ 4', 'full TS analysis / createSourceFile, 5,000 lines, 200 tools (cold: a new text each run)'],
  ['ts.v2.analysisOverParse', '≤ 4', 'the same, the file written for @modelcontextprotocol/server (SDK v2)'],
  ['ts.zodFloorOverParse', '', 'its 200 schemas built with zod and converted by the SDK alone / createSourceFile (the floor of the line above)'],
  ['ts.reanalysisOverParse', '', 'one character typed in a tool, what the language server re-analyses / createSourceFile, same file'],
  ['py.analysisOverParse', '≤ 2', 'full Python analysis / @lezer/python parse, 5,000 lines, 200 tools'],
  ['lsp.p50Ms', '', 'didChange -> publishDiagnostics, 2,000-line file, 80 tools'],
  ['lsp.p95Ms', '≤ 30', 'same, p95'],
  ['lsp.python.p95Ms', '', 'same typing in a 2,000-line Python file with 80 tools, p95'],
  ['workspace.scanMs', '', 'cold scan of 1,000 generated files (TS + Python)'],
  ['workspace.rssMB', '', 'server memory after the scan'],
  ['cli.contractTsMs', '≤ 300', '`toolsmith contract` on one TypeScript file, whole process, code cache warm (see "CLI start-up")'],
  ['cli.overFastestPeer', '≤ 0.5', "toolsmith check / fastest of fastmcp-lint, mcpolish (whole process; toolsmith's result cache warm: a run over unchanged files)"],
  ['cli.coldOverFastestPeer', '', 'the same with `toolsmith check --no-cache` (every file analysed in a fresh process)'],
  ['cli.real.overFastestPeer', '≤ 1', 'the same on the real-world corpus\'s Python files (27 files of 14 PyPI packages, see "Peer linters"), result cache warm'],
  ['cli.real.coldOverFastestPeer', '', 'the same with `--no-cache`'],
  ['playground.callOverheadRatio', '≤ 1.2', 'tools/call through the playground session / bare SDK client'],
  ['playground.formRenderMs', '', '100-field form rendered in headless Chromium'],
  ['bundle.clientKB', '≤ 300', 'dist/client.js'],
  ['bundle.serverKB', '', 'dist/server.js'],
  ['bundle.webviewKB', '', 'dist/webview/*.js'],
  ['activation.ms', '', 'from the extension log in the code-server e2e'],
  ['rules.precisionWarn', '≥ 0.9', 'share of warning/error findings judged "keep" on the labelled real-world set (default preset)'],
  ['rules.precisionInfo', '≥ 0.75', 'same for info findings'],
  ['rules.findingsPerTool', '', 'findings per tool on the corpus entries (default preset)'],
  ['rules.precisionWarn.strict', '≥ 0.9', 'share of warning/error findings judged "keep" on the labelled set, strict preset'],
  ['rules.precisionInfo.strict', '≥ 0.75', 'same for info findings, strict preset'],
  ['rules.findingsPerTool.strict', '', 'findings per tool on the corpus entries, strict preset'],
];

/** A run with `--only ... --write` re-measured some figures: say which, and how old the others are. */
function partialNote(): string[] {
  const p = results.partial as { measured: string[]; keptFrom: string | null } | undefined;
  if (!p) return [];
  const top = p.measured.filter((k) => TARGETS.some(([t]) => t === k));
  return [`Only ${top.map((k) => `\`${k}\``).join(', ')} were measured on that date; the other figures are from ${p.keptFrom ?? 'an earlier run'}.`, ''];
}

function cell(key: string): string {
  const v = results[key] as Figure | undefined;
  return v === undefined || v === null || Number.isNaN(v) ? 'not measured' : String(v);
}

function renderTable(): string {
  const rows = TARGETS.map(([k, t, what]) => `${k.padEnd(30)} ${cell(k).padStart(12)}  ${t.padEnd(6)} ${what}`);
  return ['figure                               value  target what', ...rows, ...notes.map((n) => `note: ${n}`)].join('\n');
}

function renderMarkdown(): string {
  const lines = [
    '# Benchmarks',
    '',
    `Measured by \`npm run bench\` on ${results.machine as string}, ${results.date as string}. Medians of interleaved runs in one process;`,
    'ratios are the figures to compare (the machine is shared and noisy). Raw data: bench/results.json.',
    '',
    ...partialNote(),
    '| figure | value | target | what |',
    '| --- | --- | --- | --- |',
    ...TARGETS.map(([k, t, what]) => `| \`${k}\` | ${cell(k)} | ${t} | ${what} |`),
    '',
  ];
  for (const lang of ['ts', 'py']) {
    const sizes = results[`${lang}.sizes`] as Record<string, { lines: number; parseMs: number; analysisMs: number; ratio: number }> | undefined;
    if (!sizes) continue;
    lines.push(`## ${lang === 'ts' ? 'TypeScript' : 'Python'}: cost by file size`, '', '| lines | parse ms | full analysis ms | ratio |', '| --- | --- | --- | --- |');
    for (const s of Object.values(sizes)) lines.push(`| ${s.lines} | ${s.parseMs} | ${s.analysisMs} | ${s.ratio} |`);
    lines.push('');
  }
  const floor = results['ts.zodFloor'] as { parseMs: number; buildMs: number; convertMs: number; ratio: number; convertRatio: number } | undefined;
  const re = results['ts.reanalysis'] as { parseMs: number; reanalysisMs: number; ratio: number; fullPathRuns: number } | undefined;
  if (floor && re) {
    const r2 = (x: number) => Math.round(x * 100) / 100;
    lines.push(
      '## TypeScript: what bounds the cold figure',
      '',
      `Issue 3 requires rebuilding every schema as a real zod object and converting it with the SDK's own converter. On the`,
      `same 5,000-line file, doing only that (zod ${r2(floor.buildMs)} ms + conversion ${r2(floor.convertMs)} ms, no parse, no rule) costs`,
      `${r2(floor.ratio)}× createSourceFile (the conversion alone ${r2(floor.convertRatio)}×); with the parse the analysis needs anyway, a cold`,
      `analysis cannot go under ${r2(floor.ratio + 1)}×. While the author types, the language server re-analyses only the edited`,
      `tool: ${re.reanalysisMs} ms per keystroke on that file, ${re.ratio}× createSourceFile (${re.fullPathRuns} of the runs needed a full analysis).`,
      '',
    );
  }
  const contract = results['cli.contract'] as import('./cli-contract').ContractTiming | undefined;
  if (contract) {
    lines.push(
      '## CLI start-up: `toolsmith contract` on one TypeScript file',
      '',
      `\`toolsmith contract ${contract.file}\`, whole process, medians of ${contract.runs} interleaved runs. dist/cli-typescript.js (the TypeScript`,
      'compiler, zod and the front-end) is compiled with a V8 code cache kept in the user cache directory (server/src/cli/compile-cache.ts),',
      'written by the first run. `node -e 0` is what any Node process costs on this machine at that moment.',
      '',
      '| run | wall ms | CPU ms (user + system) |',
      '| --- | --- | --- |',
      `| \`node -e 0\` | ${contract.nodeMs} | ${contract.cpuMs.node} |`,
      `| code cache in place (every run after the first) | ${contract.warmMs} | ${contract.cpuMs.warm} |`,
      `| first run (empty cache directory: compiles, then writes the cache) | ${contract.firstRunMs} | ${contract.cpuMs.firstRun} |`,
      `| \`TOOLSMITH_COMPILE_CACHE=0\` | ${contract.uncachedMs} | ${contract.cpuMs.uncached} |`,
      '',
    );
  }
  const cli = results['cli.detail'] as { files: number; tools: number; medianMs: Record<string, number>; findings: Record<string, { total: number; byTool: Record<string, string[]> }> } | undefined;
  if (cli) {
    lines.push(
      '## Peer linters on the same Python corpus',
      '',
      `${cli.files} generated FastMCP files, ${cli.tools} tools (six tool shapes, five of them flawed: vague name and error as success; missing`,
      'descriptions, docstring Args that name a missing parameter and sync network I/O; a readOnlyHint on a delete;',
      'a raw SQL tool piped to a shell; a float count and an unchecked path).',
      '',
      '`toolsmith`: its result cache warm (every run after the first over unchanged files; the target figures);',
      '`toolsmith (first run)`: an empty cache (every file analysed, then the cache written); `toolsmith --no-cache`: every file',
      'analysed, no cache read or written. The warm runs print what `--no-cache` prints, byte for byte (the bench checks it).',
      '',
      '| linter | median ms (whole process) | findings | tools with at least one finding |',
      '| --- | --- | --- | --- |',
    );
    for (const [name, ms] of Object.entries(cli.medianMs)) {
      const f = cli.findings[name];
      lines.push(`| ${name} | ${ms} | ${f?.total ?? 0} | ${f ? Object.keys(f.byTool).length : 0} |`);
    }
    const real = results['cli.real.detail'] as import('./cli-peers').RealCorpusComparison | undefined;
    if (real) {
      lines.push(
        '',
        `On the real-world corpus's Python files (${real.files} files, ${real.lines} lines: the entry files of ${real.packages.join(', ')}):`,
        '',
        '| linter | median ms (whole process) | findings |',
        '| --- | --- | --- |',
        ...Object.entries(real.medianMs).map(([name, ms]) => `| ${name} | ${ms} | ${real.findings[name]?.total ?? 0} |`),
      );
    }
    lines.push('', 'What each linter reports on one tool of each shape (first file):', '', '| tool | toolsmith | fastmcp-lint | mcpolish |', '| --- | --- | --- | --- |');
    // Tools 0..5 of the first file: one of each shape, whichever linter reported something on it (or none did).
    const names = new Set(Object.values(cli.findings).flatMap((f) => Object.keys(f.byTool)));
    const sample = [...names].filter((t) => /^[a-z_]+_[0-5]$/.test(t)).sort((a, b) => Number(a.slice(a.lastIndexOf('_') + 1)) - Number(b.slice(b.lastIndexOf('_') + 1)));
    for (const tool of sample) {
      const col = (n: string) => [...new Set(cli.findings[n]?.byTool[tool] ?? [])].join(', ') || '—';
      lines.push(`| \`${tool}\` | ${col('toolsmith')} | ${col('fastmcp-lint')} | ${col('mcpolish')} |`);
    }
    lines.push('');
  }
  if (notes.length) lines.push('## Not measured', '', ...notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

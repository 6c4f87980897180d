/**
 * `toolsmith contract` on one TypeScript file as a whole process (issue 13: ≤ 0.3 s), interleaved with a bare
 * `node -e 0` (what any Node CLI costs on this machine at this moment) so a loaded machine shows as such.
 * Warm: the V8 code cache of dist/cli-typescript.js is in place (every run after the first, the user's case);
 * first: an empty cache directory each run (the first run after an install or upgrade, which writes the cache);
 * uncached: TOOLSMITH_COMPILE_CACHE=0. The cache lives in a temporary directory, never the user's.
 *   node --import tsx bench/cli-contract.ts [--runs=N] [--cli=path/to/cli.js]
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** CPU time (user + system, ms) of the children this process has waited for (Linux: /proc, 10 ms ticks); NaN elsewhere. */
function childrenCpuMs(): number {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th (clock ticks, 100 per second).
    const fields = fs
      .readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

/** Wall and CPU time of one whole process: on a shared machine the CPU time is the steadier of the two. */
function timed(args: string[], env: NodeJS.ProcessEnv): { wall: number; cpu: number } {
  const c0 = childrenCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu: childrenCpuMs() - c0 };
}

export interface ContractTiming {
  file: string;
  runs: number;
  /** Medians, wall clock. */
  nodeMs: number;
  warmMs: number;
  firstRunMs: number;
  uncachedMs: number;
  /** Medians, CPU time (user + system). */
  cpuMs: { node: number; warm: number; firstRun: number; uncached: number };
}

export function measureCliContract(opts: { runs?: number; cli?: string; file?: string } = {}): ContractTiming {
  const runs = opts.runs ?? 11;
  const cli = opts.cli ?? path.join(root, 'dist', 'cli.js');
  const file = opts.file ?? path.join(root, 'examples', 'helpdesk-ts', 'src', 'server.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-cli-contract-'));
  const warmEnv = { ...process.env, TOOLSMITH_CACHE_DIR: path.join(dir, 'warm') };
  const args = [cli, 'contract', file];
  const kinds = ['node', 'warm', 'firstRun', 'uncached'] as const;
  const wall = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<(typeof kinds)[number], number[]>;
  const cpu = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<(typeof kinds)[number], number[]>;
  const add = (k: (typeof kinds)[number], t: { wall: number; cpu: number }) => {
    wall[k].push(t.wall);
    cpu[k].push(t.cpu);
  };
  try {
    timed(args, warmEnv); // writes the warm cache
    for (let i = 0; i < runs; i++) {
      add('node', timed(['-e', '0'], process.env));
      add('warm', timed(args, warmEnv));
      add('firstRun', timed(args, { ...process.env, TOOLSMITH_CACHE_DIR: path.join(dir, `first-${i}`) }));
      add('uncached', timed(args, { ...process.env, TOOLSMITH_COMPILE_CACHE: '0' }));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const m = (x: number[]) => Math.round(median(x));
  return {
    file: path.relative(root, file),
    runs,
    nodeMs: m(wall.node),
    warmMs: m(wall.warm),
    firstRunMs: m(wall.firstRun),
    uncachedMs: m(wall.uncached),
    cpuMs: { node: m(cpu.node), warm: m(cpu.warm), firstRun: m(cpu.firstRun), uncached: m(cpu.uncached) },
  };
}

if (require.main === module) {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 11);
  const cli = process.argv.find((a) => a.startsWith('--cli='))?.slice(6);
  console.log(JSON.stringify(measureCliContract({ runs, cli: cli && path.resolve(cli) }), null, 2));
}

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

function wallMs(args: string[], env: NodeJS.ProcessEnv): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export interface ContractTiming {
  file: string;
  runs: number;
  nodeMs: number;
  warmMs: number;
  firstRunMs: number;
  uncachedMs: number;
}

export function measureCliContract(opts: { runs?: number; cli?: string; file?: string } = {}): ContractTiming {
  const runs = opts.runs ?? 11;
  const cli = opts.cli ?? path.join(root, 'dist', 'cli.js');
  const file = opts.file ?? path.join(root, 'examples', 'helpdesk-ts', 'src', 'server.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-cli-contract-'));
  const warmEnv = { ...process.env, TOOLSMITH_CACHE_DIR: path.join(dir, 'warm') };
  const args = [cli, 'contract', file];
  const times = { node: [] as number[], warm: [] as number[], first: [] as number[], uncached: [] as number[] };
  try {
    wallMs(args, warmEnv); // writes the warm cache
    for (let i = 0; i < runs; i++) {
      times.node.push(wallMs(['-e', '0'], process.env));
      times.warm.push(wallMs(args, warmEnv));
      times.first.push(wallMs(args, { ...process.env, TOOLSMITH_CACHE_DIR: path.join(dir, `first-${i}`) }));
      times.uncached.push(wallMs(args, { ...process.env, TOOLSMITH_COMPILE_CACHE: '0' }));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const r = (x: number[]) => Math.round(median(x));
  return { file: path.relative(root, file), runs, nodeMs: r(times.node), warmMs: r(times.warm), firstRunMs: r(times.first), uncachedMs: r(times.uncached) };
}

if (require.main === module) {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 11);
  const cli = process.argv.find((a) => a.startsWith('--cli='))?.slice(6);
  console.log(JSON.stringify(measureCliContract({ runs, cli: cli && path.resolve(cli) }), null, 2));
}

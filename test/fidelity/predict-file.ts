/**
 * One file's prediction two ways, for the matrices: in this process (the analysis) and as `toolsmith contract --json`
 * prints it (a child process). The two must agree; each matrix compares them on every combination.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { cli, compareTools, root, type Tool } from './compare';
import { analyzeSource } from '../../server/src/analysis/analyze';
import { createFileHost } from '../../server/src/host';
import { contractJson } from '../../server/src/cli/contract-json';

/** The prediction in this process, as `toolsmith contract --json` prints it for the file's own contracts. */
export function predictHere<P>(file: string): P {
  const host = createFileHost();
  const result = analyzeSource(file, fs.readFileSync(file, 'utf8'), host);
  return JSON.parse(JSON.stringify(contractJson(result.tools, (f) => host.readFile(f), result.files))) as P;
}

/**
 * `toolsmith contract --json` of one file. `servers` (which tools each server publishes, from the whole-server
 * prediction) is the CLI's own field: the analysis compared with predicts the file's contracts only.
 */
export function predictCli<P>(file: string, untrusted: boolean): Promise<P> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'contract', file, '--json', ...(untrusted ? ['--untrusted'] : [])], { cwd: root });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`toolsmith contract ${file} exited ${code}: ${err}`));
      const { servers: _servers, ...contracts } = JSON.parse(out) as { servers?: unknown };
      resolve(contracts as P);
    });
  });
}

/** What a matrix prints per combination. */
export interface MatrixOutcome {
  exact: number;
  total: number;
  unresolved: number;
  refused: number;
  failures: string[];
}

/** The part of a prediction a matrix compares. */
export interface MatrixPrediction {
  tools: Tool[];
  unresolved: { tool: number; part: string; reason: string }[];
}

/**
 * One fixture's live list against its prediction. A server that refuses to start must have something unresolved (the
 * prediction may not claim a complete contract); every tool without an unresolved part is compared, order included.
 */
export function scoreFixture(rel: string, file: string, predicted: MatrixPrediction, live: { tools: Tool[] } | { error: string }, outcome: MatrixOutcome, verbose: boolean): void {
  if ('error' in live) {
    outcome.refused++;
    if (verbose) console.log(`refused ${rel}: ${live.error.slice(0, 400)}`);
    if (predicted.unresolved.length === 0) outcome.failures.push(`${rel}: the live server failed but nothing is unresolved:\n${live.error.slice(0, 600)}`);
    return;
  }
  const partial = new Set(predicted.unresolved.map((u) => u.tool));
  const resolvedPredicted = predicted.tools.filter((_, i) => !partial.has(i));
  const resolvedNames = new Set(resolvedPredicted.map((t) => t.name));
  outcome.unresolved += partial.size;
  const compared = compareTools([{ file, live: live.tools.filter((t) => resolvedNames.has(t.name)), predicted: resolvedPredicted }], { order: true });
  outcome.exact += compared.exact;
  outcome.total += compared.total;
  outcome.failures.push(...compared.failures);
}

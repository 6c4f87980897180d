/**
 * A cold TypeScript analysis of the generated 5,000-line file, repeated, for a CPU profile:
 *   node --cpu-prof --import tsx bench/profile-ts.ts [--v2]   (RUNS=n, default 20)
 * Prints the medians of createSourceFile and of the full analysis (front-end, contract, rules) and their ratio.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { analyzeFile } from '../server/src/service';
import { createFileHost } from '../server/src/host';
import { DEFAULT_SETTINGS } from '../common/settings';
import { clearSchemaCache } from '../server/src/analysis/typescript';
import { generateServer } from './ts-analysis';

const sdk = process.argv.includes('--v2') ? 'v2' : 'v1';
const text = generateServer(200, 5000, sdk);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-profile-'));
const file = path.join(dir, 'server.ts');
fs.writeFileSync(file, text);
const host = createFileHost();
const runs = Number(process.env.RUNS ?? 20);
const parse: number[] = [];
const full: number[] = [];
let tools = 0;
for (let i = 0; i < runs; i++) {
  const t = `${text}\n// run ${i}\n`;
  let t0 = performance.now();
  ts.createSourceFile(file, t, ts.ScriptTarget.Latest);
  parse.push(performance.now() - t0);
  clearSchemaCache();
  t0 = performance.now();
  tools = analyzeFile(file, t, host, DEFAULT_SETTINGS).result.tools.length;
  full.push(performance.now() - t0);
}
fs.rmSync(dir, { recursive: true, force: true });
const med = (x: number[]) => [...x].sort((a, b) => a - b)[x.length >> 1];
console.log(`${sdk}: ${tools} tools, createSourceFile ${med(parse).toFixed(1)} ms, analysis ${med(full).toFixed(1)} ms, ratio ${(med(full) / med(parse)).toFixed(2)}`);

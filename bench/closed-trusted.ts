/**
 * The cost of converting closed files with the workspace's own copies (server.ts convertInWorker): a workspace of
 * `copies` x the v2 fixture servers (test/fixtures/ts-v2) next to a v2 matrix install whose SDK, zod, ArkType and
 * Valibot all differ from the bundled releases, scanned by the language server untrusted and trusted. Untrusted, the
 * main thread's scan is all there is; trusted, the same scan runs, then the analysis workers convert each tool file
 * again (loading the workspace's copies once per worker). Measured: the scan (main thread), and from the scan's end
 * until every tool of the workspace reads the workspace's conversion (no tool still says "main thread").
 *   node --import tsx bench/closed-trusted.ts [--copies 20]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LspClient } from '../test/protocol/harness';

const root = path.resolve(__dirname, '..');
/** Differs from the bundled SDK, zod (minor), ArkType and Valibot. */
const COMBINATION = 'server-2.3.1+zod-4.4.3+libs-oldest';

interface MatrixScript {
  TS_V2_MATRIX: { name: string }[];
  v2MatrixDir(c: { name: string }): string;
  ensureV2Combination(c: { name: string }): string;
}

export interface ClosedTrustedResult {
  files: number;
  tools: number;
  untrustedScanMs: number;
  trustedScanMs: number;
  /** From the end of the trusted scan until no tool is converted with the main thread's bundled copies any more. */
  workersDoneMs: number;
}

async function scan(dir: string, trusted: boolean): Promise<{ client: LspClient; scanMs: number; tools: number; files: number }> {
  const client = await LspClient.start({ workspaceFolders: [dir], initializationOptions: { workspaceScan: true, workspaceTrusted: trusted } });
  const scanned = await client.scanned(600_000);
  return { client, scanMs: scanned.durationMs, tools: scanned.tools, files: scanned.toolFiles };
}

export async function measureClosedTrusted(copies: number): Promise<ClosedTrustedResult> {
  const script = (await import(path.join(root, 'scripts/ensure-ts-v2-matrix.mjs'))) as MatrixScript;
  const combination = script.TS_V2_MATRIX.find((c) => c.name === COMBINATION)!;
  const installed = script.ensureV2Combination(combination);
  const dir = path.join(installed, 'bench-closed');
  fs.rmSync(dir, { recursive: true, force: true });
  for (let i = 0; i < copies; i++) fs.cpSync(path.join(root, 'test/fixtures/ts-v2'), path.join(dir, `copy${i}`), { recursive: true });
  try {
    const untrusted = await scan(dir, false);
    untrusted.client.process.kill();
    const trusted = await scan(dir, true);
    try {
      const t0 = performance.now();
      for (;;) {
        const tools = (await trusted.client.workspaceTools()).tools;
        if (tools.length && !tools.some((t) => t.unresolved.some((u) => /main thread/.test(u.reason)))) break;
        if (performance.now() - t0 > 600_000) throw new Error('the workers did not convert every closed file within 10 minutes');
        await new Promise((r) => setTimeout(r, 50));
      }
      const workersDoneMs = performance.now() - t0;
      return { files: trusted.files, tools: trusted.tools, untrustedScanMs: untrusted.scanMs, trustedScanMs: trusted.scanMs, workersDoneMs: Math.round(workersDoneMs) };
    } finally {
      trusted.client.process.kill();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const at = process.argv.indexOf('--copies');
  const copies = at > 0 ? Number(process.argv[at + 1]) : 20;
  void measureClosedTrusted(copies).then((r) => console.log(JSON.stringify(r, null, 2)));
}

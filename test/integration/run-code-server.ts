/**
 * Runs test/integration/suite.ts inside code-server's extension host (the e2e layer's workbench, the packaged
 * extension from scripts/prepare-e2e.mjs): code-server rejects --extensionTestsPath ("Unknown option"), so the
 * extension starts the suite itself when TOOLSMITH_INTEGRATION_SUITE names it (client/src/testHook.ts).
 *   node scripts/prepare-e2e.mjs && node --import tsx test/integration/run-code-server.ts
 * Exit 0 only when every test passed; any failure, a missing dependency or no result in time exits 1.
 */
import * as fs from 'node:fs';
import { Workbench } from '../e2e/harness';
import { buildSuite, exampleWorkspace, requireMocha } from './build';

async function main(): Promise<void> {
  requireMocha();
  const entry = await buildSuite();
  const resultFile = `${entry}.result.json`;
  fs.rmSync(resultFile, { force: true });
  const workspace = exampleWorkspace();
  // code-server passes its environment to the extension host.
  process.env.TOOLSMITH_INTEGRATION_SUITE = entry;
  const wb = await Workbench.start({ workspace, trusted: true });
  try {
    // Opening a TypeScript file activates the extension, which then runs the suite.
    await wb.openFile('helpdesk-ts/src/server.ts');
    const deadline = Date.now() + 10 * 60_000;
    while (!fs.existsSync(resultFile)) {
      if (Date.now() > deadline) throw new Error('no result from the integration suite after 10 minutes (did the extension activate? is the .vsix current: node scripts/prepare-e2e.mjs)');
      await new Promise((r) => setTimeout(r, 1000));
    }
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as { ok: boolean; error?: string };
    if (!result.ok) throw new Error(`integration suite failed in code-server:\n${result.error}`);
    console.log('integration suite passed in code-server');
  } finally {
    await wb.stop();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});

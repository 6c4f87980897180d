/**
 * Test-only: runs the in-editor integration suite inside this extension host when TOOLSMITH_INTEGRATION_SUITE names
 * its compiled entry (test/integration/run-code-server.ts sets it). code-server refuses VS Code's
 * --extensionTestsPath, so there the suite is started from here; the result goes to `<entry>.result.json` for the
 * runner to read. Without the variable nothing happens.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';

export function runIntegrationSuiteIfAsked(): void {
  const entry = process.env.TOOLSMITH_INTEGRATION_SUITE;
  if (!entry) return;
  const write = (result: { ok: boolean; error?: string }) => fs.writeFileSync(`${entry}.result.json`, JSON.stringify(result));
  void (async () => {
    try {
      const suite = createRequire(__filename)(entry) as { run(): Promise<void> };
      await suite.run();
      write({ ok: true });
    } catch (err) {
      write({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  })();
}

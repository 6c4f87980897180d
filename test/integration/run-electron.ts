/**
 * Runs test/integration/suite.ts in a desktop VS Code through @vscode/test-electron (downloads VS Code once into
 * .vscode-test/; needs a display, e.g. xvfb-run on Linux). Needs the dev dependencies @vscode/test-electron and mocha.
 *   npm run build && node --import tsx test/integration/run-electron.ts
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { buildSuite, exampleWorkspace, requireMocha, root } from './build';

interface TestElectron {
  runTests(options: { extensionDevelopmentPath: string; extensionTestsPath: string; launchArgs?: string[] }): Promise<number>;
}

async function main(): Promise<void> {
  requireMocha();
  let testElectron: TestElectron;
  try {
    testElectron = createRequire(path.join(root, 'package.json'))('@vscode/test-electron') as TestElectron;
  } catch {
    throw new Error('@vscode/test-electron is not installed: npm install --save-dev --save-exact @vscode/test-electron');
  }
  if (!fs.existsSync(path.join(root, 'dist', 'client.js'))) throw new Error('dist/client.js is missing: npm run build first');
  const entry = await buildSuite();
  const workspace = exampleWorkspace();
  try {
    const code = await testElectron.runTests({ extensionDevelopmentPath: root, extensionTestsPath: entry, launchArgs: [workspace, '--disable-workspace-trust', '--disable-extensions'] });
    if (code !== 0) throw new Error(`integration suite failed in VS Code (exit ${code})`);
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});

// Prepares the end-to-end layer: Chromium, Node 24 + code-server (cached once per machine in ~/.cache/toolsmith/), the packaged extension
// (.cache/e2e/toolsmith.vsix, the file test/e2e/harness.ts installs) and the example servers' dependencies.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPath } from './ensure-chromium.mjs';
import { ensureCodeServer } from './ensure-code-server.mjs';
import { packageExtension } from './package.mjs';
import { ensureExamples } from './ensure-examples.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const step = (what, fn) => {
  const t0 = Date.now();
  try {
    const r = fn();
    console.log(`[toolsmith] e2e: ${what} ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return r;
  } catch (err) {
    console.error(`[toolsmith] e2e layer cannot run: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
};

step('Chromium', chromiumPath);
step('code-server', ensureCodeServer);
step("example servers' dependencies", ensureExamples);
step('packaged extension', () => packageExtension(path.join(root, '.cache', 'e2e', 'toolsmith.vsix')));

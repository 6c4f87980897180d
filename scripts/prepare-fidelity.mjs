// Prepares the fidelity layer: the real-world corpus (outside the clone, ~/.cache/toolsmith/corpus) before any test
// reads it — test/fidelity/labelled-set.test.ts runs first and would otherwise find it missing on a fresh machine.
import { ensureCorpus } from './ensure-corpus.mjs';
import { ensureTsMatrix } from './ensure-ts-matrix.mjs';
import { ensureApps } from './ensure-apps.mjs';

// And the TypeScript SDK x zod matrix (test/fidelity/typescript-matrix.test.ts), ~24 npm installs the first time.
// And the MCP Apps workspaces (test/fidelity/apps.test.ts), 3 npm installs.
const failures = [...ensureCorpus(), ...ensureTsMatrix(), ...ensureApps()];
if (failures.length) {
  for (const f of failures) console.error(f);
  console.error('[toolsmith] fidelity layer cannot run: corpus packages, TypeScript matrix combinations or MCP Apps workspaces could not be installed.');
  process.exit(1);
}

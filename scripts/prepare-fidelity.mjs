// Prepares the fidelity layer: the real-world corpus (outside the clone, ~/.cache/toolsmith/corpus) before any test
// reads it — test/fidelity/labelled-set.test.ts runs first and would otherwise find it missing on a fresh machine.
import { ensureCorpus } from './ensure-corpus.mjs';
import { ensureTsMatrix } from './ensure-ts-matrix.mjs';
import { ensureTsV2Matrix } from './ensure-ts-v2-matrix.mjs';
import { ensureApps } from './ensure-apps.mjs';

// And the TypeScript SDK x zod matrices (test/fidelity/typescript-matrix.test.ts, typescript-v2-matrix.test.ts), ~24
// and 20 npm installs the first time, and the MCP Apps workspaces (test/fidelity/apps.test.ts), 3 npm installs.
const failures = [...ensureCorpus(), ...ensureTsMatrix(), ...ensureTsV2Matrix(), ...ensureApps()];
if (failures.length) {
  for (const f of failures) console.error(f);
  console.error('[toolsmith] fidelity layer cannot run: corpus packages, TypeScript matrix combinations or MCP Apps workspaces could not be installed.');
  process.exit(1);
}

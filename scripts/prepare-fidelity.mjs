// Prepares the fidelity layer: the real-world corpus (outside the clone, ~/.cache/toolsmith/corpus) before any test
// reads it — test/fidelity/labelled-set.test.ts runs first and would otherwise find it missing on a fresh machine.
import { ensureCorpus } from './ensure-corpus.mjs';
import { ensureTsMatrix } from './ensure-ts-matrix.mjs';

// And the TypeScript SDK x zod matrix (test/fidelity/typescript-matrix.test.ts), ~24 npm installs the first time.
const failures = [...ensureCorpus(), ...ensureTsMatrix()];
if (failures.length) {
  for (const f of failures) console.error(f);
  console.error('[toolsmith] fidelity layer cannot run: corpus packages or TypeScript matrix combinations could not be installed.');
  process.exit(1);
}

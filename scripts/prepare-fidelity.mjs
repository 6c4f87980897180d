// Prepares the fidelity layer: the real-world corpus (outside the clone, ~/.cache/toolsmith/corpus) before any test
// reads it — test/fidelity/labelled-set.test.ts runs first and would otherwise find it missing on a fresh machine.
import { ensureCorpus } from './ensure-corpus.mjs';

const failures = ensureCorpus();
if (failures.length) {
  for (const f of failures) console.error(f);
  console.error('[toolsmith] fidelity layer cannot run: corpus packages could not be installed.');
  process.exit(1);
}

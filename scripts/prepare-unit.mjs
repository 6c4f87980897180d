// Prepares the unit layer: the packages fixture folders pin (the golden outputs are computed with them installed, as
// the fidelity layer runs those fixtures).
import { ensureFixtureDeps } from './ensure-fixture-deps.mjs';

try {
  ensureFixtureDeps();
} catch (err) {
  console.error(`[toolsmith] unit layer cannot run: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

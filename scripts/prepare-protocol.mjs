// Prepares the protocol layer: the pinned published server-everything the playground session tests talk to.
import { ensureEverything } from './ensure-everything.mjs';

try {
  console.log(`[toolsmith] protocol layer: server-everything at ${ensureEverything()}`);
} catch (err) {
  console.error(`[toolsmith] protocol layer cannot run: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

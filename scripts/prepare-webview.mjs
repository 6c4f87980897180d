// Prepares the webview layer: headless Debian Chromium (installed through apt-get when missing) and the pinned
// server-everything the server-requests test talks to.
import { chromiumPath } from './ensure-chromium.mjs';
import { ensureEverything } from './ensure-everything.mjs';

try {
  console.log(`[toolsmith] webview layer: Chromium at ${chromiumPath()}`);
  console.log(`[toolsmith] webview layer: server-everything at ${ensureEverything()}`);
} catch (err) {
  console.error(`[toolsmith] webview layer cannot run: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

// Prepares the webview layer: headless Debian Chromium (installed through apt-get when missing).
import { chromiumPath } from './ensure-chromium.mjs';

try {
  console.log(`[toolsmith] webview layer: Chromium at ${chromiumPath()}`);
} catch (err) {
  console.error(`[toolsmith] webview layer cannot run: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

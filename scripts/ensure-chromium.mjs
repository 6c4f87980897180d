// Headless Chromium for the webview and end-to-end layers: Debian's `chromium` package, driven by playwright-core.
// No browser download (there is none on these machines): when /usr/bin/chromium is missing we install the Debian
// package through apt-get, and fail loudly when that is impossible.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = process.env.TOOLSMITH_CHROMIUM || '/usr/bin/chromium';

/** Flags that work on these machines (TESTING.md §4). */
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Returns the path of a working Chromium, installing Debian's package when needed. Throws when impossible. */
export function chromiumPath() {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  if (process.env.TOOLSMITH_CHROMIUM) throw new Error(`TOOLSMITH_CHROMIUM=${CHROMIUM} does not exist.`);
  const aptGet = spawnSync('apt-get', ['--version'], { stdio: 'ignore' });
  if (aptGet.status !== 0) {
    throw new Error(`${CHROMIUM} is missing and apt-get is not available: install Debian's "chromium" package by hand.`);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args) => {
    const [cmd, ...rest] = [...sudo, ...args];
    execFileSync(cmd, rest, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  console.log('[toolsmith] installing Debian chromium (apt-get)...');
  try {
    run(['apt-get', 'update']);
    run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
  } catch (err) {
    throw new Error(`installing Debian chromium failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing.`);
  return CHROMIUM;
}

/**
 * Options for playwright-core's chromium.launch(): Debian binary and our flags. launch() itself gives every
 * browser a fresh temporary profile (it refuses an explicit --user-data-dir; use launchPersistentContext for that).
 */
export function launchOptions(extraArgs = []) {
  return { executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS, ...extraArgs] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(chromiumPath());

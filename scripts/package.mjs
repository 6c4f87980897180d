// `npm run package`: production build, then a .vsix made by @vscode/vsce from the package.json "files"
// allow-list (only what runs). Prints the bundle sizes and the path of the .vsix.
// Usage: node scripts/package.mjs [--out <file.vsix>]  — exported packageExtension() is reused by the e2e
// preparation and the demo.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
export const defaultVsix = path.join(root, `${pkg.name}-${pkg.version}.vsix`);

function kib(n) {
  return `${(n / 1024).toFixed(1)} KiB`;
}

export function bundleSizes() {
  const rows = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.js')) rows.push([path.relative(root, full), fs.statSync(full).size]);
    }
  };
  walk(path.join(root, 'dist'));
  return rows.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Builds with --production and packages; returns the absolute path of the .vsix. */
export function packageExtension(out = defaultVsix) {
  ensureDeps();
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  // Build and package under the build lock of scripts/test-layer.mjs#build, so a parallel dev build cannot
  // replace dist/ between the two steps. --no-dependencies: esbuild bundles everything; node_modules never ships.
  // --no-rewrite-relative-links: the repository is not on a forge vsce knows, so README links stay relative.
  const steps = [
    [process.execPath, path.join(root, 'esbuild.mjs'), '--production'],
    [process.execPath, vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out],
  ];
  const script = steps.map((argv) => argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')).join(' && ');
  const hasFlock = spawnSync('flock', ['--version'], { stdio: 'ignore' }).status === 0;
  if (hasFlock) execFileSync('flock', ['/tmp/toolsmith-build.lock', 'sh', '-c', script], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  else execFileSync('sh', ['-c', script], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = packageExtension(i > 0 ? path.resolve(process.argv[i + 1]) : defaultVsix);
  console.log('\nbundle sizes (production):');
  for (const [file, size] of bundleSizes()) console.log(`  ${file.padEnd(28)} ${kib(size).padStart(11)}`);
  console.log(`  ${'.vsix'.padEnd(28)} ${kib(fs.statSync(out).size).padStart(11)}  ${path.relative(root, out)}`);
}

// `npm run package`: production build, then a .vsix made by @vscode/vsce from the package.json "files"
// allow-list (only what runs). Prints the bundle sizes and the path of the .vsix.
// Usage: node scripts/package.mjs [--out <file.vsix>]  — exported packageExtension() is reused by the e2e
// preparation and the demo.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
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

/** The files of a .vsix (a zip): name -> a reader of its bytes. Enough of the zip format for what vsce writes. */
export function vsixEntries(file) {
  const buf = fs.readFileSync(file);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const entries = new Map();
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = buf.readUInt16LE(eocd + 10); i > 0; i--) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.set(name, () => {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const data = buf.subarray(start, start + size);
      return method === 8 ? zlib.inflateRawSync(data) : data;
    });
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return entries;
}

/**
 * The bundles load some of their parts at run time (client.js requires ./playground.js and ./tokenizer.js on first
 * use): a .vsix whose "files" allow-list forgot one activates fine and fails at the first Start. Refuse to hand it out.
 */
export function checkLazyBundlesShipped(vsix) {
  const entries = vsixEntries(vsix);
  const missing = [];
  for (const bundle of ['client.js', 'server.js', 'cli.js']) {
    const read = entries.get(`extension/dist/${bundle}`);
    if (!read) {
      missing.push(`dist/${bundle}`);
      continue;
    }
    for (const m of read()
      .toString('utf8')
      .matchAll(/require\("\.\/([\w.-]+\.js)"\)/g)) {
      if (!entries.has(`extension/dist/${m[1]}`)) missing.push(`dist/${m[1]} (required by dist/${bundle})`);
    }
  }
  if (missing.length) throw new Error(`${path.basename(vsix)} lacks ${[...new Set(missing)].join(', ')}: add it to the package.json "files" list.`);
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
  checkLazyBundlesShipped(out);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = packageExtension(i > 0 ? path.resolve(process.argv[i + 1]) : defaultVsix);
  console.log('\nbundle sizes (production):');
  for (const [file, size] of bundleSizes()) console.log(`  ${file.padEnd(28)} ${kib(size).padStart(11)}`);
  console.log(`  ${'.vsix'.padEnd(28)} ${kib(fs.statSync(out).size).padStart(11)}  ${path.relative(root, out)}`);
}

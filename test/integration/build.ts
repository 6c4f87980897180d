/** Compiles the integration suite (index.ts + suite.ts) into .cache/integration/ for an extension host to load. */
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { build } from 'esbuild';

export const root = path.resolve(__dirname, '../..');
export const outDir = path.join(root, '.cache', 'integration');

export async function buildSuite(): Promise<string> {
  fs.rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(__dirname, 'index.ts'), path.join(__dirname, 'suite.ts')],
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return path.join(outDir, 'index.js');
}

/** A scratch copy of examples/ (the suite edits a file), with node_modules linked rather than copied. */
export function exampleWorkspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-integration-'));
  fs.cpSync(path.join(root, 'examples'), dir, { recursive: true, filter: (src) => !/[\\/](node_modules|\.venv)([\\/]|$)/.test(src) });
  for (const sub of ['helpdesk-ts']) {
    const modules = path.join(root, 'examples', sub, 'node_modules');
    if (fs.existsSync(modules)) fs.symlinkSync(modules, path.join(dir, sub, 'node_modules'));
  }
  return dir;
}

/** mocha must be installed for the suite to run: say so before starting an editor. */
export function requireMocha(): void {
  try {
    // Resolved as the compiled suite will resolve it: from .cache/integration up (.cache/node_modules, node_modules).
    require.resolve('mocha', { paths: [outDir] });
  } catch {
    throw new Error('the integration suite needs mocha: npm install --save-dev --save-exact mocha (not in node_modules)');
  }
}

// Fixture folders under test/fixtures/ts that pin their own packages (the zod 3 fixture: a bare `import "zod"` is
// zod 3 there) get them installed once into their ignored node_modules. The unit layer's golden outputs and the
// fidelity layer must see the same installed packages: what a file's imports resolve to decides its contract.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const fixtures = path.join(path.resolve(path.dirname(self), '..'), 'test', 'fixtures', 'ts');

export function ensureFixtureDeps() {
  for (const e of fs.readdirSync(fixtures, { withFileTypes: true })) {
    const dir = path.join(fixtures, e.name);
    if (!e.isDirectory() || !fs.existsSync(path.join(dir, 'package.json'))) continue;
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const missing = Object.entries(pkg.dependencies ?? {}).some(([name, version]) => {
      const installed = path.join(dir, 'node_modules', name, 'package.json');
      return !fs.existsSync(installed) || JSON.parse(fs.readFileSync(installed, 'utf8')).version !== version;
    });
    if (missing) {
      console.log(`[toolsmith] installing the packages test/fixtures/ts/${e.name} pins...`);
      execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts'], { cwd: dir, stdio: 'inherit', timeout: 300_000 });
    }
  }
}

if (process.argv[1] === self) ensureFixtureDeps();

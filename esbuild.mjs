// Bundles every entry point: the extension client, the language server, the CLI and the webview scripts.
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

const nodeCommon = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // The versions of the SDKs and schema libraries bundled for contract conversion (server/src/contract/typescript/libraries.ts names them).
  define: {
    TOOLSMITH_BUNDLED_VERSIONS: JSON.stringify(
      Object.fromEntries(
        ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'zod', 'arktype', 'valibot', '@valibot/to-json-schema'].map((n) => [
          n,
          JSON.parse(fs.readFileSync(`node_modules/${n}/package.json`, 'utf8')).version,
        ]),
      ),
    ),
  },
  // The analysis core must not pull the vscode API; only the client marks it external.
};

/**
 * In the client, `require('./<name>-bundle')` resolves at run time to dist/<name>.js (built below), not inline: the
 * tokenizer loads on the first preview; the playground (MCP SDK Client, zod, ajv, client/src/playground/lazy.ts) when
 * a server first starts — neither at activation.
 */
function outOfClient(name) {
  const filter = new RegExp(`^\\./${name}-bundle$`);
  return {
    name: `${name}-out-of-client`,
    setup(build) {
      build.onResolve({ filter }, () => ({ path: `./${name}.js`, external: true }));
    },
  };
}

/**
 * In the CLI, the TypeScript front-end (with the whole TypeScript compiler and zod: ~11 MB of the 12) is its own
 * bundle, dist/cli-typescript.js, required on first use: a Python-only `toolsmith check` (or `--version`) no longer
 * parses it at start-up. analyze.ts already requires it lazily; only where the module comes from changes.
 */
const typescriptFrontEndOutOfCli = {
  name: 'typescript-front-end-out-of-cli',
  setup(build) {
    // It is loaded with a V8 code cache in the user's cache directory (server/src/cli/compile-cache.ts): compiling
    // ~4.5 MB of JavaScript again on every run was a third of a `toolsmith contract`.
    build.onResolve({ filter: /^\.\/typescript$/ }, (args) =>
      /[\\/]server[\\/]src[\\/]analysis[\\/]analyze\.ts$/.test(args.importer) ? { path: 'cli-typescript.js', namespace: 'cli-typescript' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'cli-typescript' }, () => ({
      contents: `module.exports = require('./server/src/cli/compile-cache.ts').requireWithCodeCache(require('node:path').join(__dirname, 'cli-typescript.js'));`,
      resolveDir: path.resolve('.'),
      loader: 'js',
    }));
  },
};

const builds = [
  // jsonc-parser's "main" is a UMD build whose inner require('./impl/...') calls esbuild cannot follow: use its ESM build.
  {
    ...nodeCommon,
    entryPoints: { client: 'client/src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    plugins: [outOfClient('tokenizer'), outOfClient('playground')],
  },
  { ...nodeCommon, entryPoints: { playground: 'client/src/playground/playground-bundle.ts' }, outdir: 'dist' },
  { ...nodeCommon, entryPoints: { tokenizer: 'client/src/preview/tokenizer-bundle.ts' }, outdir: 'dist' },
  { ...nodeCommon, entryPoints: { server: 'server/src/main.ts' }, outdir: 'dist' },
  { ...nodeCommon, entryPoints: { cli: 'server/src/cli.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' }, plugins: [typescriptFrontEndOutOfCli] },
  { ...nodeCommon, entryPoints: { 'cli-typescript': 'server/src/analysis/typescript/index.ts' }, outdir: 'dist' },
  {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
    entryPoints: Object.fromEntries(
      fs
        .readdirSync('webview/src')
        .filter((f) => /^[a-z-]+\.ts$/.test(f) && !f.endsWith('.d.ts'))
        .map((f) => [f.replace(/\.ts$/, ''), `webview/src/${f}`]),
    ),
    outdir: 'dist/webview',
    loader: { '.ttf': 'file' },
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('[esbuild] watching client, server, cli and webview...');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build({ ...b, metafile: true })));
  fs.chmodSync('dist/cli.js', 0o755);
  writeThirdPartyNotices(
    results.map((r) => r.metafile),
    'dist/THIRD-PARTY-NOTICES.txt',
  );
  // codicons font + css are loaded by webviews from dist/.
  fs.mkdirSync('dist/webview', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) {
    fs.copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/webview/${f}`);
  }
}

/**
 * The bundles inline third-party code, whose licenses (MIT, Apache-2.0, BSD, ISC) ask that their notices travel with
 * it. Every package that contributed a file to any bundle is listed with its version, license and license text.
 */
function writeThirdPartyNotices(metafiles, out) {
  const roots = new Map();
  for (const meta of metafiles) {
    for (const input of Object.keys(meta.inputs)) {
      const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (!m) continue;
      const root = input.slice(0, m.index + m[0].length - 1).replace(/^\//, '');
      roots.set(path.resolve(root), m[1]);
    }
  }
  // The codicon font and CSS are copied into dist/webview, not bundled: no metafile names them.
  roots.set(path.resolve('node_modules/@vscode/codicons'), '@vscode/codicons');
  const entries = [...roots.keys()]
    .map((dir) => {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const licenseFile = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(f));
      const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'see package');
      const text = licenseFile ? fs.readFileSync(path.join(dir, licenseFile), 'utf8').trim() : `(the package ships no license file; its package.json says: ${license})`;
      return { name: pkg.name, version: pkg.version, license, text };
    })
    .filter((e, i, all) => all.findIndex((o) => o.name === e.name && o.version === e.version) === i)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const header = `Third-party software bundled in MCP Toolsmith's dist/ files (${entries.length} packages).\n`;
  const body = entries.map((e) => `${'='.repeat(78)}\n${e.name} ${e.version} (${e.license})\n${'-'.repeat(78)}\n${e.text}\n`).join('\n');
  fs.writeFileSync(out, `${header}\n${body}`);
}

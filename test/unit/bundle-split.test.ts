// The extension's activation bundle (dist/client.js) carries the language client, the Servers tree and the preview
// shell; the MCP stack (the SDK's Client and stdio transport, zod, ajv) lives in dist/playground.js, loaded on the
// first Start / playground / live comparison. A static import of the SDK or ajv slipping back into an activation
// module would silently put ~300 KB back into every activation: these tests fail then, and when the second bundle
// is not built, does not work on its own, or is not shipped in the .vsix.
//
// The production build runs into a private folder (symlinks to the sources), so the shared dist/ is left alone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as PlaygroundBundle from '../../client/src/playground/playground-bundle';
import type { ServerConfig } from '../../client/src/servers/discovery';

const root = path.resolve(__dirname, '..', '..');
let out: string;
let clientJs: string;
let playgroundJs: string;

/** Strings only each part's code holds (error messages survive minification; identifiers do not). */
const HEAVY = [
  { part: 'the MCP SDK Client', text: "Server's protocol version is not supported" },
  { part: 'the SDK stdio transport', text: 'StdioClientTransport already started' },
  { part: 'ajv', text: 'schema with key or id' },
  { part: 'zod (the SDK schemas)', text: '$ZodType' },
];

before(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-bundles-'));
  for (const e of ['client', 'server', 'common', 'webview', 'node_modules', 'package.json', 'README.md', 'LICENSE']) {
    fs.symlinkSync(path.join(root, e), path.join(out, e));
  }
  execFileSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production'], { cwd: out, stdio: ['ignore', 'inherit', 'inherit'] });
  clientJs = fs.readFileSync(path.join(out, 'dist', 'client.js'), 'utf8');
  playgroundJs = fs.readFileSync(path.join(out, 'dist', 'playground.js'), 'utf8');
});

// Only the private folder goes: rm does not follow the symlinks into the checkout.
after(() => fs.rmSync(out, { recursive: true, force: true }));

test('production dist/client.js holds neither the MCP SDK Client, its stdio transport, zod nor ajv', (t) => {
  t.diagnostic(`dist/client.js ${(clientJs.length / 1024).toFixed(1)} KiB, dist/playground.js ${(playgroundJs.length / 1024).toFixed(1)} KiB`);
  for (const h of HEAVY) assert.ok(!clientJs.includes(h.text), `dist/client.js contains ${h.part} ("${h.text}")`);
  // ...and it still reaches them: the lazy require survives as a run-time require of the sibling file.
  assert.match(clientJs, /require\("\.\/playground\.js"\)/);
  // The language client is what activation needs: it stays.
  assert.ok(clientJs.includes('Connection to server got closed. Server will restart.'), 'the language client is missing from dist/client.js');
});

test('production dist/playground.js holds them, without vscode', () => {
  for (const h of HEAVY) assert.ok(playgroundJs.includes(h.text), `dist/playground.js lacks ${h.part} ("${h.text}")`);
  // It is loaded by the extension host but must run without it (the webview tests and the preview load it too).
  assert.doesNotMatch(playgroundJs, /require\("vscode"\)/);
});

test('dist/playground.js works on its own: its McpSession runs a real server and lists its tools', async () => {
  // Loaded from the built file, not the sources: what the extension host gets on the first Start.
  const bundle = createRequire(__filename)(path.join(out, 'dist', 'playground.js')) as typeof PlaygroundBundle;
  assert.equal(typeof bundle.PlaygroundController, 'function');
  const server = path.join(root, 'test', 'fixtures', 'servers', 'ts', 'well-behaved.ts');
  const session = new bundle.McpSession({ command: process.execPath, args: ['--import', 'tsx', server], cwd: root });
  try {
    await session.start();
    assert.equal(session.status, 'running');
    assert.ok(
      session.tools.some((x) => x.name === 'echo_text'),
      `tools: ${session.tools.map((x) => x.name).join(', ')}`,
    );
  } finally {
    await session.stop();
  }
});

test('every bundle client.js, server.js and cli.js require at run time is in the package "files" list (vsce ls)', () => {
  const listed = new Set(
    execFileSync(process.execPath, [path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce'), 'ls', '--no-dependencies'], { cwd: out, encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim()),
  );
  assert.ok(listed.has('dist/playground.js'), 'dist/playground.js would not be in the .vsix: every Start would fail');
  for (const bundle of ['client.js', 'server.js', 'cli.js']) {
    assert.ok(listed.has(`dist/${bundle}`), `dist/${bundle} is not packaged`);
    const text = fs.readFileSync(path.join(out, 'dist', bundle), 'utf8');
    for (const m of text.matchAll(/require\("\.\/([\w.-]+\.js)"\)/g)) assert.ok(listed.has(`dist/${m[1]}`), `dist/${bundle} requires ./${m[1]}, which is not packaged`);
  }
});

test('activation-side code does not load the MCP stack until a session is created', () => {
  // Under tsx these are the sources themselves (CommonJS), so require.cache shows what they pulled in.
  const req = createRequire(__filename);
  const loaded = (re: RegExp) => Object.keys(req.cache).some((f) => re.test(f));
  // The playground's client is @modelcontextprotocol/client (SDK v2): its CommonJS entry.
  const SDK_CLIENT = /@modelcontextprotocol[\\/]client[\\/]dist[\\/]index\.cjs$/;
  const AJV = /node_modules[\\/]ajv[\\/]/;
  const { ServerManager } = req('../../client/src/servers/manager') as typeof import('../../client/src/servers/manager');
  req('../../client/src/servers/treeModel'); // the tree's vscode-free half (tree.ts itself needs vscode)
  req('../../client/src/preview/live');
  req('../../client/src/preview/launch');
  const { playgroundBundle } = req('../../client/src/playground/lazy') as typeof import('../../client/src/playground/lazy');
  // The session factory the extension gives the manager (playground/index.ts): the door to the MCP stack.
  const m = new ServerManager({
    isTrusted: () => true,
    resolveContext: () => ({ workspaceFolder: root, env: {}, promptInput: async () => undefined, readText: async () => undefined }),
    createSession: (spec, options) => new (playgroundBundle().McpSession)(spec, options),
  });
  const config: ServerConfig = { id: 'setting:x', name: 'x', origin: 'setting', command: process.execPath, args: ['x.js'], env: {}, inputs: [], watchRoot: root };
  m.setDiscovery({ servers: [config], skipped: [], problems: [] }, []);
  // What the Servers tree shows right after discovery.
  assert.deepEqual(
    m.configs.map((c) => c.name),
    ['x'],
  );
  assert.equal(loaded(SDK_CLIENT), false, 'the SDK Client was loaded by discovery / the tree / the preview modules');
  assert.equal(loaded(AJV), false, 'ajv was loaded by discovery / the tree / the preview modules');
  // Creating (not starting) a session is the first use: now the stack is there.
  assert.ok(m.session('setting:x'));
  assert.equal(loaded(SDK_CLIENT), true);
  assert.equal(loaded(AJV), true);
});

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const cli = path.resolve(__dirname, '../../dist/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

test('cli: --version prints the package version and exits 0', () => {
  const r = run('--version');
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trim(), (JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version);
});

test('cli: --help lists both commands', () => {
  const r = run('--help');
  assert.equal(r.status, 0);
  assert.match(r.stdout, /toolsmith check/);
  assert.match(r.stdout, /toolsmith contract/);
});

test('cli: usage errors exit 2 with a clear message', () => {
  const unknown = run('frobnicate');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  const missing = run('contract', '/nonexistent/server.ts');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read/);
  const badFormat = run('check', '--format', 'xml', '.');
  assert.equal(badFormat.status, 2);
  assert.match(badFormat.stderr, /unknown format "xml"/);
});

test("cli contract: a low-level Server's prompts and resources lists, a list not static said once as known only at run time", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-lowlevel-'));
  try {
    const file = path.join(dir, 'server.ts');
    fs.writeFileSync(
      file,
      `import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListPromptsRequestSchema, ListResourcesRequestSchema } from "@modelcontextprotocol/sdk/types.js";
const server = new Server({ name: "low", version: "1.0.0" }, { capabilities: { prompts: {}, resources: {} } });
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: "console://logs", mimeType: "text/plain", name: "Logs", description: "The page's console" }, ...screenshots()],
}));
server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: loadPrompts() }));
`,
    );
    const text = run('contract', file);
    assert.match(text.stdout, /\nresource console:\/\/logs {2}name: Logs\n {2}description: "The page's console"\n {2}mimeType: text\/plain\n/);
    assert.match(text.stdout, /\nresources known only at run time \(any number\): resources spread from `screenshots\(\)`/);
    assert.match(text.stdout, /\nprompts known only at run time \(any number\): the prompts list is not static/);
    const json = JSON.parse(run('contract', file, '--json').stdout) as {
      prompts: unknown[];
      promptsUnresolved: { prompt: number | null }[];
      resources: unknown[];
      resourcesUnresolved: { index: number | null; list: string }[];
    };
    assert.deepEqual(json.resources, [{ uri: 'console://logs', mimeType: 'text/plain', name: 'Logs', description: "The page's console" }]);
    assert.deepEqual(
      json.resourcesUnresolved.map((r) => [r.list, r.index]),
      [['resources', null]],
    );
    assert.deepEqual(json.prompts, []);
    assert.deepEqual(
      json.promptsUnresolved.map((r) => r.prompt),
      [null],
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// `toolsmith check`'s result cache (server/src/cli/check-cache.ts), through the bundled CLI as a user runs it twice.
// What would go wrong: findings from the cache that a fresh analysis would not give (after an edit, a settings
// change, a new Toolsmith build, or an edit to a file the checked one imports), or a crash on a damaged cache file.
// Uses dist/ (build first).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeTree } from '../util/tree';

const root = path.resolve(__dirname, '../..');
const dist = path.join(root, 'dist');

function check(cli: string, cwd: string, cacheDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'check', ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TOOLSMITH_CACHE_DIR: cacheDir, TOOLSMITH_CACHE_LOG: '1' } });
  assert.ok(r.status === 0 || r.status === 1, `exit ${r.status}: ${r.stderr}`);
  const hits = /cache: (\d+) of (\d+) files from the cache/.exec(r.stderr);
  return { stdout: r.stdout, hits: hits ? Number(hits[1]) : undefined, files: hits ? Number(hits[2]) : undefined, stderr: r.stderr };
}

// A Python server whose tool takes a model from another module, and a TypeScript one whose schema is imported.
const FILES: Record<string, string> = {
  'py/server.py': `from mcp.server.fastmcp import FastMCP
from models import Query

mcp = FastMCP("orders")


@mcp.tool()
def search_orders(query: Query, limit: int = 10) -> str:
    """Search orders."""
    return "ok"


@mcp.tool(annotations={"readOnlyHint": True})
def delete_order(order_id: str) -> str:
    """Delete one order permanently. Use when the user explicitly asks to remove it. Returns a confirmation."""
    return "deleted"
`,
  'py/models.py': `from pydantic import BaseModel


class Query(BaseModel):
    text: str
`,
  'ts/main.ts': `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SearchInput } from "./schemas.js";

const server = new McpServer({ name: "orders", version: "1.0.0" });

server.registerTool("search_orders", { description: "Finds it.", inputSchema: SearchInput }, async () => ({ content: [] }));
`,
  'ts/schemas.ts': `import { z } from "zod";

export const SearchInput = { query: z.string(), limit: z.number().optional() };
`,
};

function workspace(t: { after: (fn: () => void) => void }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-check-cache-'));
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-check-cache-dir-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });
  writeTree(dir, FILES);
  return { dir, cacheDir };
}

const cli = path.join(dist, 'cli.js');

test('check cache: the second run reads every file from the cache and prints what a run without it prints, in every format', (t) => {
  const { dir, cacheDir } = workspace(t);
  for (const format of ['json', 'sarif', 'stylish']) {
    const fresh = check(cli, dir, cacheDir, '--format', format, '--no-cache');
    assert.equal(fresh.hits, undefined, '--no-cache opened the cache');
    const first = check(cli, dir, cacheDir, '--format', format);
    const second = check(cli, dir, cacheDir, '--format', format);
    assert.equal(second.hits, 4, `second run: ${second.stderr}`);
    assert.equal(first.stdout, fresh.stdout);
    assert.equal(second.stdout, fresh.stdout);
  }
  assert.ok(JSON.parse(check(cli, dir, cacheDir, '--format', 'json').stdout).length > 3, 'the fixture has findings to cache');
});

test('check cache: --no-cache writes nothing; a damaged cache file counts as empty', (t) => {
  const { dir, cacheDir } = workspace(t);
  check(cli, dir, cacheDir, '--no-cache');
  assert.ok(!fs.existsSync(path.join(cacheDir, 'check-cache')), '--no-cache wrote a cache');
  const fresh = check(cli, dir, cacheDir, '--format', 'json');
  const [file] = fs.readdirSync(path.join(cacheDir, 'check-cache'));
  for (const damage of ['{"format":1,"entries":', '{"format":1,"entries":{"x":1}}', 'null']) {
    fs.writeFileSync(path.join(cacheDir, 'check-cache', file), damage);
    const r = check(cli, dir, cacheDir, '--format', 'json');
    assert.equal(r.stdout, fresh.stdout, `with a cache file of ${damage}`);
  }
});

test('check cache: an edit to the file, or to a module it imports, is analysed again', (t) => {
  const { dir, cacheDir } = workspace(t);
  check(cli, dir, cacheDir, '--format', 'json');
  // The imported modules change; the checked files do not (only py/server.py and ts/main.ts are checked).
  fs.writeFileSync(path.join(dir, 'py/models.py'), FILES['py/models.py'].replace('text: str', 'text: str\n    page: int = 1'));
  fs.writeFileSync(path.join(dir, 'ts/schemas.ts'), FILES['ts/schemas.ts'].replace('z.string()', 'z.string().describe("Words to look for in the order notes")'));
  const targets = ['py/server.py', 'ts/main.ts'];
  const edited = check(cli, dir, cacheDir, '--format', 'json', ...targets);
  const fresh = check(cli, dir, cacheDir, '--format', 'json', '--no-cache', ...targets);
  assert.equal(edited.hits, 0, edited.stderr);
  assert.equal(edited.stdout, fresh.stdout);
  // And the edit changed the findings: a stale entry would have been caught by the comparison above.
  fs.writeFileSync(path.join(dir, 'ts/schemas.ts'), FILES['ts/schemas.ts']);
  const before = check(cli, dir, cacheDir, '--format', 'json', 'ts/main.ts');
  fs.writeFileSync(path.join(dir, 'ts/schemas.ts'), FILES['ts/schemas.ts'].replace('z.string()', 'z.string().describe("Words to look for in the order notes")'));
  assert.notEqual(check(cli, dir, cacheDir, '--format', 'json', 'ts/main.ts').stdout, before.stdout, 'the imported schema does not change the findings');
  // The checked file itself: one line more.
  fs.appendFileSync(path.join(dir, 'py/server.py'), '\n\n@mcp.tool()\ndef get_thing(x) -> str:\n    return "x"\n');
  const grown = check(cli, dir, cacheDir, '--format', 'json', 'py/server.py');
  assert.equal(grown.hits, 0);
  assert.equal(grown.stdout, check(cli, dir, cacheDir, '--format', 'json', '--no-cache', 'py/server.py').stdout);
  assert.match(grown.stdout, /get_thing/);
});

test('check cache: other settings miss the entries of the previous ones', (t) => {
  const { dir, cacheDir } = workspace(t);
  const defaults = check(cli, dir, cacheDir, '--format', 'json');
  assert.match(defaults.stdout, /annotation-contradicts-name/);
  fs.writeFileSync(path.join(dir, '.toolsmithrc.json'), JSON.stringify({ rules: { 'annotation-contradicts-name': 'off' } }));
  const off = check(cli, dir, cacheDir, '--format', 'json');
  assert.equal(off.hits, 0, off.stderr);
  assert.doesNotMatch(off.stdout, /annotation-contradicts-name/);
  assert.equal(off.stdout, check(cli, dir, cacheDir, '--format', 'json', '--no-cache').stdout);
  const strict = check(cli, dir, cacheDir, '--format', 'json', '--preset', 'strict');
  assert.equal(strict.hits, 0, strict.stderr);
  assert.equal(strict.stdout, check(cli, dir, cacheDir, '--format', 'json', '--preset', 'strict', '--no-cache').stdout);
  // Trust picks the converters (the workspace's zod/SDK or the bundled ones): an untrusted run never reuses a trusted entry.
  const untrusted = check(cli, dir, cacheDir, '--format', 'json', '--preset', 'strict', '--untrusted');
  assert.equal(untrusted.hits, 0, untrusted.stderr);
  // Back to the first settings: their entries were replaced, the findings are the defaults' again.
  fs.rmSync(path.join(dir, '.toolsmithrc.json'));
  assert.equal(check(cli, dir, cacheDir, '--format', 'json').stdout, defaults.stdout);
});

test('check cache: another Toolsmith build (a changed bundle) analyses every file again', (t) => {
  const { dir, cacheDir } = workspace(t);
  // A copy of the bundles stands for an installed Toolsmith; changing one byte of it is a new build.
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-check-cache-dist-'));
  t.after(() => fs.rmSync(copy, { recursive: true, force: true }));
  for (const f of ['cli.js', 'cli-typescript.js']) fs.copyFileSync(path.join(dist, f), path.join(copy, f));
  const copied = path.join(copy, 'cli.js');
  const first = check(copied, dir, cacheDir, '--format', 'json');
  assert.equal(check(copied, dir, cacheDir, '--format', 'json').hits, 4);
  fs.appendFileSync(copied, '\n// rebuilt\n');
  const rebuilt = check(copied, dir, cacheDir, '--format', 'json');
  assert.equal(rebuilt.hits, 0, `after a change to cli.js: ${rebuilt.stderr}`);
  assert.equal(rebuilt.stdout, first.stdout);
  fs.appendFileSync(path.join(copy, 'cli-typescript.js'), '\n// rebuilt\n');
  // Only the TypeScript files' entries depend on the TypeScript front-end bundle.
  assert.equal(check(copied, dir, cacheDir, '--format', 'json').hits, 2);
});

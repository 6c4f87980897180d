/**
 * MCP Apps: `registerAppTool(server, name, config, cb)` of @modelcontextprotocol/ext-apps/server as a registration
 * form (its `_meta` normalisation, its TypeError without `_meta`, the ext-apps version read from the workspace), a
 * bundle's minified copy of it followed with its arguments bound (the straight-line locals before its registerTool,
 * locals.ts), a bundle's inlined zod (bundles.ts), and the rules on app tools. The live proof is
 * test/fidelity/apps.test.ts and the corpus (docs/real-world-corpus.md).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { analyze } from './helpers';
import { analyse } from '../rules/harness';
import { analyzeTypeScript } from '../../../server/src/analysis/typescript';
import { createFileHost } from '../../../server/src/host';
import { loadedWorkspaceFiles, setWorkspaceTrust, workspaceTrusted } from '../../../server/src/contract/typescript/trust';

const OK = 'async () => ({ content: [] })';
const V2_HEAD = `import { McpServer } from "@modelcontextprotocol/server";
import { registerAppTool, registerAppResource, RESOURCE_URI_META_KEY, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import * as z from "zod";
const server = new McpServer({ name: "apps", version: "1.0.0" });
const uri = "ui://demo/view.html";
`;

test('registerAppTool publishes what registerTool publishes, with _meta as ext-apps normalises it', () => {
  const src =
    V2_HEAD +
    `registerAppTool(server, "new-key", { title: "New", description: "The ui.resourceUri form.", inputSchema: z.object({ q: z.string() }), _meta: { ui: { resourceUri: uri } } }, ${OK});
registerAppTool(server, "legacy-key", { description: "The flat legacy key.", _meta: { [RESOURCE_URI_META_KEY]: uri, other: 1 } }, ${OK});
registerAppTool(server, "both-keys", { description: "Both, kept.", _meta: { ui: { resourceUri: "ui://a" }, "ui/resourceUri": "ui://b" } }, ${OK});
registerAppTool(server, "no-uri", { description: "Visibility only.", _meta: { ui: { visibility: ["app"] } } }, ${OK});
registerAppResource(server, "View", uri, { mimeType: RESOURCE_MIME_TYPE }, async () => ({ contents: [] }));
`;
  const { result, tool } = analyze({ 'main.ts': src });
  assert.deepEqual(
    result.tools.map((t) => t.name.value),
    ['new-key', 'legacy-key', 'both-keys', 'no-uri'],
  );
  assert.deepEqual(tool('new-key').contract._meta, { ui: { resourceUri: 'ui://demo/view.html' }, 'ui/resourceUri': 'ui://demo/view.html' });
  assert.deepEqual(tool('new-key').contract.inputSchema, {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { q: { type: 'string' } },
    required: ['q'],
  });
  assert.equal(tool('new-key').framework, 'ts-sdk-v2');
  assert.equal(tool('new-key').registration.kind, 'registerTool');
  assert.deepEqual(tool('legacy-key').contract._meta, { 'ui/resourceUri': 'ui://demo/view.html', other: 1, ui: { resourceUri: 'ui://demo/view.html' } });
  assert.deepEqual(tool('both-keys').contract._meta, { ui: { resourceUri: 'ui://a' }, 'ui/resourceUri': 'ui://b' });
  assert.deepEqual(tool('no-uri').contract._meta, { ui: { visibility: ['app'] } });
  for (const t of result.tools) assert.deepEqual(t.unresolved, [], String(t.name.value));
});

test('registerAppTool without _meta throws in every ext-apps release: the tool is unresolved with that reason', () => {
  const src = V2_HEAD + `registerAppTool(server, "no-meta", { description: "Forgot the UI." }, ${OK});\nregisterAppTool(server, "spread", { ...cfg }, ${OK});\ndeclare const cfg: object;\n`;
  const { tool } = analyze({ 'main.ts': src });
  assert.equal(tool('no-meta').unresolved.length, 1);
  assert.equal(tool('no-meta').unresolved[0].part, 'tool');
  assert.match(tool('no-meta').unresolved[0].reason, /reads `config\._meta\.ui` with no default .*throws a TypeError and registers nothing/);
  // A config whose keys are not all known may hold `_meta`: not called a TypeError.
  assert.ok(!tool('spread').unresolved.some((u) => u.part === 'tool'));
});

test('the ext-apps version of the workspace: a release after the modelled ones is an unresolved contract part', () => {
  const files = {
    'main.ts': V2_HEAD + `registerAppTool(server, "t", { description: "d", _meta: { ui: { resourceUri: uri } } }, ${OK});\n`,
    'node_modules/@modelcontextprotocol/ext-apps/package.json': '{ "name": "@modelcontextprotocol/ext-apps", "version": "2.1.0" }',
  };
  const { tool } = analyze(files);
  assert.equal(tool('t').unresolved.length, 1);
  assert.match(tool('t').unresolved[0].reason, /@modelcontextprotocol\/ext-apps 2\.1\.0: registerAppTool\(\) is modelled on 0\.2\.0 to 2\.0\.4/);
  const old = analyze({ ...files, 'node_modules/@modelcontextprotocol/ext-apps/package.json': '{ "version": "1.7.5" }' });
  assert.deepEqual(old.tool('t').unresolved, []);
});

test("a function named registerAppTool that is not ext-apps' is followed as any helper, not modelled", () => {
  const src = `import { McpServer } from "@modelcontextprotocol/server";
const server = new McpServer({ name: "x", version: "1" });
function registerAppTool(s: McpServer, name: string, config: object, cb: () => unknown) {
  return s.registerTool(name, { ...config, annotations: { readOnlyHint: true } }, cb as never);
}
registerAppTool(server, "own-helper", { description: "Mine." }, ${OK});
`;
  const { result, tool } = analyze({ 'main.ts': src });
  assert.equal(result.tools.length, 1);
  assert.deepEqual(tool('own-helper').contract.annotations, { readOnlyHint: true });
  assert.equal(tool('own-helper').contract._meta, undefined);
  assert.deepEqual(tool('own-helper').unresolved, []);
});

test('a minified registerAppTool in a bundle: followed from the uncalled createServer, one tool per call, its locals read in order', () => {
  // What the MCP Apps bundles inline (ext-apps' dist/src/server/index.js, every release): statements before registerTool.
  const src = `import { McpServer } from "@modelcontextprotocol/server";
var D = "ui/resourceUri";
function j(B, Q, F, V) {
  let q = F._meta, J = q.ui, Z = q[D], $ = q;
  if (J?.resourceUri && !Z)
    $ = { ...q, [D]: J.resourceUri };
  else if (Z && !J?.resourceUri)
    $ = { ...q, ui: { ...J, resourceUri: Z } };
  return B.registerTool(Q, { ...F, _meta: $ }, V);
}
function createServer() {
  const server = new McpServer({ name: "Bundled", version: "1.0.0" });
  const resourceUri = "ui://b/app.html";
  j(server, "first", { title: "First", description: "One.", _meta: { ui: { resourceUri } } }, ${OK});
  j(server, "second", { description: "Two.", inputSchema: notStatic(), _meta: { [D]: resourceUri } }, ${OK});
  return server;
}
declare function notStatic(): never;
export { createServer };
`;
  const { result, tool, textOf } = analyze({ 'main.js': src }, 'main.js');
  assert.deepEqual(
    result.tools.map((t) => t.name.value),
    ['first', 'second'],
  );
  assert.deepEqual(tool('first').contract._meta, { ui: { resourceUri: 'ui://b/app.html' }, 'ui/resourceUri': 'ui://b/app.html' });
  assert.deepEqual(tool('first').unresolved, []);
  // The registration is the call into the helper; the name and description are where they are written.
  assert.equal(textOf(tool('first').registration.span).slice(0, 18), 'j(server, "first",');
  assert.equal(textOf(tool('first').name.span), '"first"');
  assert.equal(textOf(tool('first').description?.span), '"One."');
  assert.equal(tool('first').registration.configSpan, undefined); // a fix would edit the helper every call shares
  // The handler is the function written at the call (`V` bound to it): its facts are read there (no parameter: it
  // ignores its arguments, as show_threejs_scene's does).
  assert.equal(tool('first').handler?.ignoresArguments, true);
  // An unresolved sibling does not hide `_meta`: `F._meta` reads only that property of the literal.
  assert.deepEqual(tool('second').contract._meta, { 'ui/resourceUri': 'ui://b/app.html', ui: { resourceUri: 'ui://b/app.html' } });
  assert.deepEqual(
    tool('second').unresolved.map((u) => u.part),
    ['inputSchema'],
  );
});

test('locals assigned under a condition known only at run time stay unresolved, with the reason', () => {
  const src = `import { McpServer } from "@modelcontextprotocol/server";
function setup(server: McpServer, flag: boolean) {
  let description = "plain";
  if (flag) description = "flagged";
  let title = "T";
  if (1 > 0) title = "never read";
  let label = "before";
  label = "after";
  let note = "n";
  note = describe(note);
  server.registerTool("conditional", { description, title }, ${OK});
  server.registerTool("straight", { description: label }, ${OK});
  server.registerTool("called", { description: note }, ${OK});
}
declare function describe(s: string): string;
`;
  const { tool } = analyze({ 'main.ts': src });
  assert.match(tool('conditional').unresolved.find((u) => u.part === 'description')!.reason, /`description` is assigned under a condition known only at run time/);
  assert.ok(tool('conditional').unresolved.some((u) => u.part === 'title')); // `1 > 0` is not folded: unknown, not guessed
  // Straight-line assignments are read in order; one whose value is a call stays unresolved, with the call's reason.
  assert.equal(tool('straight').description?.value, 'after');
  assert.deepEqual(tool('straight').unresolved, []);
  assert.match(tool('called').unresolved[0].reason, /call of/);
});

test('the rules read app tools: description-missing on a registerAppTool; a fix edits its config literal', () => {
  const src =
    V2_HEAD +
    `registerAppTool(server, "show-chart", { inputSchema: z.object({ series: z.array(z.number()).describe("Values to plot") }), _meta: { ui: { resourceUri: uri } } }, ${OK});\n` +
    `registerAppTool(server, "delete-chart", { description: "Delete a saved chart by its id. Returns nothing.", inputSchema: z.object({ id: z.string().describe("Chart id") }), _meta: { ui: { resourceUri: uri } } }, ${OK});\n`;
  const analysis = analyse('/virtual/app.ts', src);
  const missing = analysis.findings.filter((f) => f.ruleId === 'description-missing');
  assert.deepEqual(
    missing.map((f) => f.tool),
    ['show-chart'],
  );
  const annotations = analysis.findings.find((f) => f.ruleId === 'annotations-missing' && f.tool === 'delete-chart');
  assert.ok(annotations, 'annotations-missing on the deleting app tool');
  const fix = annotations.fixes[0];
  assert.ok(fix, 'a quick fix');
  const edited = fix.edits.reduceRight((text, e) => text.slice(0, e.span.start) + e.newText + text.slice(e.span.end), src);
  assert.match(edited, /registerAppTool\(server, "delete-chart", \{ annotations: \{ [^}]*destructiveHint: true/);
});

test("a bundle's inlined zod: recognised from the bundler's module comments, converted with that release or unresolved", async () => {
  // A real esbuild bundle of a server importing `{ z }` (zod keeps its namespace object) and `* as z` (tree-shaken).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsmith-apps-'));
  const root = path.resolve(__dirname, '../../..');
  try {
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(
      path.join(dir, 'server.ts'),
      `import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
export function createServer() {
  const server = new McpServer({ name: "b", version: "1" });
  server.registerTool("kept", { description: "Namespace kept.", inputSchema: z.object({ q: z.string().describe("Query") }) }, async () => ({ content: [] }));
  return server;
}
`,
    );
    fs.writeFileSync(
      path.join(dir, 'shaken.ts'),
      `import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
export function createServer() {
  const server = new McpServer({ name: "b", version: "1" });
  server.registerTool("shaken", { description: "Namespace dropped.", inputSchema: z.object({ q: z.string() }) }, async () => ({ content: [] }));
  return server;
}
`,
    );
    await esbuild.build({
      entryPoints: [path.join(dir, 'server.ts'), path.join(dir, 'shaken.ts')],
      outdir: path.join(dir, 'dist'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      absWorkingDir: dir,
      logLevel: 'error',
    });
    const host = createFileHost();
    const predict = (name: string) => {
      const file = path.join(dir, 'dist', name);
      return analyzeTypeScript(file, fs.readFileSync(file, 'utf8'), host).tools;
    };
    const trusted = workspaceTrusted();
    setWorkspaceTrust(false);
    try {
      // zod inlined at Toolsmith's own release: its copy converts it, trusted or not.
      const [kept] = predict('server.js');
      assert.deepEqual(kept.unresolved, []);
      assert.deepEqual(kept.contract.inputSchema, {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { q: { type: 'string', description: 'Query' } },
        required: ['q'],
      });
      // `z.object` bundled as `object(...)`: which zod function that is cannot be told.
      const [shaken] = predict('shaken.js');
      assert.equal(shaken.name.value, 'shaken');
      assert.match(shaken.unresolved.find((u) => u.part === 'inputSchema')!.reason, /is a binding of the zod inlined in this bundle .* read without zod's namespace/);
      // Another release inlined, untrusted: unresolved, the releases named.
      const other = path.join(dir, 'dist', 'server.js');
      fs.writeFileSync(other, fs.readFileSync(other, 'utf8').replace(/(zod\/v4\/core\/versions\.js\nvar version = \{\n\s*major: 4,\n\s*minor: )\d+/, '$11'));
      const [older] = predict('server.js');
      assert.match(older.unresolved.find((u) => u.part === 'inputSchema')!.reason, /this bundle inlines zod 4\.1\.\d+, and Toolsmith's zod is 4\.\d+\.\d+ .*trust the workspace/);
      assert.ok(!loadedWorkspaceFiles().has(other), 'an untrusted analysis runs none of the bundle');
      // Trusted: the bundle's own zod modules run (the workspace's code, as its installed zod is for 1.x) and convert.
      setWorkspaceTrust(true);
      const [ran] = predict('server.js');
      assert.deepEqual(ran.unresolved, []);
      assert.deepEqual(ran.contract.inputSchema, kept.contract.inputSchema);
      assert.ok(loadedWorkspaceFiles().has(other));
    } finally {
      setWorkspaceTrust(trusted);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("resource-description-missing spares an MCP App view (registerAppResource's mime type), not another resource", () => {
  const src =
    V2_HEAD +
    `registerAppResource(server, uri, uri, { mimeType: RESOURCE_MIME_TYPE }, async () => ({ contents: [] }));
server.registerResource("notes", "notes://all", { mimeType: "text/plain" }, async () => ({ contents: [] }));
`;
  const findings = analyse('/virtual/app-resources.ts', src).findings.filter((f) => f.ruleId === 'resource-description-missing');
  assert.equal(findings.length, 1);
  assert.match(findings[0].message, /Resource "notes"/);
});

test("registerAppResource publishes what registerResource publishes, with ext-apps' default mime type", () => {
  const src =
    V2_HEAD +
    `registerAppResource(server, "Demo View", uri, { description: "The demo's UI." }, async () => ({ contents: [] }));
registerAppResource(server, "Plain", "ui://demo/plain.html", { mimeType: "text/html" }, async () => ({ contents: [] }));
`;
  const { result } = analyze({ 'main.ts': src });
  assert.equal(result.tools.length, 0);
  assert.deepEqual(
    (result.resources ?? []).map((r) => r.contract),
    [
      { name: 'Demo View', uri: 'ui://demo/view.html', mimeType: 'text/html;profile=mcp-app', description: "The demo's UI." },
      { name: 'Plain', uri: 'ui://demo/plain.html', mimeType: 'text/html' },
    ],
  );
  for (const r of result.resources ?? []) assert.deepEqual(r.unresolved, []);
});

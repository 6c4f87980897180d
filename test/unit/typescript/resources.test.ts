/**
 * Resource registrations in the TypeScript front-end: what is recognised as a resource or a template, where its parts
 * are written, and what stays unresolved or makes the SDK throw (the live lists of both SDK lines are
 * test/fidelity/resources.test.ts).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze } from './helpers';
import { registryOrder } from '../../../server/src/contract/typescript/resources';

const V1 = `import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";\nconst server = new McpServer({ name: "r", version: "1.0.0" });\nconst read = async (uri) => ({ contents: [] });\n`;
const V2 = `import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";\nconst server = new McpServer({ name: "r", version: "1.0.0" });\nconst read = async (uri) => ({ contents: [] });\n`;
const pkg = (name: string, version: string) => JSON.stringify({ name, version });
const SDK = (v: string) => ({ 'node_modules/@modelcontextprotocol/sdk/package.json': pkg('@modelcontextprotocol/sdk', v) });
const SERVER = { 'node_modules/@modelcontextprotocol/server/package.json': pkg('@modelcontextprotocol/server', '2.4.0') };

test('resources: static URIs and templates, through helpers, with their spans; resource() of another library is no resource', () => {
  const main =
    V1 +
    `import { registerMore } from "./more";\n` +
    `server.registerResource("readme", "docs://readme", { description: "The README.", mimeType: "text/markdown" }, read);\n` +
    `registerMore(server);\n` +
    `router.resource("users", controller, { only: ["index"] });\n`;
  const more = `import { ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport function registerMore(s) {\n  s.resource("user", new ResourceTemplate("users://{id}", { list: undefined }), async () => ({ contents: [] }));\n}\n`;
  const { result, textOf } = analyze({ 'main.ts': main, 'more.ts': more, ...SDK('1.32.2') });
  const resources = result.resources ?? [];
  assert.deepEqual(
    resources.map((r) => [r.kind, r.name.value, r.uri.value]),
    [
      ['resource', 'readme', 'docs://readme'],
      ['template', 'user', 'users://{id}'],
    ],
  );
  assert.equal(textOf(resources[0].uri.span), '"docs://readme"');
  assert.equal(textOf(resources[0].description?.span), '"The README."');
  assert.deepEqual(resources[1].contract, { name: 'user', uriTemplate: 'users://{id}' });
  assert.deepEqual(resources[1].unresolved, []);
});

test('resources: what the SDK throws on, or cannot be known, is unresolved with the reason', () => {
  const v1 = analyze({
    'main.ts':
      V1 +
      `server.registerResource("a", "docs://a", { description: describe(), mimeType: "text/plain" }, read);\n` +
      `server.registerResource("b", "docs://a", { description: "Twice." }, read);\n` +
      `server.registerResource("c", new ResourceTemplate("c://{id", { list: undefined }), {}, read);\n` +
      `for (const f of readdirSync(".")) server.registerResource(f, \`file:///\${f}\`, { description: "A file." }, read);\n` +
      `server.registerResource("d", new ResourceTemplate("d://{id}", { list: async () => ({ resources: [] }) }), { description: "D." }, read);\n`,
    ...SDK('1.32.2'),
  }).result.resources!;
  const byName = (n: string | undefined) => v1.find((r) => r.name.value === n)!;
  // One unreadable key: the others stay known.
  assert.deepEqual(byName('a').contract, { uri: 'docs://a', name: 'a', mimeType: 'text/plain' });
  assert.deepEqual(
    byName('a').unresolved.map((u) => u.part),
    ['description'],
  );
  assert.match(byName('b').unresolved.find((u) => u.part === 'resource')?.reason ?? '', /Resource docs:\/\/a is already registered/);
  assert.deepEqual(
    byName('c').throws?.map((t) => [t.part, t.message]),
    [['uriTemplate', 'Unclosed template expression']],
  );
  assert.match(v1.find((r) => r.name.value === undefined)?.unresolved.find((u) => u.part === 'loop')?.reason ?? '', /loop over a run-time value/);
  assert.match(byName('d').unresolved.find((u) => u.part === 'list')?.reason ?? '', /list callback returns at run time/);

  const old = analyze({ 'main.ts': V1 + `server.registerResource("a", "docs://a", {}, read);\nserver.resource("b", "docs://b", read);\n`, ...SDK('1.12.3') }).result.resources!;
  assert.match(old[0].unresolved.find((u) => u.part === 'resource')?.reason ?? '', /1\.12\.3 has no McpServer\.registerResource\(\) \(added in 1\.13\.0\)/);
  assert.deepEqual(old[1].unresolved, []);

  const v2 = analyze({
    'main.ts': V2 + `server.resource("old", "docs://old", read);\n` + `server.registerResource("hinted", "docs://h", { description: "H.", cacheHint: { ttlMs: 1.5 }, scopeChallenge: check }, read);\n`,
    ...SERVER,
  }).result.resources!;
  assert.match(v2[0].unresolved.find((u) => u.part === 'resource')?.reason ?? '', /no McpServer\.resource\(\) method \(removed in v2\)/);
  // cacheHint and scopeChallenge are read by the SDK, never listed; an unreadable scopeChallenge is no unresolved part.
  assert.deepEqual(v2[1].contract, { uri: 'docs://h', name: 'hinted', description: 'H.' });
  assert.deepEqual(
    v2[1].throws?.map((t) => t.part),
    ['cacheHint'],
  );
  assert.match(v2[1].throws[0].message, /ttlMs must be a non-negative safe integer \(got 1\.5\)/);
});

test('resources: the SDK lists each registry in Object.entries order (integer-like keys first)', () => {
  assert.deepEqual(
    registryOrder([
      { key: 'b', item: 1 },
      { key: '10', item: 2 },
      { key: undefined, item: 3 },
      { key: '2', item: 4 },
    ]),
    [4, 2, 1, 3],
  );
});

test('resources: a file without resources has no resources key', () => {
  const { result } = analyze({ 'main.ts': V1 + `server.registerTool("t", { description: "T." }, async () => ({ content: [] }));\n` });
  assert.equal('resources' in result, false);
});

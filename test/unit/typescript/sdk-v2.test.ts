/**
 * TypeScript SDK v2 (@modelcontextprotocol/server): which SDK a registration is predicted for, what its contract
 * holds where it differs from 1.x, and what stays unresolved (a version not modelled, the removed server.tool()).
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze } from './helpers';
import { FRAMEWORKS, tsV2ContractTraits, TS_SDK_V2_VERIFIED } from '../../../common/frameworks';

const V2_HEAD = `import { McpServer } from "@modelcontextprotocol/server";\nimport * as z from "zod/v4";\nconst server = new McpServer({ name: "demo", version: "1.0.0" });\n`;
const V1_HEAD = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport * as z from "zod/v4";\nconst server = new McpServer({ name: "demo", version: "1.0.0" });\n`;
const TOOL = `server.registerTool("search", { description: "Search.", inputSchema: { q: z.string() }, outputSchema: z.number() }, async () => ({ content: [] }));\n`;
const pkg = (name: string, version: string) => JSON.stringify({ name, version });

test('v2: a server constructed from @modelcontextprotocol/server gets the v2 contract (2020-12, no execution, wrapped output root)', () => {
  const { tool } = analyze({ 'main.ts': V2_HEAD + TOOL, 'node_modules/@modelcontextprotocol/server/package.json': pkg('@modelcontextprotocol/server', '2.4.0') });
  const t = tool('search');
  assert.equal(t.framework, 'ts-sdk-v2');
  assert.equal(t.frameworkVersion, '2.4.0');
  assert.deepEqual(t.unresolved, []);
  assert.equal(t.contract.execution, undefined);
  assert.deepEqual(t.contract.inputSchema, {
    type: 'object',
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    properties: { q: { type: 'string' } },
    required: ['q'],
  });
  const out = t.contract.outputSchema as Record<string, unknown>;
  assert.deepEqual(out.required, ['result']);
  assert.equal((out.properties as { result: { type: string } }).result.type, 'number');
});

test('v1 and v2 servers side by side in one monorepo are each predicted for their own SDK and version', () => {
  const files = {
    'packages/old/main.ts': V1_HEAD + TOOL.replace('outputSchema: z.number()', 'outputSchema: { n: z.number() }'),
    'packages/old/node_modules/@modelcontextprotocol/sdk/package.json': pkg('@modelcontextprotocol/sdk', '1.32.2'),
    'packages/new/main.ts': V2_HEAD + TOOL.replace('outputSchema: z.number()', 'outputSchema: { n: z.number() }'),
    'packages/new/package.json': JSON.stringify({ dependencies: { '@modelcontextprotocol/server': '^2.4.0' } }),
  };
  const old = analyze(files, 'packages/old/main.ts').tool('search');
  const neu = analyze(files, 'packages/new/main.ts').tool('search');
  assert.equal(old.framework, 'ts-sdk');
  assert.equal(old.frameworkVersion, '1.32.2');
  assert.deepEqual(old.contract.execution, { taskSupport: 'forbidden' });
  assert.match(String((old.contract.inputSchema as { $schema?: string }).$schema), /draft-07/);
  assert.equal(neu.framework, 'ts-sdk-v2');
  assert.equal(neu.frameworkVersion, '^2.4.0');
  assert.match(String((neu.contract.inputSchema as { $schema?: string }).$schema), /2020-12/);
  assert.equal(neu.contract.execution, undefined);
});

test('a helper that takes the server as a parameter is predicted for the SDK its file imports', () => {
  const { tool } = analyze({
    'main.ts': `import { McpServer } from "@modelcontextprotocol/server";\nimport { register } from "./tools";\nconst server = new McpServer({ name: "d", version: "1" });\nregister(server);\n`,
    'tools.ts': `import type { McpServer } from "@modelcontextprotocol/server";\nimport * as z from "zod/v4";\nexport function register(s: McpServer) {\n  s.registerTool("t", { inputSchema: { a: z.string() } }, async () => ({ content: [] }));\n}\n`,
  });
  assert.equal(tool('t').framework, 'ts-sdk-v2');
});

test('a v2 version newer than the one modelled, or a 1.x server package, leaves the contract unresolved naming package and version', () => {
  for (const [version, pattern] of [
    ['2.5.0', /@modelcontextprotocol\/server 2\.5\.0: the contract is modelled for 2\.0\.0 to 2\.4\.0 .*not predicted for 2\.5\.0/],
    ['3.0.0', /@modelcontextprotocol\/server 3\.0\.0: only 2\.x of this package is modelled/],
  ] as const) {
    const t = analyze({ 'main.ts': V2_HEAD + TOOL, 'node_modules/@modelcontextprotocol/server/package.json': pkg('@modelcontextprotocol/server', version) }).tool('search');
    const contract = t.unresolved.find((u) => u.part === 'contract');
    assert.ok(contract, `${version}: no unresolved contract part`);
    assert.match(contract.reason, pattern);
  }
  const v1 = analyze({ 'main.ts': V1_HEAD + TOOL, 'node_modules/@modelcontextprotocol/sdk/package.json': pkg('@modelcontextprotocol/sdk', '2.0.0') }).tool('search');
  assert.match(v1.unresolved.find((u) => u.part === 'contract')?.reason ?? '', /@modelcontextprotocol\/sdk 2\.0\.0: only 1\.x/);
});

test('v2: server.tool() (removed in v2) is unresolved; zod 3 fields and non-object input roots are refused as the SDK refuses them', () => {
  const { tool } = analyze({
    'main.ts':
      V2_HEAD +
      `import { z as z3 } from "zod/v3";\n` +
      `server.tool("old", "Old form.", { a: z.string() }, async () => ({ content: [] }));\n` +
      `server.registerTool("zod3", { inputSchema: { a: z3.string() } }, async () => ({ content: [] }));\n` +
      `server.registerTool("scalar", { inputSchema: z.string() }, async () => ({ content: [] }));\n`,
  });
  assert.match(
    tool('old')
      .unresolved.map((u) => u.reason)
      .join('\n'),
    /no McpServer\.tool\(\) method/,
  );
  assert.match(
    tool('zod3')
      .unresolved.map((u) => u.reason)
      .join('\n'),
    /must be Zod v4 schemas/,
  );
  assert.match(
    tool('scalar')
      .unresolved.map((u) => u.reason)
      .join('\n'),
    /must describe objects/,
  );
  assert.equal(tool('scalar').contract.inputSchema, undefined);
});

test('v2: icons are published; ArkType schemas are converted by ArkType', () => {
  const { tool } = analyze({
    'main.ts':
      V2_HEAD +
      `import { type } from "arktype";\n` +
      `server.registerTool("ark", { icons: [{ src: "https://x/i.png" }], inputSchema: type({ name: "string>0", "age?": "number.integer" }) }, async () => ({ content: [] }));\n`,
  });
  const t = tool('ark');
  assert.deepEqual(t.contract.icons, [{ src: 'https://x/i.png' }]);
  assert.deepEqual(t.contract.inputSchema, {
    type: 'object',
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer' } },
    required: ['name'],
  });
  assert.deepEqual(t.unresolved, []);
});

test('v2: Valibot converts through toStandardJsonSchema; a bare Valibot schema is refused as the SDK refuses it', () => {
  const { tool } = analyze({
    'main.ts':
      V2_HEAD +
      `import * as v from "valibot";\nimport { toStandardJsonSchema } from "@valibot/to-json-schema";\n` +
      `server.registerTool("wrapped", { inputSchema: toStandardJsonSchema(v.object({ q: v.pipe(v.string(), v.minLength(2)) })) }, async () => ({ content: [] }));\n` +
      `server.registerTool("bare", { inputSchema: v.object({ q: v.string() }) }, async () => ({ content: [] }));\n`,
  });
  assert.deepEqual(tool('wrapped').contract.inputSchema, {
    type: 'object',
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    properties: { q: { type: 'string', minLength: 2 } },
    required: ['q'],
  });
  assert.match(
    tool('bare')
      .unresolved.map((u) => u.reason)
      .join('\n'),
    /"valibot" does not implement StandardJSONSchemaV1/,
  );
  assert.equal(tool('bare').contract.inputSchema, undefined);
});

test('v2 releases: each verified or read release is predicted as itself; a prerelease, a later release or an open range is named unresolved', () => {
  const caveat = (v: string | undefined) => FRAMEWORKS['ts-sdk-v2'].versionCaveat(v);
  for (const v of [...TS_SDK_V2_VERIFIED, '2.3.0', '^2.0.0', '~2.3.0', undefined]) assert.equal(caveat(v), undefined, v);
  assert.equal(tsV2ContractTraits('2.0.0').release, '@modelcontextprotocol/server 2.0.0');
  assert.equal(tsV2ContractTraits('^2.1.0').release, '@modelcontextprotocol/server 2.4.0');
  assert.equal(tsV2ContractTraits('~2.3.0').release, '@modelcontextprotocol/server 2.3.x');
  assert.match(caveat('2.0.0-beta.5') ?? '', /2\.0\.0-beta\.5, a prerelease: .*not predicted/);
  assert.match(caveat('^2.5.0') ?? '', /modelled for 2\.0\.0 to 2\.4\.0 .*not predicted for \^2\.5\.0/);
  assert.match(caveat('>=2.0.0 <2.3.0') ?? '', /release it runs is not known; predicted as @modelcontextprotocol\/server 2\.4\.0/);
  // The one tools/list difference between the releases: a root $ref to an object definition is an object from 2.4.0.
  assert.equal(tsV2ContractTraits('2.3.1').outputRootFollowsRef, false);
  assert.equal(tsV2ContractTraits('2.4.0').outputRootFollowsRef, true);
  assert.equal(tsV2ContractTraits(undefined).outputRootFollowsRef, true);
});

test('v2 releases: a root $ref output is an object from 2.4.0; before, it is wrapped for 2025-era clients with its pointers moved under the wrapper', () => {
  const src =
    V2_HEAD +
    `const Category = z.object({ name: z.string(), children: z.array(z.lazy(() => Category)) });\n` +
    `server.registerTool("tree", { outputSchema: Category.optional() }, async () => ({ content: [] }));\n` +
    `server.registerTool("list", { outputSchema: z.array(Category) }, async () => ({ content: [] }));\n`;
  const at = (version: string) => analyze({ 'main.ts': src, 'node_modules/@modelcontextprotocol/server/package.json': pkg('@modelcontextprotocol/server', version) });
  const definition = {
    type: 'object',
    properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/__schema0' } } },
    required: ['name', 'children'],
    additionalProperties: false,
  };
  const $schema = 'https://json-schema.org/draft/2020-12/schema';
  const now = at('2.4.0');
  assert.deepEqual(now.tool('tree').unresolved, []);
  assert.deepEqual(now.tool('tree').contract.outputSchema, { type: 'object', $schema, $ref: '#/$defs/__schema0', $defs: { __schema0: definition } });
  const before = at('2.3.1');
  assert.deepEqual(before.tool('tree').unresolved, []);
  const moved = { ...definition, properties: { ...definition.properties, children: { type: 'array', items: { $ref: '#/properties/result/$defs/__schema0' } } } };
  assert.deepEqual(before.tool('tree').contract.outputSchema, {
    $schema,
    type: 'object',
    properties: { result: { $schema, $ref: '#/properties/result/$defs/__schema0', $defs: { __schema0: moved } } },
    required: ['result'],
  });
  // A non-object root is wrapped at every release, the same way.
  assert.deepEqual(now.tool('list').contract.outputSchema, before.tool('list').contract.outputSchema);
  assert.deepEqual((before.tool('list').contract.outputSchema as { properties: { result: { items: unknown } } }).properties.result.items, { $ref: '#/properties/result/$defs/__schema0' });
});

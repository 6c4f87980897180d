/**
 * @modelcontextprotocol/sdk 1.x release traits (common/frameworks.ts `tsContractTraits`), each boundary as read in the
 * SDK's own dist/cjs/server/mcp.js at that release, and what the contract builder makes of them. The version matrix
 * (test/fidelity/typescript-matrix.test.ts) checks them against live servers.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { FRAMEWORKS, tsContractTraits, TS_SDK_VERIFIED } from '../../../common/frameworks';
import { buildTsContract } from '../../../server/src/contract/typescript';
import { bundledLibraries } from '../../../server/src/contract/typescript/libraries';
import { analyzeTypeScript } from '../../../server/src/analysis/typescript';
import type { FileHost } from '../../../server/src/analysis/model';
import * as z3 from 'zod/v3';

test('each trait changes at the release whose source added it', () => {
  const boundaries: [keyof ReturnType<typeof tsContractTraits>, string, string][] = [
    ['annotations', '1.10.2', '1.11.0'],
    ['registerTool', '1.11.3', '1.11.4'],
    ['outputSchema', '1.11.3', '1.11.4'],
    ['title', '1.12.3', '1.13.0'],
    ['meta', '1.17.5', '1.18.0'],
    ['pipeStrategy', '1.20.1', '1.20.2'],
    ['acceptsSchemaObject', '1.21.2', '1.22.0'],
    ['execution', '1.23.1', '1.24.0'],
  ];
  for (const [trait, before, since] of boundaries) {
    assert.equal(tsContractTraits(before)[trait], false, `${trait} at ${before}`);
    assert.equal(tsContractTraits(since)[trait], true, `${trait} at ${since}`);
  }
  assert.equal(tsContractTraits('1.13.2').emptyInputSchema, 'type-only');
  assert.equal(tsContractTraits('1.13.3').emptyInputSchema, 'with-properties');
  assert.equal(tsContractTraits('1.22.0').conversion, 'zod-to-json-schema');
  assert.equal(tsContractTraits('1.23.0').conversion, 'zod-compat');
});

test('a range is predicted as what npm installs for it; an unknown release is unresolved for that version only', () => {
  assert.equal(tsContractTraits(undefined).release, '@modelcontextprotocol/sdk 1.32.2');
  assert.equal(tsContractTraits('^1.17.0').release, '@modelcontextprotocol/sdk 1.32.2');
  assert.equal(tsContractTraits('~1.17.0').release, '@modelcontextprotocol/sdk 1.17.x');
  assert.equal(tsContractTraits('~1.17.0').execution, false);
  const caveat = (v: string | undefined) => FRAMEWORKS['ts-sdk'].versionCaveat(v);
  for (const v of [...TS_SDK_VERIFIED, '1.19.1', '^1.10.0', '~1.24.0', undefined]) assert.equal(caveat(v), undefined, v);
  assert.match(caveat('1.9.0') ?? '', /modelled for 1\.10\.0 to 1\.32\.2 .*not predicted for 1\.9\.0/);
  assert.match(caveat('1.33.0') ?? '', /not predicted for 1\.33\.0/);
  assert.match(caveat('>=1.10 <1.20') ?? '', /release it runs is not known/);
  assert.match(caveat('2.0.0') ?? '', /only 1\.x of this package is modelled/);
});

test('the builder publishes what each release publishes', () => {
  const libs = bundledLibraries();
  const values = { name: 't', title: 'T', description: 'd', annotations: { readOnlyHint: true }, _meta: { k: 1 }, inputSchema: { a: z3.string() }, outputSchema: { b: z3.number() } };
  const at = (version: string, v: object = values) => buildTsContract({ ...values, ...v }, { inputResolved: true, outputResolved: true, target: { traits: tsContractTraits(version), libs } }).contract;
  assert.deepEqual(Object.keys(at('1.32.2')).sort(), ['_meta', 'annotations', 'description', 'execution', 'inputSchema', 'name', 'outputSchema', 'title']);
  assert.deepEqual(Object.keys(at('1.23.1')).sort(), ['_meta', 'annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']);
  assert.deepEqual(Object.keys(at('1.17.5')).sort(), ['annotations', 'description', 'inputSchema', 'name', 'outputSchema', 'title']);
  assert.deepEqual(Object.keys(at('1.12.3')).sort(), ['annotations', 'description', 'inputSchema', 'name', 'outputSchema']);
  assert.deepEqual(Object.keys(at('1.10.2')).sort(), ['description', 'inputSchema', 'name']);
  assert.deepEqual(at('1.13.2', { inputSchema: undefined }).inputSchema, { type: 'object' });
  assert.deepEqual(at('1.13.3', { inputSchema: undefined }).inputSchema, { type: 'object', properties: {} });
  // pipeStrategy: before 1.20.2 zod-to-json-schema's default ("all") publishes both sides of a pipe as allOf.
  const piped = { inputSchema: { p: z3.string().pipe(z3.string().min(2)) } };
  assert.ok('allOf' in ((at('1.20.1', piped).inputSchema as { properties: Record<string, object> }).properties.p ?? {}));
  assert.ok(!('allOf' in ((at('1.20.2', piped).inputSchema as { properties: Record<string, object> }).properties.p ?? {})));
});

test('a registration the release does not have is unresolved, not guessed', () => {
  // Before 1.23 zod 3 only: the workspace installs zod 3.25 (a bare "zod" import is zod 3).
  const host = (sdk: string): FileHost => ({
    readFile: (f) =>
      f === '/w/node_modules/@modelcontextprotocol/sdk/package.json' ? JSON.stringify({ version: sdk }) : f === '/w/node_modules/zod/package.json' ? JSON.stringify({ version: '3.25.76' }) : undefined,
    fileExists: () => false,
  });
  const src = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "s", version: "1" });
server.registerTool("reg", { description: "d", inputSchema: { a: z.string() } }, async () => ({ content: [] }));
server.tool("annotated", "d", { readOnlyHint: true }, async () => ({ content: [] }));
server.registerTool("object_input", { description: "d", inputSchema: z.object({ a: z.string() }) }, async () => ({ content: [] }));
`;
  const old = analyzeTypeScript('/w/server.ts', src, host('1.10.2')).tools;
  assert.match(old[0].unresolved.map((u) => u.reason).join('\n'), /has no McpServer\.registerTool\(\)/);
  assert.match(old[1].unresolved.map((u) => u.reason).join('\n'), /has no annotations argument/);
  const mid = analyzeTypeScript('/w/server.ts', src, host('1.17.5')).tools;
  assert.deepEqual(mid[0].unresolved, []);
  assert.match(mid[2].unresolved.map((u) => u.reason).join('\n'), /takes a raw shape only/);
  const now = analyzeTypeScript('/w/server.ts', src, host('1.32.2')).tools;
  assert.deepEqual(
    now.map((t) => t.unresolved),
    [[], [], []],
  );
});

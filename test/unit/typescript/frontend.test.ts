/**
 * The TypeScript front-end, construct by construct: what a rule, a quick fix or the preview reads from a
 * ToolDefinition (values, spans, unresolved parts, handler facts). Sources are small in-memory workspaces.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeTypeScript } from '../../../server/src/analysis/typescript';
import { createFileHost } from '../../../server/src/host';
import type { FileHost } from '../../../server/src/analysis/model';
import { HEAD, ROOT, analyze } from './helpers';

test('registerTool: name, title, description and config spans point at the literals', () => {
  const src = HEAD + `server.registerTool("get_user", { title: "Get user", description: "Fetch one user.", inputSchema: { id: z.string() } }, async () => ({ content: [] }));\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const t = tool('get_user');
  assert.equal(textOf(t.name.span), '"get_user"');
  assert.equal(t.title?.value, 'Get user');
  assert.equal(textOf(t.title.span), '"Get user"');
  assert.equal(t.description?.value, 'Fetch one user.');
  assert.equal(t.description?.origin, 'explicit');
  assert.equal(t.registration.kind, 'registerTool');
  assert.equal(textOf(t.registration.calleeSpan), 'server.registerTool');
  assert.ok(textOf(t.registration.configSpan).startsWith('{ title:'));
  assert.equal(t.framework, 'ts-sdk');
  assert.deepEqual(t.unresolved, []);
});

test('description through a const imported from another file: the span is in that file, the dependency is listed', () => {
  const files = {
    'main.ts': HEAD + `import { DESC } from "./texts.js";\nserver.registerTool("a_tool", { description: DESC + " More." }, async () => ({ content: [] }));\n`,
    'texts.ts': `export const DESC = ["Line one.", "Line two."].join("\\n");\n`,
  };
  const { tool, result } = analyze(files);
  const t = tool('a_tool');
  assert.equal(t.description?.value, 'Line one.\nLine two. More.');
  assert.deepEqual(result.files[0].dependencies, [path.join(ROOT, 'texts.ts')]);
  const plain = analyze({ ...files, 'main.ts': HEAD + `import { DESC } from "./texts.js";\nserver.registerTool("b_tool", { description: DESC }, async () => ({ content: [] }));\n` });
  const b = plain.tool('b_tool');
  assert.equal(b.description?.span.file, path.join(ROOT, 'texts.ts'));
  assert.equal(plain.textOf(b.description.span), '["Line one.", "Line two."].join("\\n")');
});

test('parameters: name/type spans, required, constraints with spans, description origin, default, untyped', () => {
  const src =
    HEAD +
    `server.registerTool("search", { description: "Search.", inputSchema: {
  query: z.string().min(1).max(200).describe("Free text"),
  limit: z.number().int().min(1).max(50).default(10),
  tags: z.array(z.string()).max(5).optional(),
  label: z.string().meta({ title: "Label", description: "Shown to people" }),
  anything: z.any(),
} }, async () => ({ content: [] }));\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const t = tool('search');
  const p = Object.fromEntries(t.parameters.map((x) => [x.name, x]));
  assert.deepEqual(Object.keys(p), ['query', 'limit', 'tags', 'label', 'anything']);
  assert.equal(textOf(p.query.nameSpan), 'query');
  assert.equal(textOf(p.query.typeSpan), 'z.string().min(1).max(200).describe("Free text")');
  assert.equal(p.query.required, true);
  assert.equal(p.limit.required, false);
  assert.deepEqual(p.query.schema, { type: 'string', minLength: 1, maxLength: 200, description: 'Free text' });
  const max = p.query.constraints.find((c) => c.keyword === 'maxLength');
  assert.equal(max?.value, 200);
  assert.equal(textOf(max.span), 'max(200)');
  assert.equal(p.query.description?.origin, 'describe');
  assert.equal(textOf(p.query.description.span), '"Free text"');
  assert.deepEqual(
    p.limit.constraints.map((c) => [c.keyword, c.value]),
    [
      ['type', 'integer'],
      ['minimum', 1],
      ['maximum', 50],
      ['default', 10],
    ],
  );
  assert.equal(p.limit.defaultValue?.value, 10);
  assert.equal(textOf(p.limit.defaultValue.span), '10');
  assert.equal(p.limit.description, undefined);
  assert.deepEqual(
    p.tags.constraints.map((c) => c.keyword),
    ['maxItems'],
  );
  assert.equal(p.label.description?.origin, 'meta');
  assert.equal(p.label.description?.value, 'Shown to people');
  assert.equal(p.anything.untyped, true);
  assert.equal(p.query.untyped, false);
});

test('parameters of a schema built in another file keep their spans there (extend, spread of .shape)', () => {
  const files = {
    'main.ts':
      HEAD +
      `import { Base } from "./schemas";\nserver.registerTool("ext", { inputSchema: Base.extend({ extra: z.boolean() }) }, async () => ({ content: [] }));\nserver.registerTool("spr", { inputSchema: { ...Base.shape, more: z.number() } }, async () => ({ content: [] }));\n`,
    'schemas/index.ts': `import { z } from "zod";\nexport const Base = z.object({ id: z.string().uuid().describe("Id") });\n`,
  };
  const { tool, textOf } = analyze(files);
  for (const name of ['ext', 'spr']) {
    const t = tool(name);
    const id = t.parameters.find((x) => x.name === 'id')!;
    assert.equal(id.nameSpan.file, path.join(ROOT, 'schemas/index.ts'));
    assert.equal(textOf(id.nameSpan), 'id');
    assert.deepEqual(id.schema, { type: 'string', format: 'uuid', pattern: id.schema!.pattern, description: 'Id' });
    assert.ok(id.constraints.some((c) => c.keyword === 'format' && c.value === 'uuid'));
    assert.equal(t.parameters.length, 2);
  }
});

test('annotations entries carry key and value spans', () => {
  const src = HEAD + `server.registerTool("del", { description: "Delete.", annotations: { destructiveHint: true, readOnlyHint: false } }, async () => ({ content: [] }));\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const a = tool('del').annotations!;
  assert.deepEqual(
    a.entries.map((e) => [e.key, e.value]),
    [
      ['destructiveHint', true],
      ['readOnlyHint', false],
    ],
  );
  assert.equal(textOf(a.entries[0].keySpan), 'destructiveHint');
  assert.equal(textOf(a.entries[0].span), 'destructiveHint: true');
  assert.deepEqual(tool('del').contract.annotations, { destructiveHint: true, readOnlyHint: false });
});

test('server.tool overloads: the overload is recorded and the description origin is "argument"', () => {
  const src =
    HEAD +
    `server.tool("a", async () => ({ content: [] }));
server.tool("b", "Desc b.", { x: z.string() }, { readOnlyHint: true }, async () => ({ content: [] }));
server.tool("c", { y: z.number() }, async () => ({ content: [] }));
server.tool("d", "Desc d.", { title: "D" }, async () => ({ content: [] }));\n`;
  const { tool } = analyze({ 'main.ts': src });
  assert.deepEqual(tool('a').registration.overload, ['name', 'callback']);
  assert.deepEqual(tool('b').registration.overload, ['name', 'description', 'paramsSchema', 'annotations', 'callback']);
  assert.deepEqual(tool('c').registration.overload, ['name', 'paramsSchema', 'callback']);
  assert.deepEqual(tool('d').registration.overload, ['name', 'description', 'annotations', 'callback']);
  assert.equal(tool('b').description?.origin, 'argument');
  assert.equal(tool('b').registration.kind, 'tool');
  assert.deepEqual(tool('d').contract.annotations, { title: 'D' });
  assert.deepEqual(tool('a').contract.inputSchema, { type: 'object', properties: {} });
});

test('a server passed to a helper in another file keeps the identity of the server that was passed', () => {
  const files = {
    'main.ts': HEAD + `import { registerAll } from "./tools.js";\nserver.registerTool("first", {}, async () => ({ content: [] }));\nregisterAll(server);\n`,
    'tools.ts': `import { z } from "zod";\nexport function registerAll(s) {\n  s.registerTool("second", { inputSchema: { q: z.string() } }, async () => ({ content: [] }));\n}\n`,
  };
  const { result } = analyze(files);
  assert.deepEqual(
    result.tools.map((t) => t.name.value),
    ['first', 'second'],
  );
  const [a, b] = result.tools;
  assert.equal(a.server.id, b.server.id);
  assert.equal(a.server.name, 'demo');
  assert.equal(b.file, path.join(ROOT, 'tools.ts'));
  assert.deepEqual(
    result.files[0].servers.map((s) => s.name),
    ['demo'],
  );
  // The helper analysed on its own: the tool is found, on the parameter.
  const alone = analyze(files, 'tools.ts');
  assert.deepEqual(
    alone.result.tools.map((t) => t.name.value),
    ['second'],
  );
  assert.equal(alone.result.tools[0].server.variable, 's');
});

test('inputSchema that is not an object is flagged and published as an empty object, like the SDK', () => {
  const src = HEAD + `server.registerTool("s", { inputSchema: z.string() }, async () => ({ content: [] }));\n`;
  const t = analyze({ 'main.ts': src }).tool('s');
  assert.equal(t.inputSchemaNotObject, true);
  assert.deepEqual(t.contract.inputSchema, { type: 'object', properties: {} });
});

test('what cannot be resolved statically is reported with a span and a reason, never guessed', () => {
  const src =
    HEAD +
    `declare function makeName(): string;
let mutable = "changes";
export function reset() { mutable = "changed"; }
server.registerTool(makeName(), { description: process.env.DESC }, async () => ({ content: [] }));
server.registerTool("from_let", { description: mutable }, async () => ({ content: [] }));
server.registerTool("unknown_method", { inputSchema: { a: z.string().someFancyThing() } }, async () => ({ content: [] }));\n`;
  const { result, textOf, tool } = analyze({ 'main.ts': src });
  const first = result.tools[0];
  assert.equal(first.name.value, undefined);
  assert.equal(first.name.unresolved?.part, 'name');
  assert.equal(textOf(first.name.unresolved.span), 'makeName()');
  assert.ok(first.unresolved.some((u) => u.part === 'description'));
  const fromLet = tool('from_let');
  assert.match(fromLet.unresolved[0].reason, /`mutable` is a `let` assigned after its declaration/);
  assert.equal(fromLet.description?.value, undefined);
  const um = tool('unknown_method');
  assert.equal(um.unresolved[0].part, 'inputSchema');
  assert.match(um.unresolved[0].reason, /someFancyThing/);
  assert.equal(um.contract.inputSchema, undefined, 'an unresolved input schema is left out of the contract, not guessed');
  assert.equal(um.parameters[0].name, 'a');
});

test('unrepresentable zod is listed; where the SDK cannot publish it, the schema is unresolved', () => {
  const src =
    HEAD +
    `server.registerTool("dates", { inputSchema: { when: z.date(), n: z.bigint() } }, async () => ({ content: [] }));
server.registerTool("xf", { inputSchema: { s: z.string().transform((x) => x.length) }, outputSchema: { o: z.string().transform((x) => x.length) } }, async () => ({ content: [] }));\n`;
  const { tool } = analyze({ 'main.ts': src });
  const d = tool('dates');
  assert.deepEqual(
    d.unrepresentable.map((u) => u.construct),
    ['z.date()', 'z.bigint()'],
  );
  assert.equal(d.contract.inputSchema, undefined);
  assert.match(d.unresolved[0].reason, /cannot be represented/);
  const xf = tool('xf');
  // The SDK publishes the input side of a transform in an inputSchema; only the outputSchema conversion fails.
  assert.deepEqual(
    xf.unrepresentable.map((u) => u.construct),
    ['.transform()'],
  );
  assert.ok(xf.unrepresentable[0].span.start > src.indexOf('outputSchema'), 'the transform listed is the one in outputSchema');
  assert.deepEqual(xf.contract.inputSchema, { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { s: { type: 'string' } }, required: ['s'] });
  assert.equal(xf.contract.outputSchema, undefined);
  assert.ok(xf.unresolved.some((u) => u.part === 'outputSchema'));
});

test('zod 4: unrepresentable lists exactly what makes the SDK conversion fail, in its io mode, where it is written', () => {
  const src =
    HEAD +
    `const When = z.date();
server.registerTool("formats", { inputSchema: { d: z.iso.date(), dt: z.iso.datetime(), t: z.iso.time(), du: z.iso.duration(), sd: z.string().date(), pre: z.preprocess((x) => x, z.string()), sb: z.stringbool(), tr: z.string().transform((x) => x.length) }, outputSchema: { d: z.iso.date(), n: z.string().transform((x) => Number(x)).pipe(z.number()), f: z.file() } }, async () => ({ content: [] }));
server.registerTool("bad", { inputSchema: { a: When.describe("A day").optional(), b: z.string(), c: z.int64(), d: z.undefined(), e: z.custom() } }, async () => ({ content: [] }));
server.registerTool("badout", { inputSchema: { a: z.string() }, outputSchema: { p: z.string().pipe(z.transform((x) => x.length)), m: z.map(z.string(), z.string()) } }, async () => ({ content: [] }));\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const f = tool('formats');
  assert.deepEqual(f.unrepresentable, [], 'ISO formats, string formats, preprocess, stringbool, input-side transforms and transform().pipe() all convert');
  assert.equal((f.contract.inputSchema as { properties: Record<string, { format?: string }> }).properties.d.format, 'date');
  assert.deepEqual(f.unresolved, []);
  const bad = tool('bad');
  assert.deepEqual(
    bad.unrepresentable.map((u) => [u.construct, textOf(u.span)]),
    [
      ['z.date()', 'z.date()'],
      ['z.int64()', 'z.int64()'],
      ['z.undefined()', 'z.undefined()'],
      ['z.custom()', 'z.custom()'],
    ],
  );
  assert.equal(bad.contract.inputSchema, undefined);
  const out = tool('badout');
  assert.deepEqual(
    out.unrepresentable.map((u) => [u.construct, textOf(u.span)]),
    [
      ['z.transform()', 'z.transform((x) => x.length)'],
      ['z.map()', 'z.map(z.string(), z.string())'],
    ],
  );
  assert.ok(out.contract.inputSchema, 'the input schema is still published');
  assert.equal(out.contract.outputSchema, undefined);
});

test('user code is never run: functions in defaults are folded only when they are a static expression', () => {
  const g = globalThis as { toolsmithHacked?: number };
  delete g.toolsmithHacked;
  const src = HEAD + `server.registerTool("t", { inputSchema: { a: z.number().default(() => (globalThis.toolsmithHacked = 1)), b: z.number().default(() => 7) } }, async () => ({ content: [] }));\n`;
  const t = analyze({ 'main.ts': src }).tool('t');
  assert.equal(g.toolsmithHacked, undefined);
  assert.equal(t.unresolved[0].part, 'inputSchema');
  const ok = analyze({ 'main.ts': HEAD + `server.registerTool("t", { inputSchema: { b: z.number().default(() => 7) } }, async () => ({ content: [] }));\n` }).tool('t');
  assert.deepEqual(ok.parameters[0].schema, { type: 'number', default: 7 });
});

test('handler facts: calls, parameters reaching them, shell, awaits, returns, leaks, containment', () => {
  const src =
    HEAD +
    `import * as fs from "node:fs";
import { exec } from "node:child_process";
import path from "node:path";
server.registerTool("read_file", { inputSchema: { file: z.string(), cmd: z.string() } }, async ({ file, cmd }) => {
  const full = path.resolve("/root", file);
  if (!full.startsWith("/root")) return { content: [{ type: "text", text: "Error: outside root" }] };
  exec(cmd, { shell: true });
  try {
    const data = fs.readFileSync(full, "utf8");
    await fetch("https://example.com");
    return { content: [{ type: "text", text: data }], structuredContent: { data } };
  } catch (err) {
    return { content: [{ type: "text", text: String(err) }], isError: true };
  }
});
server.registerTool("plain", {}, () => ({ content: [{ type: "text", text: JSON.stringify({ error: "nope" }) }] }));\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const h = tool('read_file').handler!;
  assert.equal(h.isAsync, true);
  const read = h.calls.find((c) => c.callee === 'fs.readFileSync')!;
  assert.deepEqual(read.paramsInArgs, ['file']);
  const ex = h.calls.find((c) => c.callee === 'child_process.exec')!;
  assert.equal(ex.shell, true);
  assert.deepEqual(ex.paramsInArgs, ['cmd']);
  assert.equal(h.calls.find((c) => c.callee === 'fetch')!.awaited, true);
  assert.equal(h.hasPathContainmentCheck, true);
  assert.equal(h.returns.length, 3);
  const [outside, success, failure] = h.returns;
  assert.equal(outside.looksLikeError, true);
  assert.deepEqual(outside.texts, ['Error: outside root']);
  assert.equal(outside.isError, undefined);
  assert.deepEqual(success.keys, ['content', 'structuredContent']);
  assert.equal(success.hasStructuredContent, true);
  assert.equal(success.hasTextContent, true);
  assert.equal(success.valueKind, 'object');
  assert.equal(failure.isError, true);
  assert.equal(failure.leaks[0].kind, 'stringified-error');
  assert.equal(textOf(failure.leaks[0].span), 'String(err)');
  assert.equal(src.slice(success.objectEndOffset! - 1, success.objectEndOffset), '}');
  const plain = tool('plain').handler!;
  assert.equal(plain.isAsync, false);
  assert.equal(plain.returns.length, 1);
  assert.equal(plain.returns[0].looksLikeError, true);
  assert.equal(plain.hasPathContainmentCheck, false);
});

test('half-typed code never throws and reports syntax errors', () => {
  const src = HEAD + `server.registerTool("half", { description: "x", inputSchema: { a: z.string().max(`;
  const { result } = analyze({ 'main.ts': src });
  assert.ok(result.files[0].syntaxErrors.length > 0);
  assert.equal(result.tools.length, 1);
  assert.equal(result.tools[0].name.value, 'half');
});

test('workspace versions: the SDK version is read from the workspace, zod 3 folders are zod 3', () => {
  const root = path.resolve(__dirname, '../../..');
  const host = createFileHost();
  const file = path.join(root, 'test/fixtures/ts/basic-literals.ts');
  const r = analyzeTypeScript(file, host.readFile(file)!, host);
  const installed = JSON.parse(host.readFile(path.join(root, 'node_modules/@modelcontextprotocol/sdk/package.json'))!) as { version: string };
  assert.match(installed.version, /^1\.32\./);
  assert.equal(r.tools[0].frameworkVersion, installed.version);
  // zod 3 semantics for a bare "zod" import in a folder whose package.json pins zod 3: the v3 converter adds
  // additionalProperties: false to input objects, the zod 4 converter does not.
  const pinned: FileHost = {
    readFile: (f) =>
      f === '/z3/package.json'
        ? '{"dependencies":{"zod":"3.25.76"}}'
        : f === '/z3/main.ts'
          ? HEAD + `server.registerTool("x", { inputSchema: { a: z.string() } }, async () => ({ content: [] }));`
          : undefined,
    fileExists: (f) => f === '/z3/package.json' || f === '/z3/main.ts',
  };
  const z3 = analyzeTypeScript('/z3/main.ts', pinned.readFile('/z3/main.ts')!, pinned);
  assert.equal((z3.tools[0].contract.inputSchema as { additionalProperties?: unknown }).additionalProperties, false);
  const z4 = analyze({ 'main.ts': HEAD + `server.registerTool("x", { inputSchema: { a: z.string() } }, async () => ({ content: [] }));` });
  assert.equal((z4.result.tools[0].contract.inputSchema as { additionalProperties?: unknown }).additionalProperties, undefined);
});

test('a contract changed by whoever reads it does not leak into the next analysis (the schema cache keeps its own copy)', () => {
  const text = `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "b", version: "1" });
server.registerTool("t", { inputSchema: { q: z.string().describe("Q") } }, async () => ({ content: [] }));
`;
  const host: FileHost = { readFile: () => undefined, fileExists: () => false };
  const file = path.join(ROOT, '__cache_copy__.ts');
  const first = analyzeTypeScript(file, text, host);
  const props = (first.tools[0].contract.inputSchema as { properties: Record<string, { description?: string }> }).properties;
  props.q.description = 'changed by a reader';
  // Another text, same schema expression: the converted schema comes from the cache.
  const second = analyzeTypeScript(file, text + '\n// edited\n', host);
  assert.equal((second.tools[0].contract.inputSchema as { properties: Record<string, { description?: string }> }).properties.q.description, 'Q');
});

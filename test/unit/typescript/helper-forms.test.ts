/**
 * The evaluator on what bundled and helper-heavy servers write (the real-world corpus: figma-developer-mcp's esbuild
 * output, context7's `z.preprocess(aliasArgs(...), ...)`): `let`/`var` never assigned again, helper functions whose
 * body is one returned expression, helper-built functions in preprocess/refine/transform, `||` and `&&`. What still
 * depends on run time stays unresolved, with the reason.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { analyze, HEAD } from './helpers';

const OK = 'async () => ({ content: [] })';

test('a `var`/`let` that nothing assigns again is read like a const; one assigned, redeclared or read before it runs is not', () => {
  const src =
    HEAD +
    `var TOOL = { name: "bundled", description: "From a var." };
let later = "x";
var twice = "a";
var twice = "b";
let bumped = 1;
function bump() { bumped++; }
let swapped = "a";
function swap() { [swapped] = ["b"]; }
server.registerTool(TOOL.name, { description: TOOL.description }, ${OK});
server.registerTool("redeclared", { description: twice }, ${OK});
server.registerTool("incremented", { description: "n", inputSchema: { n: z.number().max(bumped) } }, ${OK});
server.registerTool("destructured", { description: swapped }, ${OK});
server.registerTool("early", { description: early }, ${OK});
var early = "not yet";
server.registerTool("shadowed", { description: later }, ${OK});
var PATCHED = { text: "before" };
function patch() { PATCHED.text = "after"; }
var filled = {};
declare function fill(o: object): void;
fill(filled);
var list: string[] = [];
list.push("x");
var PASSED = { text: "kept" };
server.registerTool("patched", { description: PATCHED.text }, ${OK});
server.registerTool("filled", { description: filled.text }, ${OK});
server.registerTool("pushed", { description: list.join(",") }, ${OK});
server.registerTool("passed", { description: PASSED.text, annotations: fill(PASSED) }, ${OK});
function other() { let later = 1; later = 2; return later; }\n`;
  const { tool } = analyze({ 'main.ts': src });
  assert.equal(tool('bundled').description?.value, 'From a var.');
  assert.deepEqual(tool('bundled').unresolved, []);
  assert.match(tool('redeclared').unresolved[0].reason, /`twice` is a `var` assigned after its declaration/);
  assert.match(tool('incremented').unresolved[0].reason, /`bumped` is a `let` assigned after its declaration/);
  assert.match(tool('destructured').unresolved[0].reason, /`swapped` is a `let` assigned/);
  assert.match(tool('early').unresolved[0].reason, /`early` is read before its `var` declaration runs/);
  // An assignment to another binding of the same name (a local `let` of a function) does not count.
  assert.equal(tool('shadowed').description?.value, 'x');
  // A member written, or an empty object / array handed to a call (`__export(ns, ...)`, `push`), is not a const's value.
  assert.match(tool('patched').unresolved[0].reason, /`PATCHED` is a `var` assigned after its declaration/);
  assert.match(tool('filled').unresolved[0].reason, /`filled` is a `var` assigned after its declaration/);
  assert.match(tool('pushed').unresolved[0].reason, /`list` is a `var` assigned after its declaration/);
  // A literal with contents passed to a call stays read (a registration passes its config object by name).
  assert.equal(tool('passed').description?.value, 'kept');
});

test('a helper function whose body is one returned expression is evaluated with its arguments bound', () => {
  const src =
    HEAD +
    `function text(description: string, max = 200) { return z.string().max(max).describe(description); }
const count = (d: string) => z.number().int().min(1).describe(d);
function named(override?: string) { return override || "default_name"; }
function busy() { const s = z.string(); return s; }
function branchy(x: boolean) { if (x) return z.string(); return z.number(); }
async function later() { return z.string(); }
function loop(n: number): unknown { return loop(n); }
server.registerTool(named(), { inputSchema: { q: text("Query", 50), n: count("How many").optional(), r: text("Rest") } }, ${OK});
server.registerTool(named("given"), { inputSchema: { a: busy() } }, ${OK});
server.registerTool("branchy", { inputSchema: { a: branchy(true) } }, ${OK});
server.registerTool("async_helper", { inputSchema: { a: later() } }, ${OK});
server.registerTool("recursive", { inputSchema: { a: loop(1) } }, ${OK});
server.registerTool("param_of_caller", { inputSchema: { a: text(process.env.X) } }, ${OK});\n`;
  const { tool } = analyze({ 'main.ts': src });
  const t = tool('default_name');
  assert.deepEqual(t.unresolved, []);
  const props = (t.contract.inputSchema as { properties: Record<string, unknown>; required: string[] }).properties;
  assert.deepEqual(props.q, { type: 'string', maxLength: 50, description: 'Query' });
  assert.deepEqual(props.r, { type: 'string', maxLength: 200, description: 'Rest' });
  assert.deepEqual(props.n, { type: 'integer', minimum: 1, maximum: 9007199254740991, description: 'How many' });
  // Consts then one return is read straight through; a branch is code Toolsmith does not run.
  assert.deepEqual(tool('given').unresolved, []);
  assert.deepEqual((tool('given').contract.inputSchema as { properties: unknown }).properties, { a: { type: 'string' } });
  assert.match(tool('branchy').unresolved[0].reason, /call of `branchy`, a function whose body is not one returned expression/);
  assert.match(tool('async_helper').unresolved[0].reason, /async or generator/);
  assert.match(tool('recursive').unresolved[0].reason, /from inside itself/);
  assert.ok(tool('param_of_caller').unresolved.length > 0);
});

test('a function built by a helper, given to preprocess / refine / transform, does not hide the schema', () => {
  const src =
    HEAD +
    `declare function aliasArgs(a: object): (v: unknown) => unknown;
declare function check(): (v: string) => boolean;
server.registerTool("pre", { inputSchema: { q: z.preprocess(aliasArgs({ a: "b" }), z.string().describe("Q")), r: z.string().refine(check()).describe("R"), t: z.string().transform(aliasArgs({})) } }, ${OK});
server.registerTool("check_args", { inputSchema: { s: z.string().check(check()) } }, ${OK});\n`;
  const { tool } = analyze({ 'main.ts': src });
  const t = tool('pre');
  assert.deepEqual(t.unresolved, []);
  assert.deepEqual((t.contract.inputSchema as { properties: unknown }).properties, { q: { type: 'string', description: 'Q' }, r: { type: 'string', description: 'R' }, t: { type: 'string' } });
  // `.check()` also takes zod checks that change the schema (z.minLength(3)): its arguments are still evaluated.
  assert.match(tool('check_args').unresolved[0].reason, /call of `check`, a function declared without a body/);
});

test('a parameter left unbound names its function in the reason', () => {
  const src = HEAD + `function register(options: { dir?: string }) { server.registerTool("d", { description: "Saves to " + options.dir }, ${OK}); }\n`;
  const { tool } = analyze({ 'main.ts': src });
  assert.match(tool('d').unresolved[0].reason, /`options` is a parameter of function `register`: its value is known only at run time/);
});

test('a registration under a guard carries it as written; an unguarded one has none', () => {
  const src =
    HEAD +
    `declare const caps: { roots?: object; sampling?: object };
declare const opts: { skipImages?: boolean; mode?: string };
server.registerTool("always", {}, ${OK});
if (caps.roots !== undefined) server.registerTool("roots", {}, ${OK});
else server.registerTool("no_roots", {}, ${OK});
opts.skipImages || server.registerTool("images", {}, ${OK});
export function register() {
  if (!caps.sampling) return;
  server.registerTool("sampling", {}, ${OK});
}
switch (opts.mode) {
  case "full":
    server.registerTool("full_only", {}, ${OK});
}
server.registerTool("handler_has_if", {}, async () => { if (caps.roots) return { content: [] }; return { content: [] }; });\n`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  const guard = (name: string) => tool(name).registration.condition?.text;
  assert.equal(guard('always'), undefined);
  assert.equal(guard('roots'), 'caps.roots !== undefined');
  assert.equal(textOf(tool('roots').registration.condition?.span), 'caps.roots !== undefined');
  assert.equal(guard('no_roots'), '!(caps.roots !== undefined)');
  assert.equal(guard('images'), '!opts.skipImages');
  assert.equal(guard('sampling'), 'caps.sampling');
  assert.equal(guard('full_only'), 'opts.mode === "full"');
  assert.equal(guard('handler_has_if'), undefined);
});

test("a registration inside a helper the server is passed to, located at the call into it, keeps the guard written inside the helper (and the call's own)", () => {
  // server-everything's tools/get-roots-list.js: `if (clientSupportsRoots) { server.registerTool(name, ...) }` inside
  // `registerGetRootsListTool(server)`, which index.js calls unguarded (and a guarded call, for the joined case).
  const src =
    HEAD +
    `declare const beta: boolean;
function registerRoots(s: typeof server) {
  const caps = s.server.getClientCapabilities() || {};
  const clientSupportsRoots = caps.roots !== undefined;
  if (clientSupportsRoots) {
    s.registerTool("get-roots-list", { description: "Lists the roots the client provides." }, ${OK});
  }
}
function registerBeta(s: typeof server, name: string) {
  if (name.startsWith("x")) s.registerTool(name, { description: "Beta tool." }, ${OK});
}
registerRoots(server);
if (beta) registerBeta(server, "x_beta");
`;
  const { tool, textOf } = analyze({ 'main.ts': src });
  assert.equal(tool('get-roots-list').registration.condition?.text, 'clientSupportsRoots');
  assert.equal(textOf(tool('get-roots-list').registration.condition?.span), 'clientSupportsRoots');
  assert.equal(tool('x_beta').registration.condition?.text, 'beta && name.startsWith("x")');
});

/**
 * The TypeScript compiler API, imported once for the whole front-end. typescript.js is CommonJS: a bundle gives each
 * module that imports it its own ESM view, a copy of all ~2,250 exports as getters (esbuild's __toESM); six
 * importing modules made six copies at every start of the CLI and the language server. They import it from here.
 *
 * typescript.js itself exports every name as a getter on one object of ~2,250 properties (dictionary mode): each
 * `ts.isIdentifier(node)` was a hash lookup plus a getter call, ~200,000 of them in one analysis of a 5,000-line file.
 * The names the walks call (the `is*` tests and a few functions and enums) are copied once as plain properties of
 * an object whose prototype is the module: the same values, read like any small object's; every other name is
 * still found on the prototype.
 */
import tsModule from 'typescript';

const HOT = new Set(['forEachChild', 'getModifiers', 'canHaveModifiers', 'SyntaxKind', 'NodeFlags', 'ScriptKind', 'ScriptTarget', 'tokenToString']);
const ts = Object.create(tsModule) as typeof tsModule;
for (const name of Object.keys(tsModule)) {
  if (!HOT.has(name) && !/^is[A-Z]/.test(name)) continue;
  Object.defineProperty(ts, name, { value: (tsModule as unknown as Record<string, unknown>)[name], enumerable: true });
}

export default ts;

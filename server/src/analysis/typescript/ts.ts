/**
 * The TypeScript compiler API, imported once for the whole front-end. typescript.js is CommonJS: a bundle gives each
 * module that imports it its own ESM view, a copy of all ~2,250 exports as getters (esbuild's __toESM); six
 * importing modules made six copies at every start of the CLI and the language server. They import it from here.
 */
import ts from 'typescript';

export default ts;

// Entry of dist/tokenizer.js: the tokenizer and its 2.3 MB of ranks live in their own file, which the client loads
// on first use (see esbuild.mjs), so activation never reads or parses them.
export { Tiktoken } from 'js-tiktoken/lite';
export { default } from 'js-tiktoken/ranks/o200k_base';

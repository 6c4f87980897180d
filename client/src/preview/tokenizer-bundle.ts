// Entry of dist/tokenizer.js: the tokenizer and its 2.3 MB of ranks live in their own file, which the client requires
// on first use (see esbuild.mjs), so activation never reads or parses them.
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

export function createO200kEncoder(): Tiktoken {
  return new Tiktoken(o200kBase);
}

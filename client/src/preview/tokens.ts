/**
 * Token counting with a real BPE tokenizer: js-tiktoken with the o200k_base ranks bundled in the package (the
 * encoding of OpenAI's GPT-4o family; no network). Loaded on first use so the ranks (2.3 MB) cost nothing at activation.
 * vscode-free: unit tests use it as is.
 */
export const TOKEN_ENCODING = 'o200k_base';

export interface Tokenizer {
  encoding: string;
  count(text: string): number;
}

let loading: Promise<Tokenizer> | undefined;

export function getTokenizer(): Promise<Tokenizer> {
  loading ??= (async () => {
    // A plain require: in the bundle it becomes require('./tokenizer.js'), a file of its own (esbuild.mjs).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createO200kEncoder } = require('./tokenizer-bundle') as typeof import('./tokenizer-bundle');
    const enc = createO200kEncoder();
    // Contracts are plain text to the tokenizer: special-token strings inside a description count as text.
    return { encoding: TOKEN_ENCODING, count: (text: string) => enc.encode(text, [], []).length };
  })();
  return loading;
}

// ESLint: typescript-eslint's recommended-type-checked rules over every project of tsconfig.json (server, client,
// webview, common, test, bench) and the plain-JS build/test scripts. Run by `npm run lint` and first in `npm test`.
// Rules that find bugs stay on (floating/misused promises, await-thenable, unnecessary assertions, unbound methods, ...);
// each rule turned off or tuned below says why.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const unsafeAny = ['no-unsafe-argument', 'no-unsafe-assignment', 'no-unsafe-call', 'no-unsafe-member-access', 'no-unsafe-return'];
const off = (names) => Object.fromEntries(names.map((n) => [`@typescript-eslint/${n}`, 'off']));

export default defineConfig(
  {
    // Fixtures and examples are user code the analyser reads (their spans are pinned by test/golden), not ours.
    ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', 'test-results/**', 'examples/**', '**/fixtures/**', 'test/golden/**'],
  },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        // Each file is typed by the tsconfig that owns it (scripts/*.mjs by scripts/tsconfig.json); the root
        // config files by the default project.
        projectService: { allowDefaultProject: ['esbuild.mjs', 'eslint.config.mjs', '.dependency-cruiser.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] }],
      // Unused bindings are errors, except the `_`-named ones and the siblings of a rest (`const { a: _a, ...rest }`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `async` stubs and lazy loaders that must return a Promise have nothing to await; every finding was one of those.
      '@typescript-eslint/require-await': 'off',
      // The MCP SDK types McpError.code as a number and its codes as the ErrorCode enum: comparing them is the API.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // The TypeScript front-end throws Unresolvable (a reason with a span, not an Error) to unwind an evaluation.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'file', name: 'Unresolvable' }] }],
      // Every finding was String() of a JSON value narrowed from `unknown` to `{}` (a description, a type name, a
      // pattern) where a string is what the schema holds; the rule cannot see that.
      '@typescript-eslint/no-base-to-string': 'off',
      // The regexes with control characters mean them: Python's whitespace class, ANSI escape codes.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests and benchmarks read JSON output (JSON.parse, child process output) and check it with asserts: `any` there
    // is the value under test, not a leak.
    files: ['test/**', 'bench/**'],
    rules: off(unsafeAny),
  },
  {
    // Plain JS (not type-checked: checkJs is off), so every value the inference cannot see through is `any`.
    files: ['**/*.mjs', '**/*.cjs'],
    rules: off(unsafeAny),
  },
);

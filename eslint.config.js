// Flat config: typescript-eslint's recommended rules (syntax only, not the type-checked set: those
// need a full type-aware parse of every file) over src, test, bench and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // src/**/generated/: code written by scripts/gen-*.mjs (tests fail when it is stale), not by hand.
  { ignores: ['dist/', 'coverage/', '**/node_modules/', 'bench/results/', '.build/', '.measure/', 'src/**/generated/', 'test-results/', 'python/src/market_stub/_bundled/', 'python/dist/', '**/.venv*/', '.stryker-tmp/', 'reports/mutation/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', performance: 'readonly', fetch: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Only the CLI edge owns the process (a library that exits would end its caller's): no process.exit anywhere in src.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'Return an exit code; only src/cli.ts sets process.exitCode.' }],
    },
  },
  {
    // Floor, domain and runtime run in every JavaScript runtime (browsers, Deno, Bun, workerd): no
    // Node global, not only no Node import (.dependency-cruiser.cjs). Feature-detect through
    // globalThis where Node's version is faster (src/floor/bytes.ts).
    files: ['src/{floor,schema,catalog,deviation,behaviour,journal,runtime}/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', ...['Buffer', 'process', 'setImmediate', 'clearImmediate', 'global', '__dirname', '__filename', 'require'].map((name) => ({ name, message: `${name} is Node's: floor, domain and runtime use web-standard globals only (Uint8Array and TextEncoder, setTimeout, globalThis); Node-only work belongs to an adapter (src/http, src/file-system).` }))],
    },
  },
  {
    // Stages with names: a function that holds a whole pipeline, or a file that holds several rooms,
    // is split into named stages and small modules named after what they export.
    files: ['src/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // dependency-cruiser's config is CommonJS (it is required by name).
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    // The Python package's Node launcher (python/src/market_stub/_launcher.cjs) is CommonJS: it requires the bundled CLI.
    files: ['python/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The web console renders every value as text (console/dom.ts): no markup sink, no eval.
    files: ['console/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', ...['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'write', 'writeln'].map((property) => ({ property, message: 'Render data with textContent (console/dom.ts h()); the console never parses markup.' }))],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    // examples/: scripts the docs show whole (<!-- from: -->), run with plain Node.
    files: ['examples/**/*.mjs'],
    languageOptions: { globals: { AbortSignal: 'readonly' } },
  },
  {
    // The MSW consumer projects' pages and component tests run in a browser or jsdom.
    files: ['test/consumers/msw-*/**/*.{js,mjs}'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', Request: 'readonly', Response: 'readonly' } },
  },
  {
    // test/runtimes: market-stub/fetch served by each runtime's own server (scripts/test-runtimes.mjs).
    files: ['test/runtimes/bun-*.mjs'],
    languageOptions: { globals: { Bun: 'readonly' } },
  },
  {
    files: ['test/runtimes/deno-*.mjs'],
    languageOptions: { globals: { Deno: 'readonly' } },
  },
  {
    // bench:runtimes' server (Bun or Deno) and the Fetch-API route consumer: web-standard values.
    files: ['bench/runtimes/*.mjs', 'test/consumers/fetch-route/**/*.{js,mjs}'],
    languageOptions: { globals: { Request: 'readonly', Response: 'readonly' } },
  },
  {
    // The consumer projects' CommonJS files (test/consumers): require() is what they test.
    files: ['test/consumers/**/*.cjs', 'test/consumers/**/*.cts', 'test/consumers/jest-cjs/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

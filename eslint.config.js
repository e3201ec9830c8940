// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Lint is part of `npm test`. Type-checked recommended rules everywhere; the size rules keep the
 * layout of ARCHITECTURE: a data type fits in one short file, no line needs scrolling.
 */
export default tseslint.config(
  // The client's OpenAPI types are generated (npm run -w @svc-data/client gen).
  { ignores: ['node_modules/', 'data/', 'dist/', 'packages/*/dist/', 'public/', 'packages/client/src/openapi.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Fastify plugins and handlers are promise-returning by contract: `async` without `await` is its documented style.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // light-my-request's `res.json()` is `any` by design; tests read it (or cast it) and assert on the values.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  { files: ['src/sources/**/*.ts'], rules: { 'max-lines': ['error', { max: 120, skipBlankLines: true, skipComments: true }] } },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/sources/**'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }] },
  },
  // A function reads in one sitting: 80 lines from its first to its last, as written (a curried route plugin counts whole).
  { files: ['src/**/*.ts'], rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] } },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);

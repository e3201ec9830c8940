// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Lint is part of `npm test`. Type-checked recommended rules everywhere; the size rules keep the
 * layout of ARCHITECTURE: a data type fits in one short file, no line needs scrolling.
 */
export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'packages/*/dist/', 'public/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  { files: ['src/sources/**/*.ts'], rules: { 'max-lines': ['error', { max: 120, skipBlankLines: true, skipComments: true }] } },
  { files: ['src/**/*.ts'], ignores: ['src/sources/**'], rules: { 'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }] } },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);

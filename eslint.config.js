// ESLint for every TypeScript file (formatting is Prettier's: `npx prettier --check .`).
// Type-aware rules catch promises nobody awaits or handles; imports are kept in one sorted order.
import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The house's boundaries (docs/architecture.md), held here rather than in prose. Tests, test kits and
// benchmarks may reach across them.
const TEST_KIT = ['**/*.test.ts', '**/testing/**', '**/bench/**', '**/e2e/**'];
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webNeverImports = {
  regex: '^@antares/(server|pipeline|db|cli)(/|$)|(^|/)(server|pipeline|db|cli)/src(/|$)',
  message: 'the web app imports only @antares/astro and @antares/contract of the other packages',
};
const restrict = (...patterns) => ['error', { patterns }];
const boundaries = [
  // Features never import each other: what two need goes to components/ or lib/, or app/ composes them.
  ...WEB_FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': restrict(webNeverImports, {
        regex: `^@/features/(?!${feature}(/|$))`,
        message: 'a web feature never imports another: move what both use to components/ or lib/, or compose them in app/',
      }),
    },
  })),
  {
    files: ['apps/web/src/{app,components,lib}/**/*.{ts,tsx}', 'apps/web/src/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': restrict(webNeverImports) },
  },
  // Services hold the rules and know no HTTP framework.
  {
    files: ['apps/server/src/services/**/*.ts'],
    ignores: TEST_KIT,
    rules: {
      'no-restricted-imports': restrict(
        { group: ['fastify', '@fastify/*'], message: 'services know no HTTP framework: the route reads the request' },
        { regex: '(^|/)(routes|serializers)(/|$)', message: 'services never import routes or serializers: they return data' },
      ),
    },
  },
  // Level 2 sits beside ingestion, not above it: what both use lives below them (loci/, stages/).
  {
    files: ['apps/pipeline/src/filters/**/*.ts'],
    ignores: TEST_KIT,
    rules: { 'no-restricted-imports': restrict({ regex: '(^|/)ingest(/|$)', message: 'pipeline filters/ never imports ingest/' }) },
  },
  // SQL lives in packages/db only.
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['packages/db/**', ...TEST_KIT],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict({
        group: ['kysely', 'kysely/*', 'pg', 'pg-*', '@electric-sql/pglite', '@electric-sql/pglite/*'],
        message: 'SQL and database drivers are used in packages/db only: add a repository method there',
      }),
    },
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/var/**', 'filter-runtime/**', 'apps/web/public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  ...boundaries,
  // Tests build and read loose JSON documents; `any` there keeps them short.
  { files: ['**/*.test.ts', '**/testing/**', '**/e2e/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Plain scripts and the root test config and setup file: no type information, Node's globals.
  {
    files: ['**/*.{js,mjs}', 'vitest.config.ts', 'vitest.setup.ts'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);

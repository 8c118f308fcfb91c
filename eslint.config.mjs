import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

// Next's rules (React, hooks, accessibility, core web vitals, typescript-eslint), and the import
// rules between module areas of docs/architecture.md, so that an import across a boundary fails
// the lint.
const imports = (...patterns) => ['error', { patterns: patterns.map(([group, message]) => ({ group, message })) }];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Pages link with plain <a>: a cached page's load costs a phone less than the client router's prefetches (decision 0020).
      '@next/next/no-html-link-for-pages': 'off',
      'no-restricted-properties': [
        'error',
        { object: 'Readable', property: 'fromWeb', message: 'Read a request body with bodyChunks (lib/http/body.ts): a read-ahead cancelled mid-read throws where nothing catches it.' },
      ],
    },
  },
  {
    files: ['lib/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}'],
    rules: {
      // An array spread into arguments overflows the stack past about 120 000 items (an import's
      // busy day did): fold it instead.
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(min|max)$/] > SpreadElement", message: 'Math.min/Math.max of a spread array overflows the stack on large arrays: use reduce.' },
      ],
    },
  },
  {
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': imports([['@/app/*', '**/app/*'], 'lib/ never imports app/: pages and routes sit on top of lib/.']),
    },
  },
  {
    files: ['lib/stats/**/*.ts'],
    rules: {
      'no-restricted-imports': imports(
        [['@/app/*', '**/app/*'], 'lib/ never imports app/.'],
        [['**/ingest/*', '@/lib/ingest/*'], 'Reads do not import the write path: shared facts live in lib/activity.ts and lib/local-time.ts.'],
      ),
    },
  },
  {
    files: ['lib/db/**/*.ts'],
    rules: {
      'no-restricted-imports': imports(
        [['@/app/*', '**/app/*'], 'lib/ never imports app/.'],
        [['../*', '!../config', '!../metrics', '../metrics/*', '!../metrics/registry', '!../metrics/tally'], 'lib/db is the bottom layer: it imports only lib/config.ts (and the metrics registry and tallies, leaves).'],
      ),
    },
  },
  {
    // CommonJS scripts that run before anything is built (npm's postinstall).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  globalIgnores(['.next/**', 'out/**', 'build/**', 'next-env.d.ts', 'node_modules/**', '.floor-*/**']),
]);

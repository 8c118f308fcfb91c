import { defineConfig } from 'vitest/config';

// Every database test file runs on the embedded database; with TEST_DATABASE_URL set, the
// same files run a second time on PostgreSQL. The e2e project drives a real `next start`
// (with TEST_POOLER=pgbouncer, two of them on PostgreSQL through PgBouncer).
const alias = { '@': import.meta.dirname };
const dbTests = ['tests/api/**/*.test.ts'];

const projects = [
  { extends: true as const, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
  {
    extends: true as const,
    test: { name: 'pglite', include: dbTests, globalSetup: ['tests/setup/global-db.ts'], setupFiles: ['tests/setup/file-db.ts'], env: { TEST_DB: 'pglite' } },
  },
  // The same files through a real PgBouncer in transaction mode in front of that PostgreSQL
  // (npm run test:pooler, which also runs the black-box suite on two processes through it).
  ...(process.env.TEST_DATABASE_URL && process.env.TEST_POOLER === 'pgbouncer'
    ? [
        {
          extends: true as const,
          test: { name: 'pgbouncer', include: dbTests, globalSetup: ['tests/setup/global-db.ts'], setupFiles: ['tests/setup/file-db.ts'], env: { TEST_DB: 'pgbouncer' } },
        },
      ]
    : []),
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          extends: true as const,
          test: { name: 'postgres', include: dbTests, globalSetup: ['tests/setup/global-db.ts'], setupFiles: ['tests/setup/file-db.ts'], env: { TEST_DB: 'postgres' } },
        },
      ]
    : []),
  {
    extends: true as const,
    test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'], globalSetup: ['tests/setup/global-server.ts'], testTimeout: 60_000 },
  },
];

export default defineConfig({
  resolve: { alias },
  test: {
    pool: 'forks',
    reporters: ['default', './tests/setup/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    projects,
  },
});

import { spawn } from 'node:child_process';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '@/lib/db/migrate';
import { databaseUrlFor } from '../setup/databases';
import { GET as health } from '@/app/main/api/v1/health/route';
import { GET as openapi } from '@/app/main/api/v1/openapi.json/route';

describe('operations', () => {
  it('GET /health answers ok after a database round trip', async () => {
    const res = await health();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('GET /openapi.json describes every write route with schemas that resolve', async () => {
    const doc = await (await openapi()).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const p of ['/sync/activities', '/sync/activities/desktop', '/activities', '/activities/desktop', '/admin/users', '/health', '/get/list/plans', '/get/public/time', '/get/public/language', '/get/public/hitmaps', '/get/public/weekly', '/leaderboard/api/get/public', '/badges', '/badges/{id}', '/badges/{id}/refresh', '/public/{site}/svg/{userUUID}', '/public/{site}/shields/{userUUID}']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    const ide = doc.components.schemas.IdeBucket;
    expect(ide.required).toEqual(['language', 'time']);
    expect(ide.properties.time).toMatchObject({ exclusiveMinimum: 0, maximum: 3600 });
    expect(doc.components.schemas.DesktopBucket.required.sort()).toEqual(['date', 'filename', 'hour', 'path', 'platform', 'program_name', 'time']);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(5);
    for (const name of refs) expect(doc.components.schemas[name], name).toBeDefined();
    const sync = doc.paths['/sync/activities'].post;
    expect(Object.keys(sync.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '409', '413', '415', '422', '429', '503']));
  });
});

describe('migrations', () => {
  // Processes started together on an empty database (several servers of a deploy).
  it.skipIf(process.env.TEST_DB === 'pglite')('run once when three processes start on an empty PostgreSQL database together', async () => {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `codetally_t_migrate_${Math.random().toString(36).slice(2, 10)}`;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    try {
      const url = databaseUrlFor(base, name);
      const runs = await Promise.all(
        [1, 2, 3].map(
          () =>
            new Promise<{ code: number | null; output: string }>((resolve) => {
              const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/migrate.ts')], {
                env: { ...process.env, DATABASE_URL: url, DATABASE_POOLER: '', DATABASE_MIGRATION_URL: '', AUTH_SECRET: 'migration-test-secret-0123456789abcdef' },
                stdio: ['ignore', 'pipe', 'pipe'],
              });
              let output = '';
              child.stdout.on('data', (d) => (output += d));
              child.stderr.on('data', (d) => (output += d));
              child.on('exit', (code) => resolve({ code, output }));
            }),
        ),
      );
      expect(runs.map((r) => [r.code, r.output.includes('migrations applied')])).toEqual([[0, true], [0, true], [0, true]]);
      const db = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const applied = await db`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
        expect(applied[0].n).toBe(readMigrationFiles({ migrationsFolder }).length);
      } finally {
        await db.end();
      }
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 120_000);
});

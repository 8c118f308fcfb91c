import fs from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { openDb } from '../../lib/db/client';
import { migrateDb } from '../../lib/db/migrate';
import { applySessionSettings } from '../../lib/db/settings';

// Test databases: one migrated template per run, copied for every test file.

export const testDataRoot = path.resolve('.test-data');

export async function makePgliteTemplate(): Promise<string> {
  const dir = path.join(testDataRoot, `template-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  const handle = await openDb({ dataDir: dir });
  await migrateDb(handle);
  await handle.close();
  return dir;
}

export function copyPglite(template: string): string {
  const dir = path.join(testDataRoot, `db-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
  fs.cpSync(template, dir, { recursive: true });
  return dir;
}

export function databaseUrlFor(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function makePostgresTemplate(baseUrl: string, runId: string): Promise<string> {
  const name = `codetally_tpl_${runId}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const handle = await openDb({ databaseUrl: databaseUrlFor(baseUrl, name), dataDir: '' }, 1, { migrations: true });
  await migrateDb(handle);
  await handle.close();
  return name;
}

export async function copyPostgres(baseUrl: string, template: string): Promise<string> {
  const name = `${template.replace('_tpl_', '_t_')}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  try {
    // CREATE DATABASE ... TEMPLATE fails while another file copies the same template: retry.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (err) {
        if (attempt > 50) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  // The role's settings belong to a database (ALTER ROLE ... IN DATABASE): a copy has none of
  // the template's, and gets them as the migration step gives them.
  const url = databaseUrlFor(baseUrl, name);
  const handle = await openDb({ databaseUrl: url, dataDir: '' }, 1, { migrations: true });
  try {
    const refused = await applySessionSettings(handle.db);
    if (refused) throw new Error(refused);
  } finally {
    await handle.close();
  }
  return url;
}

export async function dropPostgresDatabases(baseUrl: string, prefix: string): Promise<void> {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  const dbs = await admin<{ datname: string }[]>`SELECT datname FROM pg_database WHERE datname LIKE ${prefix + '%'}`;
  for (const { datname } of dbs) await admin.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  await admin.end();
}

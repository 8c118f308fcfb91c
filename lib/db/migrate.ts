import path from 'node:path';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { DbHandle } from './client';

export const migrationsFolder = path.resolve(process.cwd(), 'drizzle');

/** Applies the versioned migrations in drizzle/ that this database has not seen yet. */
export async function migrateDb(handle: DbHandle, folder = migrationsFolder): Promise<void> {
  const run = handle.kind === 'pglite' ? migratePglite : migratePostgres;
  // Both migrators accept any drizzle PostgreSQL database; the cast only bridges their driver types.
  await run(handle.db as never, { migrationsFolder: folder });
}

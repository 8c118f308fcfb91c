import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

// Raw SQL names its tables and columns through the drizzle schema (lib/db/schema.ts): a table as
// `${ideActivity}` (drizzle renders its quoted name), a column as `${col(ideActivity.millis)}`
// and a column list as `${cols(...)}`. A field renamed or removed in the schema fails the type
// check; a table or column renamed in SQL follows by itself.

/** One column's name, quoted and unqualified: for SET targets and expressions over an alias. */
export const col = (column: AnyPgColumn): SQL => sql`${sql.identifier(column.name)}`;

/** Column names, unqualified and comma-separated: for INSERT lists and ON CONFLICT targets. */
export const cols = (...columns: AnyPgColumn[]): SQL => sql.join(columns.map(col), sql`, `);

/** `column = column + excluded.column`: an upsert that adds to what is stored (its target not aliased). */
export const addExcluded = (column: AnyPgColumn): SQL => sql`${col(column)} = ${column} + excluded.${col(column)}`;

/** Columns selected under their own names (`"users"."id" AS "id"`): the rows keep the SQL names. */
export const selected = (...columns: AnyPgColumn[]): SQL => sql.join(columns.map((c) => sql`${c} AS ${col(c)}`), sql`, `);

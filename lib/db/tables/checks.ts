import { sql } from 'drizzle-orm';
import { check, type AnyPgColumn } from 'drizzle-orm/pg-core';

// What the database itself refuses, whatever a statement computes: an hour outside the day, and
// time below zero. Validation refuses both long before (lib/ingest/schemas.ts); these make a bug
// in a statement fail loudly instead of storing a figure no chart can show.
export const hourOfDay = (table: string, hour: AnyPgColumn) => check(`${table}_hour_check`, sql`${hour} BETWEEN 0 AND 23`);
export const notNegative = (table: string, millis: AnyPgColumn) => check(`${table}_millis_check`, sql`${millis} >= 0`);

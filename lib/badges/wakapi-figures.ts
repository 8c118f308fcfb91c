import { sql } from 'drizzle-orm';
import { HOUR_CAP_MILLIS } from '../activity';
import { rows, type Db } from '../db/client';
import { ideActivity, userHours } from '../db/schema';
import { shownProject, textArray } from '../projects/read';

// One user's coding time over a span, in all or per language, editor, operating system or
// project: what a badge asked for by its filter shows (Wakapi's badge URLs, lib/badges/wakapi.ts).
// Read from the hourly buckets, each hour capped at 3600 s as every figure (an hour over the cap
// scaled down in proportion); the buckets are kept for all history. One statement per span and
// dimension whatever name is asked, so that the answer can be kept and any name looked up in it.

/** The bucket columns a figure may be split by. */
const columns = { language: ideActivity.language, editor: ideActivity.editor, os: ideActivity.os, project: ideActivity.project } as const;
export type FilterColumn = keyof typeof columns;

export interface Span {
  /** First and last date, both included, in the owner's timezone. */
  from: string;
  to: string;
  /** The first hour of `from` counted (a rolling 24 hours); all of it when absent. */
  fromHour?: number;
}

/**
 * Seconds of coding time in the span per name of `column` (no column: the total, under ''),
 * leaving out the time of `exceptEditors`. A language, editor or system is keyed in lower case
 * (filterKey), as a URL typed by hand may spell it ("go", "vs code"); a project by its name as
 * the owner's list shows it, since two projects may differ in case alone.
 */
export async function secondsByName(db: Db, userId: string, span: Span, column?: FilterColumn, exceptEditors: string[] = []): Promise<Map<string, number>> {
  const [a, h] = [ideActivity, userHours];
  const name = column === undefined ? sql`''` : column === 'project' ? shownProject(a.project) : columns[column];
  const fromHour = span.fromHour ? sql`AND (${a.date} > ${span.from} OR ${a.hour} >= ${span.fromHour})` : sql``;
  const except = exceptEditors.length ? sql`AND NOT (${a.editor} = ANY(${textArray(exceptEditors)}::text[]))` : sql``;
  const found = await rows<{ name: string; millis: number }>(
    db,
    sql`SELECT ${name} AS name, sum(${a.millis} * least(1, ${HOUR_CAP_MILLIS}::float8 / nullif(${h.millis}, 0)))::float8 AS millis
        FROM ${a} JOIN ${h} ON ${h.userId} = ${a.userId} AND ${h.date} = ${a.date} AND ${h.hour} = ${a.hour}
        WHERE ${a.userId} = ${userId}::uuid AND ${a.date} BETWEEN ${span.from} AND ${span.to} ${fromHour} ${except}
        GROUP BY 1`,
  );
  // Names that differ in case alone are one name here (lowered in JavaScript, whatever the database's locale).
  const millis = new Map<string, number>();
  for (const r of found) {
    const key = column === undefined ? '' : filterKey(column, r.name);
    millis.set(key, (millis.get(key) ?? 0) + Number(r.millis));
  }
  return new Map([...millis].map(([key, ms]) => [key, Math.round(ms / 1000)]));
}

/** How a name asked for is looked up in secondsByName's answer. */
export const filterKey = (column: FilterColumn, value: string): string => (column === 'project' ? value : value.toLowerCase());

import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { keysetPages, type PageProgress } from '../../db/keyset';
import { heartbeats } from '../../db/schema';
import { heartbeatTypes } from '../sending/heartbeat';

// The stored heartbeats of a span of time, page by page along the table's key (user, time, type,
// entity digest): the reads of one day (lib/wakatime/reading/day-reads.ts, lib/figures/timeline.ts) never
// hold a whole day at once, which an account can fill with hundreds of thousands of heartbeats
// (lib/db/keyset.ts says why a page at a time, and gives the event loop its turn between pages).

/** The most heartbeats one page of GET heartbeats?date= answers (about 1.5 MB of JSON), read PAGE_ROWS a statement. */
export const DAY_PAGE = 5000;

export interface BeatRow {
  at: number;
  until: number;
  type: string;
  digest: number;
  category: string;
  language: string;
  project: string;
  editor: string;
  os: string;
  app: string;
  machine: string;
  ai_agent: string;
  ai_lines: number;
  human_lines: number;
  is_write: boolean;
  zone: string;
}

/** Where a page begins: after this heartbeat (its key). */
export type BeatCursor = Pick<BeatRow, 'at' | 'type' | 'digest'>;

/** The key a heartbeat's id (heartbeatKey, as WakaTime's shapes answer it) stands for; null when the text is not one. */
export function parseCursor(text: string): BeatCursor | null {
  // The type is one of the stored ones, never free text: a cursor's text reaches the statement.
  const found = /^(\d{1,15})-([a-z]{1,16})-([0-9a-f]{1,13})$/.exec(text);
  if (!found || !(heartbeatTypes as readonly string[]).includes(found[2])) return null;
  return { at: Number(found[1]), type: found[2], digest: parseInt(found[3], 16) };
}

/** Each column a read may ask for. Every value comes as a JS number or string on either driver (no bigint: float8). */
const h = heartbeats;
const columnSql = {
  until: sql`${h.creditedUntil}::float8 AS until`,
  category: sql`${h.category} AS category`,
  language: sql`${h.language} AS language`,
  project: sql`${h.project} AS project`,
  editor: sql`${h.editor} AS editor`,
  os: sql`${h.os} AS os`,
  app: sql`${h.app} AS app`,
  machine: sql`coalesce(${h.machine}, '') AS machine`,
  ai_agent: sql`coalesce(${h.aiAgent}, '') AS ai_agent`,
  ai_lines: sql`coalesce(${h.aiLines}, 0)::int AS ai_lines`,
  human_lines: sql`coalesce(${h.humanLines}, 0)::int AS human_lines`,
  is_write: sql`coalesce(${h.isWrite}, false) AS is_write`,
  zone: sql`${h.zone} AS zone`,
} satisfies Record<Exclude<keyof BeatRow, keyof BeatCursor>, SQL>;
type Column = keyof typeof columnSql;

/** Every column: what GET heartbeats?date= answers. */
export const allColumns = Object.keys(columnSql) as Column[];

export interface BeatRead<K extends Column> {
  /** The columns read besides the key (the fewer, the faster: on the embedded database a value read costs about as much as a row). */
  columns: readonly K[];
  /** Only heartbeats whose credit is coding time: not an application's, and credited some time. */
  credited?: boolean;
  /** Begin after this heartbeat (null: at `from`). */
  after?: BeatCursor | null;
  /** Read no more than this many in all. */
  most?: number;
}

/**
 * The heartbeats of the user in [from, to) after `after`, credited ones only if asked: the
 * condition of a page. Pages follow the key's own order, each a range of the primary key's index.
 */
export function pageWhere(userId: string, from: number, to: number, after: BeatCursor | null, creditedOnly = false): SQL {
  const past = after ? sql`AND (${h.at}, ${h.type}, ${h.entityDigest}) > (${after.at}::bigint, ${after.type}::text, ${after.digest}::bigint)` : sql``;
  const credited = creditedOnly ? sql`AND ${h.type} <> 'app' AND ${h.creditedUntil} > ${h.at}` : sql``;
  return sql`${h.userId} = ${userId}::uuid AND ${h.at} >= ${from} AND ${h.at} < ${to} ${past} ${credited}`;
}

/** The key's order, that of the primary key's index. */
export const keyOrder = sql`${h.at}, ${h.type}, ${h.entityDigest}`;

function pageStatement(userId: string, from: number, to: number, read: BeatRead<Column>, after: BeatCursor | null, size: number) {
  const columns = read.columns.map((c) => sql`, ${columnSql[c]}`);
  return sql`SELECT ${h.at}::float8 AS at, ${h.type} AS type, ${h.entityDigest}::float8 AS digest${sql.join(columns)}
             FROM ${h} WHERE ${pageWhere(userId, from, to, after, read.credited)}
             ORDER BY ${keyOrder} LIMIT ${size}`;
}

/** The heartbeats of [from, to) in key order, the columns `read` asks for, a page at a time (lib/db/keyset.ts). */
export function beatPages<K extends Column>(db: Db, userId: string, from: number, to: number, read: BeatRead<K>): AsyncGenerator<Pick<BeatRow, K | keyof BeatCursor>[]> {
  return keysetPages<Pick<BeatRow, K | keyof BeatCursor>, BeatCursor>(db, (last, size) => pageStatement(userId, from, to, read, last, size), { from: read.after ?? null, most: read.most });
}

/**
 * For a statement that answers what it made of a page rather than the page (durations, the
 * timeline): `page`, a CTE of the page's heartbeats (at, type, digest and `columns`), credited
 * ones only; `tail`, its last heartbeat and how many it holds, whose `tailColumns` go on each row
 * answered (LEFT JOIN, so that a page making nothing still says where it got); `tailProgress`
 * reads them back for keysetPages.
 */
export function pageCte(userId: string, from: number, to: number, after: BeatCursor | null, size: number, columns: SQL): SQL {
  return sql`page AS (
      SELECT ${h.at} AS at, ${h.type} AS type, ${h.entityDigest} AS digest, ${columns}
      FROM ${h} WHERE ${pageWhere(userId, from, to, after, true)}
      ORDER BY ${keyOrder} LIMIT ${size}
    ),
    tail AS (SELECT at, type, digest, (SELECT count(*) FROM page) AS read FROM page ORDER BY at DESC, type DESC, digest DESC LIMIT 1)`;
}

export const tailColumns = sql`tail.at::float8 AS last_at, tail.type AS last_type, tail.digest::float8 AS last_digest, tail.read::int AS page_rows`;

export interface PageTail {
  last_at: number;
  last_type: string;
  last_digest: number;
  page_rows: number;
}

export const tailProgress = (page: PageTail[]): PageProgress<BeatCursor> =>
  page.length === 0 ? { last: null, rows: 0 } : { last: { at: page[0].last_at, type: page[0].last_type, digest: page[0].last_digest }, rows: page[0].page_rows };

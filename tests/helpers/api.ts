import { sql } from 'drizzle-orm';
import { issueToken } from '../../lib/accounts/tokens';
import { createUser } from '../../lib/accounts/users';
import type { Scope } from '../../lib/auth/tokens';
import { getDb, rows } from '../../lib/db/client';
import type { CreateUserInput } from '../../lib/accounts/schemas';
import type { IdeRow } from '../../lib/ingest/rows';
import { expectDocumented } from './contract';

let counter = 0;

/**
 * A new user with a plugin token (sync + badges), on `plan`. Tests are about other things than
 * plans unless they say so: their users are on Pro (20 tokens, 50 badges, all history), and a
 * test of a plan's limits asks for that plan (`newUser({}, 'free')`).
 */
export async function newUser(input: Partial<CreateUserInput> = {}, plan = 'pro') {
  counter += 1;
  const handle = input.handle ?? `user${counter}_${Math.random().toString(36).slice(2, 8)}`;
  const db = await getDb();
  const created = await createUser(db, { ...input, handle });
  if (plan !== 'free') await onPlan(created.user.id, plan);
  return created;
}

/**
 * Puts a new user on a plan directly in the database, before anything of theirs is read or cached
 * (a later change goes through the operator's route or setPlan, which renew the user's caches).
 */
export async function onPlan(userId: string, plan: string): Promise<void> {
  await (await getDb()).execute(sql`UPDATE users SET plan_id = ${plan} WHERE id = ${userId}::uuid`);
}

export async function tokenWithScopes(userId: string, scopes: Scope[]): Promise<string> {
  return (await issueToken(await getDb(), userId, { name: 'test', scopes })).token;
}

type Handler = (request: Request) => Promise<Response>;

export interface CallOptions {
  token?: string;
  body?: unknown;
  raw?: BodyInit;
  headers?: Record<string, string>;
}

/** POSTs to a route handler with a real Request, as Next would; the answer must be as openapi.json says. */
export async function call(handler: Handler, path: string, opts: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const url = `http://localhost/main/api/v1${path}`;
  return expectDocumented('POST', url, await handler(new Request(url, { method: 'POST', headers, body })));
}

export type StoredIde = Pick<IdeRow, 'date' | 'hour' | 'language' | 'project' | 'editor' | 'millis' | 'lines'>;

/**
 * What is stored for a user, read straight from the table, per date, hour, language, project and
 * editor (summed over the other dimensions: storedDimensions reads those).
 */
export async function storedIde(userId: string): Promise<StoredIde[]> {
  return rows<StoredIde>(
    await getDb(),
    sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, hour::int AS hour, language, project, editor,
               sum(millis)::float8 AS millis, sum(lines)::float8 AS lines
        FROM ide_activity WHERE user_id = ${userId} GROUP BY 1, 2, 3, 4, 5 ORDER BY date, hour, language, project, editor`,
  );
}

/** Every stored bucket of a user with all its dimensions and sums, as stored. */
export async function storedDimensions(userId: string): Promise<IdeRow[]> {
  return rows<IdeRow>(
    await getDb(),
    sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, hour::int AS hour, language, project, editor, category, machine, os, ai_agent AS agent,
               millis::float8 AS millis, lines::float8 AS lines, ai_additions::float8 AS "aiAdditions", ai_deletions::float8 AS "aiDeletions",
               human_additions::float8 AS "humanAdditions", human_deletions::float8 AS "humanDeletions"
        FROM ide_activity WHERE user_id = ${userId} ORDER BY date, hour, language, project, editor, category, machine, os, ai_agent`,
  );
}

export async function storedDesktop(userId: string) {
  return rows<{ date: string; hour: number; platform: string; app: string; millis: number }>(
    await getDb(),
    sql`SELECT to_char(date, 'YYYY-MM-DD') AS date, hour::int AS hour, platform, app, millis::float8 AS millis
        FROM desktop_activity WHERE user_id = ${userId} ORDER BY date, hour, platform, app`,
  );
}

export function daysFromToday(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

import { and, asc, eq, sql } from 'drizzle-orm';
import { usersChanged } from '../db/changes';
import type { Db } from '../db/client';
import { badges, users } from '../db/schema';
import { assertWithin, HARD_CAPS } from '../plans/limits';
import { ApiError } from '../http/problem';
import { isUuid } from '../ids';
import type { BadgeDto, BadgeStyle, CreateBadgeInput } from './schemas';

// Badge records as their owner manages them (scope `badges`). Each change is announced as a
// change of its owner: their cached badge images go (lib/cache/tags.ts).

/** Badges any user may have, whatever the plan; the plan's badges (at most this) is met first. */
export const MAX_BADGES_PER_USER = HARD_CAPS.badges!;
export type BadgeRow = typeof badges.$inferSelect;

const defaultLabel = (input: CreateBadgeInput) =>
  input.metric === 'language' ? `${input.language} ${input.range}` : input.metric === 'daily_average' ? `avg per coding day ${input.range}` : input.metric === 'ai' ? `AI-assisted ${input.range}` : `coded ${input.range}`;

/** The embed URLs and snippets of a badge, on the origin the owner called. */
export function badgeDto(row: BadgeRow, origin: string): BadgeDto {
  const url = `${origin}/main/api/v1/public/github/svg/${row.userId}?badge=${row.id}`;
  const shields = `${origin}/main/api/v1/public/github/shields/${row.userId}?badge=${row.id}`;
  const alt = row.label.replace(/[[\]"<>&]/g, '');
  return {
    id: row.id,
    metric: row.metric as BadgeDto['metric'],
    range: row.range as BadgeDto['range'],
    language: row.language,
    label: row.label,
    color: row.color,
    style: row.style as BadgeStyle,
    url,
    shields_url: shields,
    markdown: `![${alt}](${url})`,
    html: `<img src="${url}" alt="${alt}">`,
    created_at: new Date(row.createdAt).toISOString(),
    refreshed_at: new Date(row.refreshedAt).toISOString(),
  };
}

/**
 * Makes a badge; 403 `plan_limit` when the user has as many as the plan's badges allow, counted
 * under the user's row lock so that requests at once cannot pass the bound together.
 */
export async function createBadge(db: Db, userId: string, input: CreateBadgeInput): Promise<BadgeRow> {
  const row = await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(badges).where(eq(badges.userId, userId));
    await assertWithin(tx, userId, 'badges', n);
    const [created] = await tx.insert(badges).values(badgeValues(userId, input)).returning();
    return created;
  });
  await usersChanged(db, [userId]); // a first badge is what the URL without `badge` shows
  return row;
}

/** The stored fields of a badge made from this input, defaults filled in (also for previews). */
export function badgeValues(userId: string, input: CreateBadgeInput) {
  return {
    userId,
    metric: input.metric,
    range: input.range,
    language: input.language ?? null,
    label: input.label ?? defaultLabel(input),
    color: (input.color ?? 'blue').replace(/^#/, ''),
    style: input.style ?? 'flat',
  };
}

export async function listBadges(db: Db, userId: string): Promise<BadgeRow[]> {
  return db.select().from(badges).where(eq(badges.userId, userId)).orderBy(asc(badges.createdAt), asc(badges.id));
}

const noSuchBadge = () => new ApiError('not_found', 'No such badge.');

/** Marks a badge refreshed: its cached images are replaced on their next request. */
export async function refreshBadge(db: Db, userId: string, id: string): Promise<BadgeRow> {
  if (!isUuid(id)) throw noSuchBadge();
  const [row] = await db
    .update(badges)
    .set({ refreshedAt: sql`clock_timestamp()` })
    .where(and(eq(badges.id, id), eq(badges.userId, userId)))
    .returning();
  if (!row) throw noSuchBadge();
  await usersChanged(db, [userId]);
  return row;
}

export async function deleteBadge(db: Db, userId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw noSuchBadge();
  const gone = await db.delete(badges).where(and(eq(badges.id, id), eq(badges.userId, userId))).returning({ id: badges.id });
  if (gone.length === 0) throw noSuchBadge();
  await usersChanged(db, [userId]);
}

import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiTokens, users } from '../db/schema';
import { z } from 'zod';
import { generateToken, looksLikeTokenPrefix, scopes, type Scope, type TokenFormat } from '../auth/tokens';
import { isEditorKey, openKey, sealKeyIfKeyed } from '../auth/sealed-keys';
import { isUuid } from '../ids';
import { defaultScopes } from './schemas';
import { assertWithin, HARD_CAPS } from '../plans/limits';
import { agentLabel, tokenOriginSchema, type TokenOrigin, type TokenVia } from './token-origin';

export const tokenSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().meta({ description: 'The first characters of the token, to recognise it.' }),
    scopes: z.array(z.enum(scopes)),
    created_at: z.string(),
    ...tokenOriginSchema,
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'Token' });
export type TokenDto = z.infer<typeof tokenSchema>;

export const issuedTokenSchema = z
  .object({ token: z.string().meta({ description: 'The token itself: shown this once, never again.' }), info: tokenSchema })
  .meta({ id: 'IssuedToken' });

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema) }).meta({ id: 'TokenList' });

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function tokenDto(t: typeof apiTokens.$inferSelect): TokenDto {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    scopes: t.scopes as Scope[],
    created_at: iso(t.createdAt)!,
    created_via: t.createdVia as TokenVia | null,
    created_agent: t.createdAgent,
    created_with: t.createdWith,
    last_used_at: iso(t.lastUsedAt),
    revoked_at: iso(t.revokedAt),
  };
}

/**
 * Live tokens any user may hold, whatever the plan: every token has its own write budget, so
 * their number is bounded. The plan's api_tokens (at most this) is what a user meets first.
 */
export const MAX_LIVE_TOKENS = HARD_CAPS.api_tokens!;

/** Token names are at most this long (tokenNameSchema); a suffixed name is cut to fit. */
const MAX_NAME_LENGTH = 100;

/**
 * `name`, or, when one of `taken` (names of live tokens, compared ignoring case) already has it,
 * `name (2)`, `name (3)`... with the first number free: each live token in a list is told apart
 * by its name, and one click on "Make a key" twice still gives a key.
 */
export function freeTokenName(name: string, taken: string[]): string {
  const used = new Set(taken.map((t) => t.toLowerCase()));
  if (!used.has(name.toLowerCase())) return name;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, MAX_NAME_LENGTH - suffix.length).trimEnd()}${suffix}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/**
 * Issues a token (scopes by default as `defaultScopes` of its format); the raw value is returned once and only its hash is stored. 403
 * `plan_limit` when the user already holds as many live tokens as the plan's api_tokens (never
 * more than MAX_LIVE_TOKENS), counted under the user's row lock, so concurrent requests cannot
 * pass the bound together. A name a live token of the user already has gets a
 * number (freeTokenName, under the same lock); the answer's `info.name` is the name given.
 */
export async function issueToken(
  db: Db,
  userId: string,
  opts: { name: string; scopes?: Scope[]; format?: TokenFormat },
  origin?: TokenOrigin,
): Promise<{ token: string; info: TokenDto }> {
  const format = opts.format ?? 'ct';
  const { token, prefix, hash } = generateToken(format);
  const granted = [...new Set(opts.scopes ?? defaultScopes(format))];
  const row = await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const live = await tx
      .select({ name: apiTokens.name })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
    await assertWithin(tx, userId, 'api_tokens', live.length);
    const madeWith = origin?.withTokenId
      ? (await tx.select({ prefix: apiTokens.prefix }).from(apiTokens).where(and(eq(apiTokens.id, origin.withTokenId), eq(apiTokens.userId, userId))))[0]?.prefix
      : undefined;
    const [created] = await tx
      .insert(apiTokens)
      .values({
        userId,
        name: freeTokenName(opts.name, live.map((t) => t.name)),
        prefix,
        hash,
        scopes: granted,
        createdVia: origin?.via ?? null,
        createdAgent: agentLabel(origin?.userAgent),
        createdWith: madeWith ?? null,
        // An editor key is kept sealed, so that its owner can show it again (../auth/sealed-keys.ts).
        sealed: isEditorKey(format, granted) ? sealKeyIfKeyed(token) : null,
      })
      .returning();
    return created;
  });
  return { token, info: tokenDto(row) };
}

export async function listTokens(db: Db, userId: string): Promise<TokenDto[]> {
  const list = await db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt));
  return list.map(tokenDto);
}

/** The ids of the user's live tokens that can be shown again (editor keys kept sealed). */
export async function keysShownAgain(db: Db, userId: string): Promise<Set<string>> {
  const found = await db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), isNotNull(apiTokens.sealed)));
  return new Set(found.map((t) => t.id));
}

/**
 * One of the user's live editor keys, shown again to its owner's session (never through the API):
 * null for another user's token, a revoked one, one not kept (other scopes, made before keys were
 * kept) or one the current session key cannot open.
 */
export async function showKeyAgain(db: Db, userId: string, tokenId: string): Promise<{ token: string; name: string } | null> {
  if (!isUuid(tokenId)) return null;
  const [row] = await db
    .select({ name: apiTokens.name, hash: apiTokens.hash, sealed: apiTokens.sealed })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  const token = row?.sealed ? openKey(row.sealed, row.hash) : null;
  return token ? { token, name: row.name } : null;
}

/** Revokes every live token of the user (a password reset's default); how many there were. */
export async function revokeAllTokens(db: Db, userId: string): Promise<number> {
  const revoked = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, sealed: null })
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return revoked.length;
}

/** Revokes one of the user's tokens by id or by its shown prefix; false when there is none. */
export async function revokeToken(db: Db, userId: string, idOrPrefix: string): Promise<boolean> {
  const match = isUuid(idOrPrefix) ? eq(apiTokens.id, idOrPrefix) : looksLikeTokenPrefix(idOrPrefix) ? eq(apiTokens.prefix, idOrPrefix) : null;
  if (!match) return false;
  const revoked = await db
    .update(apiTokens)
    .set({ revokedAt: sql`now()`, sealed: null })
    .where(and(eq(apiTokens.userId, userId), match, isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return revoked.length > 0;
}

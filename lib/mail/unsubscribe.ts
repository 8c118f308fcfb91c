import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { authSecret } from '../auth/secret';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { configuredOrigin } from '../http/origin';
import { isUuid } from '../ids';

// One-click unsubscribe from the weekly report (RFC 8058): the link names the user and carries a
// MAC of the user id and its purpose under the session key, so it works without a session, for
// as long as the key stays, and only for turning the report off. Nothing is stored per link.

const purpose = 'unsubscribe weekly_report';
const macOf = (userId: string) => createHmac('sha256', authSecret()).update(`${purpose}\n${userId}`).digest('base64url');

export function unsubscribeToken(userId: string): string {
  return `${userId}.${macOf(userId)}`;
}

export const unsubscribeLink = (userId: string) => `${configuredOrigin()}/unsubscribe?${new URLSearchParams({ token: unsubscribeToken(userId) })}`;

/** The user an unsubscribe token names, or null when it is not one this site made. */
export function unsubscribeTokenUser(token: string): string | null {
  const [userId, mac] = token.split('.');
  if (!userId || !mac || !isUuid(userId)) return null;
  const expected = Buffer.from(macOf(userId));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

/** Turns the weekly report off for the user the token names; false for a token this site did not make. */
export async function unsubscribe(db: Db, token: string): Promise<boolean> {
  const userId = unsubscribeTokenUser(token);
  if (!userId) return false;
  await db.update(users).set({ weeklyReport: false }).where(eq(users.id, userId));
  return true;
}

/** The headers that let a mail client offer "unsubscribe" and do it in one request (RFC 2369, RFC 8058). */
export const unsubscribeHeaders = (userId: string) => ({
  'List-Unsubscribe': `<${unsubscribeLink(userId)}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

export const unsubscribeQuerySchema = z.object({
  token: z
    .string({ error: 'token is required: the one in the weekly report\'s unsubscribe link' })
    .refine((t) => unsubscribeTokenUser(t) !== null, { error: 'token is not an unsubscribe token of this site' })
    .meta({ description: 'From the weekly report\'s unsubscribe link (its `List-Unsubscribe` header).' }),
});

export const unsubscribedSchema = z
  .object({ weekly_report: z.literal(false).meta({ description: 'The weekly report is off for the user the token names.' }) })
  .meta({ id: 'Unsubscribed' });

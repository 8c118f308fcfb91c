import { sql } from 'drizzle-orm';
import { config } from '../config';
import { rows, type Db } from '../db/client';
import { col } from '../db/names';
import { passwordLogins, users } from '../db/schema';
import { textArray } from '../projects/read';

// Who operates this install besides the ADMIN_TOKEN holder: accounts made operators with
// `npm run admin -- grant-operator --handle H`, and accounts whose sign-in address is in ADMIN_EMAILS
// and was proven by a link mailed to it (the sign-up confirmation or a password reset). Without
// mail nothing proves an address (anyone may sign up with it), so there ADMIN_EMAILS makes no one
// an operator; nor does an outside provider's address: only a password login's email is read. They see the console at /admin and may call the operator routes with their session.

/** The operator's handle if the user is one, else null. */
export async function operatorHandle(db: Db, userId: string): Promise<string | null> {
  const emails = config().ADMIN_EMAILS;
  const [u, p] = [users, passwordLogins];
  const [row] = await rows<{ handle: string }>(
    db,
    sql`SELECT ${u.handle} AS handle FROM ${u} LEFT JOIN ${p} ON ${p.userId} = ${u.id}
        WHERE ${u.id} = ${userId}::uuid AND (${u.operator}
          ${emails.length ? sql`OR (lower(${p.email}) = ANY(${textArray(emails)}::text[]) AND ${p.emailConfirmedAt} IS NOT NULL)` : sql``})`,
  );
  return row?.handle ?? null;
}

/** Makes the user an operator (or no longer one); answers whether the user exists. */
export async function setOperator(db: Db, handle: string, operator: boolean): Promise<{ handle: string } | null> {
  const [row] = await rows<{ handle: string }>(
    db,
    sql`UPDATE ${users} SET ${col(users.operator)} = ${operator} WHERE lower(${users.handle}) = lower(${handle}) RETURNING ${users.handle} AS handle`,
  );
  return row ?? null;
}

// GET /main/api/v1/me/tokens — my tokens (never their values); POST — a new token, shown once
import { withAccount } from '@/lib/auth/account';
import { createTokenSchema } from '@/lib/accounts/me';
import { issueToken, listTokens } from '@/lib/accounts/tokens';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';

export const dynamic = 'force-dynamic';

export const GET = withAccount(async ({ db, user }) => json({ tokens: await listTokens(db, user.id) }));

export const POST = withAccount(async ({ request, db, user }) => {
  const input = parseBody(createTokenSchema, (await readJsonBody(request)).value);
  return json(await issueToken(db, user.id, input), { status: 201 });
});

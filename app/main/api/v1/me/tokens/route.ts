// GET /main/api/v1/me/tokens — my tokens (never their values); POST — a new token, shown once
import { withAccount } from '@/lib/auth/account';
import { createTokenSchema } from '@/lib/accounts/me';
import { issueToken, listTokens } from '@/lib/accounts/tokens';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';

const get = withAccount(async ({ db, user }) => json({ tokens: await listTokens(db, user.id) }));

const post = withAccount(async ({ request, db, user, via, tokenId }) => {
  const input = parseBody(createTokenSchema, (await readJsonBody(request)).value);
  const origin = { via: via === 'session' ? 'dashboard' : 'api', userAgent: request.headers.get('user-agent'), withTokenId: tokenId } as const;
  return json(await issueToken(db, user.id, input, origin), { status: 201 });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get, POST: post }, { pattern: '/main/api/v1/me/tokens' });

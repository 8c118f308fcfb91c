// POST /main/api/v1/badges — create a badge (consent to publish its figure); GET — list my badges
import { withToken } from '@/lib/auth/bearer';
import { createBadgeSchema } from '@/lib/badges/schemas';
import { badgeDto, createBadge, listBadges } from '@/lib/badges/store';
import { json, readJsonBody } from '@/lib/http/body';
import { siteOrigin } from '@/lib/http/origin';
import { parseBody } from '@/lib/http/validate';
import { route } from '@/lib/http/methods';
import { assertTokenMayPublish } from '@/lib/sharing/gate';

export const dynamic = 'force-dynamic';

const post = withToken('badges', async ({ request, db, user }) => {
  const input = parseBody(createBadgeSchema, (await readJsonBody(request)).value);
  await assertTokenMayPublish(db, user.id, input);
  return json(badgeDto(await createBadge(db, user.id, input), siteOrigin(request.headers)), { status: 201 });
});

const get = withToken('badges', async ({ request, db, user }) => {
  const origin = siteOrigin(request.headers);
  return json({ badges: (await listBadges(db, user.id)).map((b) => badgeDto(b, origin)) });
});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post, GET: get }, { pattern: '/main/api/v1/badges' });

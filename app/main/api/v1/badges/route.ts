// POST /main/api/v1/badges — create a badge (consent to publish its figure); GET — list my badges
import { withToken } from '@/lib/auth/bearer';
import { createBadgeSchema } from '@/lib/badges/schemas';
import { badgeDto, createBadge, listBadges } from '@/lib/badges/store';
import { json, readJsonBody } from '@/lib/http/body';
import { parseBody } from '@/lib/http/validate';

export const dynamic = 'force-dynamic';

export const POST = withToken('badges', async ({ request, db, user }) => {
  const input = parseBody(createBadgeSchema, (await readJsonBody(request)).value);
  return json(badgeDto(await createBadge(db, user.id, input), new URL(request.url).origin), { status: 201 });
});

export const GET = withToken('badges', async ({ request, db, user }) => {
  const origin = new URL(request.url).origin;
  return json({ badges: (await listBadges(db, user.id)).map((b) => badgeDto(b, origin)) });
});

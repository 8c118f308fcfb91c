// POST /main/api/v1/leaderboards/{id}/invite_code — the owner replaces the invite code (the old one stops working)
import { withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { rotateInviteCode } from '@/lib/leaderboards/boards';

export const dynamic = 'force-dynamic';

const post = withAccount<{ id: string }>(async ({ db, user, params }) => json(await rotateInviteCode(db, user.id, params.id)));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/leaderboards/[id]/invite_code' });

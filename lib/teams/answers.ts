import type { Db } from '../db/client';
import { teamFigures, teamDates } from './figures';
import type { TeamRange } from './schemas';
import { membershipOf, type Membership } from './teams';

// The JSON answers of the team routes.

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export const createdTeamDto = (t: Membership) => ({ id: t.id, name: t.name, invite_code: t.inviteCode, invite_expires_at: iso(t.inviteExpiresAt) });

export const membershipDto = (t: Pick<Membership, 'id' | 'name' | 'role' | 'share'>) => ({ id: t.id, name: t.name, role: t.role, share: t.share });

export const inviteDto = (i: { inviteCode: string; inviteExpiresAt: Date | null }) => ({ invite_code: i.inviteCode, invite_expires_at: iso(i.inviteExpiresAt) });

/**
 * GET /teams/{id}: for members only (404 otherwise); the invite code for owners and admins. The
 * range's dates are UTC's, or those of `zone` (the team's page: the viewer's).
 */
export async function teamPage(db: Db, userId: string, teamId: string, rangeName: TeamRange, now = new Date(), zone = 'UTC') {
  const me = await membershipOf(db, userId, teamId);
  const range = teamDates(rangeName, now, zone);
  const members = await teamFigures(db, teamId, range);
  return {
    ...membershipDto(me),
    range,
    ...(me.role === 'member' ? {} : inviteDto(me)),
    members,
  };
}

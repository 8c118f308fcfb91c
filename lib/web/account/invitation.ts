import type { Db } from '../../db/client';
import { boardInvitation } from '../../leaderboards/boards';
import { teamInvitation } from '../../teams/invitations';

// The invitation a sign-in or sign-up is on its way to: the team's or private leaderboard's
// invite link it came from (its `callbackUrl`), named on those pages so a visitor who has no
// account yet knows the invitation comes with them through sign-up and mail confirmation.

/** The invite links' pages (the addresses mails and the team and board pages hand out). */
export const teamJoinPath = '/dashboard/teams';
export const boardJoinPath = '/dashboard/leaderboards/join';

/** A team's or board's invite link: its page with `?code=`. */
export const joinPath = (kind: 'team' | 'board', code: string) => `${kind === 'team' ? teamJoinPath : boardJoinPath}?${new URLSearchParams({ code })}`;

export interface PendingInvitation {
  kind: 'team' | 'board';
  name: string;
  owner: string | null;
}

/**
 * The team or board a same-site path (already checked: sameOriginPath) invites to, if it is a
 * live invite link; null for any other path, or a code that opens nothing.
 */
export async function invitationIn(db: Db, path: string): Promise<PendingInvitation | null> {
  const url = new URL(path, 'http://site.invalid');
  const code = url.searchParams.get('code');
  if (!code) return null;
  if (url.pathname === teamJoinPath) {
    const team = await teamInvitation(db, code, null);
    return 'name' in team ? { kind: 'team', name: team.name, owner: team.owner } : null;
  }
  if (url.pathname === boardJoinPath) {
    const board = await boardInvitation(db, code, null);
    return 'name' in board ? { kind: 'board', name: board.name, owner: board.owner } : null;
  }
  return null;
}

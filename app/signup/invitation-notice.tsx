import type { PendingInvitation } from '@/lib/web/account/invitation';

/**
 * The invitation a visitor signs in or up for (lib/web/account/invitation.ts): the team or board
 * named, set apart as a name someone chose, and the promise that it waits through sign-up and
 * mail confirmation.
 */
export function InvitationNotice({ invitation, after }: { invitation: PendingInvitation; after: string }) {
  const what = invitation.kind === 'team' ? 'the team' : 'the private leaderboard';
  return (
    <p className="notice" role="status" data-invitation={invitation.kind}>
      {invitation.owner ? `@${invitation.owner} invites you to join ${what} ` : `You are invited to join ${what} `}
      <strong>«{invitation.name}»</strong>. {after}
    </p>
  );
}

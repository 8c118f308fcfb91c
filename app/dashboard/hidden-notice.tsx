import { getDb } from '@/lib/db/client';
import { hiddenState } from '@/lib/leaderboards/trust/hides';
import { currentUser } from '@/lib/web/account/session';

const formatDate = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

// Tells a person an operator has hidden them from public boards: why, and until when (the
// same as GET /me's leaderboard_hidden). Their own figures, profile and private boards stay.
export async function HiddenNotice() {
  const user = await currentUser();
  const hidden = user && (await hiddenState(await getDb(), user.id));
  if (!hidden) return null;
  return (
    <p className="notice" role="status">
      An operator of this site has taken you off the public leaderboard and site-wide figures
      {hidden.until ? ` until ${formatDate(hidden.until)}` : ' until they review it'}. The reason given: “{hidden.reason}”. Your own figures, your profile and your private leaderboards are not
      affected.
    </p>
  );
}

// What a dashboard view says when the user's plan hides some of the days it would show (only on
// an install that sells plans, PLANS=on): from when it shows them, that nothing is deleted, and
// where the plan is seen and lifted (Settings, Account, "Your plan").

/** The one place a plan's window is lifted from, as a link. */
export const PLAN_SETTINGS = '/dashboard/settings/account#plan';

export function HistoryNote({ floor }: { floor: string }) {
  return (
    <p className="notice" data-testid="history-note">
      Your plan shows your history from {floor} on. Older activity is kept, not deleted, and shows again on a plan with more history: see{' '}
      <a href={PLAN_SETTINGS}>Your plan, in Settings</a>.
    </p>
  );
}

import type { AccountPlan } from '@/lib/plans/account';
import { INSTALL_PLAN } from '@/lib/plans/limits';
import { limitValue } from '@/lib/web/public/pricing';

// The dashboard's "Your plan": what the plan allows and what is used of each limit. A plan is
// changed by the site's operator; nothing is deleted by a change, and history older than the
// window is kept and shows again on a plan with a longer one. On an install that sells no plans
// (no PLANS=on) there is no plan to name: all of the history, and the server's own bounds.

const rows: { key: keyof AccountPlan['limits']; name: string }[] = [
  { key: 'api_tokens', name: 'API tokens' },
  { key: 'badges', name: 'Badges' },
  { key: 'history_days', name: 'History shown' },
  { key: 'team_members', name: 'Members per team you own' },
  { key: 'private_leaderboards', name: 'Private leaderboards you made' },
];

export function PlanUsage({ plan }: { plan: AccountPlan }) {
  return (
    <>
      {plan.id === INSTALL_PLAN.id ? (
        <p data-testid="no-plan-limits">
          This server sets no plan limits: you see all of your history, and only the bounds that keep the server well for everyone apply.{' '}
          <a href="/pricing">What this server offers</a>.
        </p>
      ) : (
        <p>
          You are on the <strong>{plan.name}</strong> plan. <a href="/pricing">Compare plans</a>.
        </p>
      )}
      <div className="table-wrap">
        <table data-plan={plan.id}>
          <thead>
            <tr>
              <th scope="col">Limit</th>
              <th scope="col">Used</th>
              <th scope="col">Allowed</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ key, name }) => {
              const allowed = plan.limits[key];
              const used = plan.usage[key];
              const over = key !== 'history_days' && allowed !== null && used !== null && used >= allowed;
              return (
                <tr key={key}>
                  <th scope="row">{name}</th>
                  <td>{key === 'history_days' ? (allowed === null ? 'All of it' : `The last ${limitValue(key, allowed)}`) : (used ?? '–')}</td>
                  <td>
                    {limitValue(key, allowed)}
                    {over ? ' (reached: remove one to make another)' : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {plan.limits.history_days !== null && (
        <p className="muted">Activity older than the window is kept, not deleted: it shows again on a plan that allows it.</p>
      )}
    </>
  );
}

import type { LimitName, Limits } from './limits';

// The lines a plan lists for its limits, made from the limits themselves: the pricing page and
// the plan list promise exactly what lib/plans/limits.ts enforces, and a limit an operator
// changes is listed as changed. The stored `features` say only what every account of the plan
// has besides.

const history = (days: number) => (days % 365 === 0 ? `${days / 365 === 1 ? 'One year' : `${days / 365} years`} of history` : `${days} days of history`);

const lines: Record<LimitName, (v: number | null) => string | null> = {
  history_days: (v) => (v === null ? 'Unlimited history' : history(v)),
  api_tokens: (v) => (v === null ? 'Unlimited API tokens' : `Up to ${v} API token${v === 1 ? '' : 's'}`),
  badges: (v) => (v === null ? 'Unlimited badges' : v === 0 ? null : `Up to ${v} badge${v === 1 ? '' : 's'}`),
  team_members: (v) => (v === null ? 'Teams of any size' : v === 0 ? null : `Teams of up to ${v} member${v === 1 ? '' : 's'}`),
  private_leaderboards: (v) => (v === null ? 'Unlimited private leaderboards' : v === 0 ? null : `Up to ${v} private leaderboard${v === 1 ? '' : 's'}`),
};

const order: LimitName[] = ['history_days', 'api_tokens', 'badges', 'team_members', 'private_leaderboards'];

/** One line per limit the plan grants ("Up to 5 API tokens", "Unlimited history"); none for a limit of 0. */
export function limitLines(limits: Limits): string[] {
  return order.map((name) => lines[name](limits[name])).filter((l): l is string => l !== null);
}

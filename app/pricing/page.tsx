import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { PLANS_TAG } from '@/lib/cache/tags';
import { listPublicPlans, type Plan } from '@/lib/plans';
import { prerenderingWithoutDatabase, tagRender } from '@/lib/web/pages';

// Served from the cache; plans are edited in the database and show within PUBLIC_CACHE_SECONDS (lib/cache/tags.ts).
export const revalidate = 3600;
export const metadata: Metadata = { title: 'Pricing', description: 'Free, Pro and Team plans compared side by side.' };

function price(p: Plan): string {
  if (p.price.amount === 0) return 'Free';
  const amount = new Intl.NumberFormat('en', { style: 'currency', currency: p.price.currency }).format(p.price.amount / 100);
  return p.price.interval ? `${amount} / ${p.price.interval}` : amount;
}

const limitNames: Record<string, string> = { history_days: 'History', api_tokens: 'API tokens', badges: 'Badges', team_members: 'Team members' };

function limitValue(name: string, value: number | boolean | null): string {
  if (value === null) return 'Unlimited';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return name === 'history_days' ? (value % 365 === 0 ? `${value / 365} year${value === 365 ? '' : 's'}` : `${value} days`) : String(value);
}

export default async function Pricing() {
  if (prerenderingWithoutDatabase()) return null;
  await tagRender(PLANS_TAG);
  const plans = await listPublicPlans(await getDb());
  const limits = [...new Set(plans.flatMap((p) => Object.keys(p.limits)))];
  return (
    <>
      <h1>Pricing</h1>
      <p className="lead">Start free. Every plan keeps your data private until you share it.</p>
      <div className="plans">
        {plans.map((p) => (
          <section key={p.id} className="plan" aria-labelledby={`plan-${p.id}`} style={p.highlighted ? { borderColor: 'var(--accent)', borderWidth: 2 } : undefined}>
            <h2 id={`plan-${p.id}`} style={{ margin: 0 }}>
              {p.name} {p.highlighted && <span className="muted" style={{ fontSize: '0.9rem' }}>· most chosen</span>}
            </h2>
            <div className="price">{price(p)}</div>
            <p className="muted">{p.description}</p>
            <ul>
              {p.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <a className={p.highlighted ? 'button' : 'button secondary'} href={`/signup?plan=${p.id}`}>
              {p.price.amount === 0 ? 'Start free' : `Choose ${p.name}`}
            </a>
          </section>
        ))}
      </div>
      <h2>Compare limits</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Limit</th>
              {plans.map((p) => (
                <th scope="col" key={p.id}>
                  {p.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {limits.map((l) => (
              <tr key={l}>
                <th scope="row">{limitNames[l] ?? l}</th>
                {plans.map((p) => (
                  <td key={p.id}>{limitValue(l, p.limits[l] ?? null)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">No checkout here yet: choosing a plan starts with an account.</p>
    </>
  );
}

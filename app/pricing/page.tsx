import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { PLANS_TAG } from '@/lib/cache/tags';
import { installPlan, listPublicPlans, MAX_TEAMS_OWNED, plansOn } from '@/lib/plans';
import { prerenderingWithoutDatabase, tagRender } from '@/lib/web/public/pages';
import { pricingView } from '@/lib/web/public/pricing';
import styles from './pricing.module.css';

// Served from the cache; plans are edited in the database and show within PUBLIC_CACHE_SECONDS (lib/cache/tags.ts).
export const revalidate = 3600;
export const metadata: Metadata = { title: 'Pricing', description: 'What this server offers: everything for every account, or its plans compared side by side.' };

export default async function Pricing() {
  if (prerenderingWithoutDatabase()) return null;
  await tagRender(PLANS_TAG);
  // Plans are the operator's choice (PLANS=on); without them, no price that cannot be paid.
  if (!plansOn()) return <Everything />;
  const { plans, compare } = pricingView(await listPublicPlans(await getDb()));
  return (
    <>
      <h1>Pricing</h1>
      <p className="lead">Start free. Every plan keeps your data private until you share it.</p>
      <div className="plans">
        {plans.map((p) => (
          <section key={p.id} className={p.highlighted ? `plan ${styles.highlighted}` : 'plan'} aria-labelledby={`plan-${p.id}`}>
            <h2 id={`plan-${p.id}`} className={styles.name}>
              {p.name} {p.highlighted && <span className={styles.badge}>recommended</span>}
            </h2>
            <p className={styles.price}>
              <span className={styles.amount}>{p.price.amount}</span> <span className={styles.period}>{p.price.period}</span>
            </p>
            <p className="muted">{p.description}</p>
            <ul>
              {p.features.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
            <a className={p.highlighted ? 'button' : 'button secondary'} href={`/signup?plan=${encodeURIComponent(p.id)}`}>
              {p.free ? 'Start free' : `Choose ${p.name}`}
            </a>
          </section>
        ))}
      </div>
      <h2>Compare plans</h2>
      <div className="table-wrap">
        <table className={styles.compare}>
          <thead>
            <tr>
              <th scope="col">
                <span className="muted">Plan</span>
              </th>
              {plans.map((p) => (
                <th scope="col" key={p.id}>
                  {p.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {compare.map((row) => (
              <tr key={row.name}>
                <th scope="row">{row.name}</th>
                {row.values.map((v, i) => (
                  <td key={plans[i].id}>{v}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">No checkout here yet: every account starts on Free, whichever plan you choose.</p>
    </>
  );
}

/** The page of an install that sells no plans: what every account has, and the bounds that stay. */
function Everything() {
  const plan = installPlan();
  return (
    <>
      <h1>Pricing</h1>
      <p className="lead">Free, for every account on this server: nothing to choose and nothing to pay. Your data stays private until you share it.</p>
      <section className="plan" aria-labelledby="plan-everything" data-plan={plan.id}>
        <h2 id="plan-everything" className={styles.name}>
          Everything, for everyone
        </h2>
        <p className="muted">{plan.description}</p>
        <ul>
          {plan.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
          <li>Up to {MAX_TEAMS_OWNED} teams owned</li>
        </ul>
        <a className="button" href="/signup">
          Create an account
        </a>
      </section>
      <p className="muted">
        The numbers above are the bounds that keep the server well for everyone, the same for every account. This server is run by its operator; Codetally
        is open source, and you can run your own.
      </p>
    </>
  );
}

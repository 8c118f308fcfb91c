import type { Metadata } from 'next';
import { Card } from '../components/card';
import { SignedInPage } from '../components/account-link';
import { hideAction, showAction } from './actions';
import { findAccounts, installFigures, listFlags } from '@/lib/admin/console';
import { getDb } from '@/lib/db/client';
import { auditLog } from '@/lib/leaderboards/trust/audit';
import { scanSignals } from '@/lib/leaderboards/trust/signals';
import { requireOperator } from '@/lib/web/account/operator';

// The operator's console (API.md, "Leaderboards people can trust"): the install's own figures, the
// flags queue with one-click hide, accounts (search, plan, created, last heartbeat, flags, hidden),
// and the audit log. Server-rendered, its forms plain posts that work without JavaScript; to
// anyone but an operator the page does not exist (404).

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Console', description: "The install's accounts, flags, audit log and figures.", robots: { index: false } };

const notices: Record<string, string> = {
  hidden: 'The account is hidden from public boards and site-wide figures.',
  shown: 'The account shows on public boards again.',
  no_user: 'No account has that handle.',
  bad_hide: 'A hide needs a reason (at most 200 characters) and, if it ends, a date in the future.',
};

/** The newest audit entries the console shows (`GET /admin/audit` answers more). */
const CONSOLE_AUDIT = 50;

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') + ' UTC' : '—');
const bytes = (n: number) => (n >= 1 << 30 ? `${(n / (1 << 30)).toFixed(1)} GiB` : `${(n / (1 << 20)).toFixed(1)} MiB`);

function HideButton({ handle, reason, label }: { handle: string; reason: string; label: string }) {
  return (
    <form action={hideAction} className="inline">
      <input type="hidden" name="handle" value={handle} />
      <input type="hidden" name="reason" value={reason} />
      <button type="submit" aria-label={`${label}: ${handle}`}>
        {label}
      </button>
    </form>
  );
}

function ShowButton({ handle }: { handle: string }) {
  return (
    <form action={showAction} className="inline">
      <input type="hidden" name="handle" value={handle} />
      <button type="submit" aria-label={`Show again: ${handle}`}>
        Show again
      </button>
    </form>
  );
}

export default async function ConsolePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const operator = await requireOperator();
  const search = await searchParams;
  const q = typeof search.q === 'string' ? search.q.trim().slice(0, 100) : '';
  const notice = typeof search.notice === 'string' ? notices[search.notice] : undefined;
  const db = await getDb();
  await scanSignals(db);
  const [figures, flags, accounts, audit] = await Promise.all([installFigures(db), listFlags(db), findAccounts(db, q || null), auditLog(db, null, CONSOLE_AUDIT)]);
  return (
    <>
      <SignedInPage />
      <h1>Console</h1>
      <p className="muted">Signed in as @{operator}, an operator of this install. Every action here is written to the audit log.</p>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}

      <Card id="figures" title="This install">
        <dl className="figures-list">
          <dt>Accounts</dt>
          <dd>{figures.accounts}</dd>
          <dt>Heartbeats today (UTC)</dt>
          <dd>{figures.heartbeats_today}</dd>
          <dt>Database size</dt>
          <dd>{bytes(figures.database_bytes)}</dd>
          <dt>Mail queue</dt>
          <dd>{figures.mail_queue}</dd>
          <dt>Relay queue</dt>
          <dd>{figures.relay_queue}</dd>
        </dl>
      </Card>

      <Card id="flags" title="Flags">
        <p className="muted">
          Raised by what is already kept, never by addresses or content: more than 20 coded hours in a day, more than 30 000 heartbeats in a day, time from more than 3 machines in one hour, one exact
          interval for more than 8 hours. Hiding takes the account off the public leaderboard and site-wide figures until shown again.
        </p>
        {flags.length === 0 ? (
          <p className="muted">No flags.</p>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Flags, scrolling sideways">
            <table>
              <caption className="sr-only">Flags, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Signal</th>
                  <th scope="col">Day</th>
                  <th scope="col">Figure</th>
                  <th scope="col">First seen</th>
                  <th scope="col">Action</th>
                </tr>
              </thead>
              <tbody>
                {flags.map((f) => (
                  <tr key={`${f.handle}/${f.signal}/${f.day}`}>
                    <td>@{f.handle}</td>
                    <td>{f.signal}</td>
                    <td>{f.day}</td>
                    <td>{f.detail}</td>
                    <td>{when(f.first_seen_at)}</td>
                    <td>{f.hidden ? <ShowButton handle={f.handle} /> : <HideButton handle={f.handle} reason={f.signal} label="Hide" />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <Card id="accounts" title="Accounts">
        <form method="get" action="/admin" role="search" aria-label="Find accounts">
          <label htmlFor="q">Handle or address contains</label>
          <input id="q" name="q" type="search" maxLength={100} defaultValue={q} />
          <button type="submit">Find</button>
        </form>
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Accounts, scrolling sideways">
          <table>
            <caption className="sr-only">{q ? `Accounts matching ${q}` : 'The newest accounts'}</caption>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Address</th>
                <th scope="col">Plan</th>
                <th scope="col">Created</th>
                <th scope="col">Last heartbeat</th>
                <th scope="col">Flags</th>
                <th scope="col">Public boards</th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((a) => (
                <tr key={a.handle}>
                  <td>@{a.handle}</td>
                  <td>{a.email ?? '—'}</td>
                  <td>{a.plan}</td>
                  <td>{when(a.created_at)}</td>
                  <td>{when(a.last_heartbeat_at)}</td>
                  <td>{a.flags}</td>
                  <td>
                    {a.hidden ? (
                      <>
                        Hidden ({a.hidden.reason}
                        {a.hidden.until ? `, until ${when(a.hidden.until)}` : ''}) <ShowButton handle={a.handle} />
                      </>
                    ) : (
                      'Shown'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h3 id="hide-one">Hide an account</h3>
        <form action={hideAction} aria-labelledby="hide-one">
          <label htmlFor="hide-handle">Handle</label>
          <input id="hide-handle" name="handle" type="text" required maxLength={64} autoComplete="off" />
          <label htmlFor="hide-reason">Reason (the person reads it on their dashboard)</label>
          <input id="hide-reason" name="reason" type="text" required maxLength={200} />
          <label htmlFor="hide-until">Until (optional)</label>
          <input id="hide-until" name="until" type="date" />
          <button type="submit">Hide</button>
        </form>
      </Card>

      <Card id="audit" title="Audit log">
        {audit.length === 0 ? (
          <p className="muted">Nothing yet.</p>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Audit log, scrolling sideways">
            <table>
              <caption className="sr-only">Operator actions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Operator</th>
                  <th scope="col">Action</th>
                  <th scope="col">Account</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Until</th>
                </tr>
              </thead>
              <tbody>
                {audit.map((a, i) => (
                  <tr key={i}>
                    <td>{when(a.at)}</td>
                    <td>{a.operator}</td>
                    <td>{a.action}</td>
                    <td>{a.handle ? `@${a.handle}` : '—'}</td>
                    <td>{a.reason ?? '—'}</td>
                    <td>{when(a.until)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </>
  );
}

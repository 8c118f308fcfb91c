import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { wallClock } from '@/lib/local-time';
import { listRelays } from '@/lib/wakatime/relaying/relays';
import { MAX_RELAYS } from '@/lib/wakatime/relaying/schemas';
import { requireUser } from '@/lib/web/account/session';
import { deleteRelayAction, pauseOrResumeRelayAction } from './actions';
import { RelayForm } from './relay-form';

// Settings, Relays: the old service (WakaTime, Wakapi, Hackatime, another Codetally) kept in step
// while its owner tries Codetally. Each relay with its state, an add form, pause or resume, and
// delete; every form works without JavaScript (lib/wakatime/relaying/).

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Relays · Settings', description: 'Keep your old service in step.', robots: { index: false } };

function State({ paused, lastError, pending }: { paused: boolean; lastError: string | null; pending: number }) {
  if (paused) return <strong>Paused</strong>;
  if (lastError && pending > 0) return <strong>Retrying</strong>;
  return <>{pending > 0 ? 'Sending' : 'Up to date'}</>;
}

export default async function RelaysPage() {
  const user = await requireUser('/dashboard/settings/relays');
  const relays = await listRelays(await getDb(), user.id);
  const when = (iso: string | null) => (iso ? <time dateTime={iso}>{wallClock(iso, user.timezone)}</time> : '—');
  return (
    <>
      <h2 id="relays">Keep your old service in step</h2>
      <p>
        Trying Codetally while you still use WakaTime, Wakapi, Hackatime or another Codetally? Add it here: every heartbeat your editors send
        to Codetally is forwarded to it, so both stay current. Forwarding never slows your editor: it is queued and sent within seconds, retried
        after a failure for 24 hours, and a heartbeat goes once to each relay. The heartbeats go as your editor sent them, file paths included,
        to the service you name. At most {MAX_RELAYS} relays.
      </p>
      <section aria-labelledby="relay-list">
        <h3 id="relay-list">Your relays</h3>
        {relays.length === 0 ? (
          <p className="muted" data-testid="no-relays">
            No relay yet.
          </p>
        ) : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Your relays, scrolling sideways">
            <table data-testid="relays">
              <caption className="sr-only">Your relays and their state</caption>
              <thead>
                <tr>
                  <th scope="col">Relay</th>
                  <th scope="col">State</th>
                  <th scope="col">Last success</th>
                  <th scope="col">Waiting</th>
                  <th scope="col">Failures today</th>
                  <th scope="col">Last error</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {relays.map((r) => (
                  <tr key={r.id}>
                    <td>
                      {r.name}
                      <br />
                      <code className="muted">{r.api_url}</code>
                    </td>
                    <td>
                      <State paused={r.paused} lastError={r.last_error} pending={r.pending} />
                    </td>
                    <td>{when(r.last_success_at)}</td>
                    <td>{r.pending}</td>
                    <td>{r.failures_today}</td>
                    <td>{r.last_error ?? '—'}</td>
                    <td>
                      <form action={pauseOrResumeRelayAction}>
                        <input type="hidden" name="id" value={r.id} />
                        <input type="hidden" name="paused" value={r.paused ? 'false' : 'true'} />
                        <button type="submit" className="secondary" aria-label={`${r.paused ? 'Resume' : 'Pause'} relay ${r.name}`}>
                          {r.paused ? 'Resume' : 'Pause'}
                        </button>
                      </form>
                      <form action={deleteRelayAction}>
                        <input type="hidden" name="id" value={r.id} />
                        <button type="submit" className="secondary" aria-label={`Delete relay ${r.name}`}>
                          Delete
                        </button>
                      </form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {relays.length < MAX_RELAYS && (
        <section aria-labelledby="add-relay">
          <h3 id="add-relay">Add a relay</h3>
          <p>
            Your key there: on WakaTime, Settings, API Key; on Wakapi, Settings; on another Codetally, an editor key (Keys). Codetally checks it
            once by asking the service who it belongs to.
          </p>
          <RelayForm />
        </section>
      )}
    </>
  );
}

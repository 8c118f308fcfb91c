import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { wallClock } from '@/lib/local-time';
import { sendersOf, sinceText } from '@/lib/wakatime/sending/status';
import { requireUser, siteAddress } from '@/lib/web/account/session';

// Settings, Sending: "is my editor sending?" Each editor, AI agent and machine heard from, with
// its version, system and last heartbeat, those quiet for over a day marked, and what to check
// when one goes quiet (as WakaTime's and Hackatime's plugin status pages). Read from what is
// stored anyway (lib/wakatime/sending/status.ts).

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sending · Settings', description: 'Which of your editors, agents and machines are sending.', robots: { index: false } };

/** A last heartbeat: how long ago, and the time on the owner's clock. */
function Heard({ iso, now, timeZone }: { iso: string; now: number; timeZone: string }) {
  return (
    <>
      {sinceText(iso, now)} <time dateTime={iso} className="muted">({wallClock(iso, timeZone)})</time>
    </>
  );
}

const status = (quiet: boolean, iso: string, now: number) => (quiet ? <strong>Quiet, {sinceText(iso, now).replace(/ ago$/, '')}</strong> : 'Sending');

export default async function SendingPage() {
  const user = await requireUser('/dashboard/settings/sending');
  const [{ now, senders, machines }, site] = await Promise.all([sendersOf(await getDb(), user.id), siteAddress()]);
  const quiet = senders.filter((s) => s.quiet).length;
  const cfg = `[settings]\napi_url = ${site.origin}/api/wakatime/v1\napi_key = <your key: Keys, “Show key”>`;
  return (
    <>
      <h2 id="sending">Is my editor sending?</h2>
      <p>
        Every editor, AI agent and machine that sent heartbeats, the most recently heard first, with the time of its last one on your clock (
        {user.timezone}). One that sent nothing for more than a day is marked quiet: see <a href="#quiet">what to check</a>. Heartbeats are kept
        14 days; what sent before shows by the last time its plugin was seen.
      </p>
      <section aria-labelledby="senders">
        <h3 id="senders">Editors and agents</h3>
        {senders.length === 0 ? (
          <p className="muted" data-testid="no-senders">
            Nothing has sent heartbeats yet. Make a key in <a href="/dashboard/settings">Keys</a>, put its two lines in <code>~/.wakatime.cfg</code>
            , and code for a minute: your editor shows up here.
          </p>
        ) : (
          <>
            {quiet > 0 && (
              <p role="status">
                {quiet} of {senders.length} quiet for more than a day: <a href="#quiet">what to check</a>.
              </p>
            )}
            {/* On a phone the table scrolls sideways: reachable with the keyboard too. */}
            <div className="table-wrap" tabIndex={0} role="region" aria-label="Editors and agents, scrolling sideways">
              <table data-testid="senders">
                <caption className="sr-only">Editors and agents that sent heartbeats</caption>
                <thead>
                  <tr>
                    <th scope="col">Editor or agent</th>
                    <th scope="col">Version</th>
                    <th scope="col">System</th>
                    <th scope="col">Machine</th>
                    <th scope="col">Last heartbeat</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {senders.map((s, i) => (
                    <tr key={i}>
                      <td>{s.name}</td>
                      <td>{s.version ?? '—'}</td>
                      <td>{s.os || '—'}</td>
                      <td>{s.machine || '—'}</td>
                      <td>
                        <Heard iso={s.last} now={now} timeZone={user.timezone} />
                      </td>
                      <td>{status(s.quiet, s.last, now)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      {machines.length > 0 && (
        <section aria-labelledby="machines">
          <h3 id="machines">Machines</h3>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Machines, scrolling sideways">
            <table data-testid="machines">
              <caption className="sr-only">Machines your time came from</caption>
              <thead>
                <tr>
                  <th scope="col">Machine</th>
                  <th scope="col">Last time sent</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {machines.map((m) => (
                  <tr key={m.name}>
                    <td>{m.name}</td>
                    <td>
                      <Heard iso={m.last} now={now} timeZone={user.timezone} />
                    </td>
                    <td>{status(m.quiet, m.last, now)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <section aria-labelledby="quiet">
        <h3 id="quiet">When one goes quiet</h3>
        <ol className="steps">
          <li>
            <strong>The settings.</strong> <code>~/.wakatime.cfg</code> on that machine needs these two lines (keep your other settings), then a
            restart of the editor:
            <pre data-testid="sending-cfg">{cfg}</pre>
            The key is on <a href="/dashboard/settings">Keys</a>: “Show key” beside an editor key shows it and these lines again for another
            machine.
          </li>
          <li>
            <strong>The key.</strong> A revoked key is refused: Keys says “revoked” beside it. Make a new one, or show a live one again.
          </li>
          <li>
            <strong>The plugin&apos;s log.</strong> <code>~/.wakatime/wakatime.log</code> says why a heartbeat was not sent (a 401 is the key, a
            connection error the address or the network). Add <code>debug = true</code> under <code>[settings]</code> for more.
          </li>
          <li>
            <strong>The offline queue.</strong> Heartbeats made while the site cannot be reached wait on the machine and are sent later: run{' '}
            <code>~/.wakatime/wakatime-cli --offline-count</code> to see how many wait. Time comes late, not lost.
          </li>
          <li>
            <strong>A proxy.</strong> Behind one, <code>proxy = https://user:pass@host:port</code> under <code>[settings]</code> (or{' '}
            <code>HTTPS_PROXY</code>) lets the plugin through; a proxy that inspects TLS may need <code>no_ssl_verify = true</code> or its
            certificate in <code>ssl_certs_file</code>.
          </li>
        </ol>
      </section>
    </>
  );
}

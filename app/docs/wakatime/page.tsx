import type { Metadata } from 'next';
import { wakatimeCfgLines, WithOrigin } from '@/app/components/site-origin';
import { configuredOrigin } from '@/lib/http/origin';
import styles from '../docs.module.css';
import { DocTable } from '../parts';

export const metadata: Metadata = {
  title: 'Use your WakaTime plugins',
  description: 'Send your editor time to Codetally with the WakaTime plugin you already have: two lines of ~/.wakatime.cfg.',
};

const routes: [string, string, string][] = [
  ['POST', '/users/current/heartbeats', 'one heartbeat; 201 {"data": …}'],
  ['POST', '/users/current/heartbeats.bulk', 'up to 1000 heartbeats; 201 {"responses": [[{"data": …}, 201] | [{"error": …}, 400], …]}, one per heartbeat, in order'],
  ['GET', '/users/current/statusbar/today', 'what the status bar shows: the total, categories, languages, editors, projects, systems'],
  ['GET', '/users/current/summaries?start=&end=', 'per date; or range=Today, Yesterday, Last 7 Days, Last 7 Days from Yesterday, Last 14 Days, Last 30 Days, This Week, Last Week, This Month, Last Month (start and end take those names too: start=today&end=today)'],
  ['GET', '/users/current/stats/{range}', 'last_7_days, last_30_days, last_6_months, last_year, all_time, a year (2026) or a month (2026-12); ?project= and ?language= filter; /users/current/stats: the last 7 days'],
  ['GET', '/users/{handle}/stats[/{range}]', 'without a key, or with someone else\'s: a public profile\'s shared figures, for README cards (see "Your coding time in a README")'],
  ['GET', '/users/current/all_time_since_today', 'every second ever counted'],
  ['GET', '/users/current', 'you'],
  ['GET', '/users/current/projects', 'your projects, the most recently used first; ?q= filters'],
];

export default function WakatimeDocs() {
  const origin = '{origin}';
  const base = `${origin}/api/wakatime/v1`;
  const configured = configuredOrigin();
  const site = (text: string) => <WithOrigin text={text} configured={configured} />;
  return (
    <>
      <h1>Use your WakaTime plugins</h1>
      <p className="lead">
        Every WakaTime editor plugin (VS Code, JetBrains IDEs, Vim, Neovim, Emacs, Sublime Text, Xcode, terminals and browsers) sends through
        wakatime-cli, which sends to whatever <code>api_url</code> its config names. Point it at Codetally and your editor&apos;s time shows on
        your dashboard, your status bar and, when you share it, your public profile.
      </p>

      <h2 id="setup">Two lines</h2>
      <ol className="steps">
        <li>
          In your <a href="/dashboard/settings#editor">settings, under Keys</a>, choose &ldquo;Make a key for my editor&rdquo;. The key is shown once.
        </li>
        <li>
          Put these lines in <code>~/.wakatime.cfg</code> (keep your other settings) and restart the editor:
          <pre>{site(wakatimeCfgLines)}</pre>
        </li>
      </ol>
      <p>
        The key works as WakaTime&apos;s does: as the user name of Basic authentication (how wakatime-cli sends it), as a Bearer token (the key,
        or the key in base64 as Wakapi&apos;s users send it), or as <code>?api_key=</code>. <code>current</code> in a path may also be your handle or your id.
      </p>

      <h2 id="privacy">What is kept, and what is not</h2>
      <ul>
        <li>
          Kept: each heartbeat&apos;s time, language, project, category, and the editor and operating system named by the plugin&apos;s User-Agent
          (an imported dump&apos;s heartbeats: by the User-Agent the dump lists for them). Editors go by the names WakaTime shows: Neovim however
          vim-wakatime or a plugin spells it, VS Code for <code>vscode</code> or <code>code</code>.
        </li>
        <li>
          Never kept or logged: the file&apos;s path or name, the branch, dependencies, line and cursor numbers. To recognise a heartbeat sent
          twice, a keyed digest of the file name is kept for 14 days, then deleted with the heartbeat, and with it whether the heartbeat was a save
          (<code>is_write</code>, which <code>heartbeats?date=</code> gives back).
        </li>
        <li>For heartbeats of type <code>app</code> the entity is the application&apos;s name, kept as desktop time.</li>
        <li>A heartbeat carrying a field named content, body, text, diff, patch, clipboard, source, code or snippet is refused.</li>
      </ul>

      <h2 id="time">How heartbeats become time</h2>
      <p>
        WakaTime&apos;s rule: your heartbeats in time order; the gap to the next one counts when it is at most 15 minutes, credited to the earlier
        heartbeat&apos;s language, project, editor and category, in the hours it covers in your timezone. Heartbeats that arrive late (up to 14
        days), twice, or in any order and batching count exactly as if they had arrived once and in order. Older than 14 days, or more than an
        hour ahead: refused, each with its own answer. Time from WakaTime plugins and from Codetally&apos;s own plugins adds up, with no hour
        counting more than 60 minutes.
      </p>

      <h2 id="import">Bring your history: import a data dump</h2>
      <p>
        On wakatime.com, export your heartbeats (Settings, Export) and import the file in your <a href="/dashboard/settings/import">settings, under Import</a>, or send it with a token that has the <code>account</code> scope:
      </p>
      <pre>
        <code>{site(`curl -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\
  --data-binary @wakatime-heartbeats.json ${origin}/main/api/v1/me/imports`)}</code>
      </pre>
      <p>
        The answer (202) comes once the file is uploaded, with an id; the file is then read in the background, and{' '}
        <code>/main/api/v1/me/imports/&lt;id&gt;</code> says how far it has got. One import at a time; a dump of any size up to 4 GiB is read as it streams, with the
        same rules as heartbeats (and the same that is kept: no paths, branches or dependencies) except the 14-day limit. Nothing counts twice:
        the last 14 days are merged with what your plugins sent; older days count once each, as the import that holds most of that day has
        them, so importing the same file again, or a later export, changes nothing that was already right. Days before the first heartbeat
        your plugins sent to Codetally come from imports; from that heartbeat on, Codetally&apos;s own record counts.
      </p>

      <h2 id="routes">Routes</h2>
      <p>
        Under <code>{site(base)}</code>. Sending needs a key with the <code>sync</code> scope (and counts against the write rate limit), which also
        reads today&apos;s status bar; reading your other figures needs <code>stats</code>. A key made for your editor has both. Errors are <code>{'{"error": "…"}'}</code> with the usual
        status. The same routes answer under <code>{site(`${origin}/api/v1`)}</code>, WakaTime&apos;s own path layout, for clients and{' '}
        <a href="/docs/readme-cards">README tools</a> that assume it.
      </p>
      <DocTable caption="WakaTime's routes" columns={[['Method', styles.colStatus], ['Path', styles.colPath], ['What']]}>
        {routes.map(([method, path, what]) => (
          <tr key={`${method} ${path}`}>
            <td>{method}</td>
            <td>
              <code>{path}</code>
            </td>
            <td>{what}</td>
          </tr>
        ))}
      </DocTable>
    </>
  );
}

import type { Metadata } from 'next';
import { WithOrigin } from '@/app/components/site-origin';
import { configuredOrigin } from '@/lib/http/origin';
import { readmeCards } from '@/lib/web/public/readme-cards';
import styles from '../docs.module.css';

export const metadata: Metadata = {
  title: 'Your coding time in a README',
  description: 'Show your Codetally time on GitHub with the README tools made for WakaTime: github-readme-stats, waka-readme, waka-readme-stats and metrics.',
};

export default function ReadmeCardDocs() {
  const configured = configuredOrigin();
  const site = (text: string) => <WithOrigin text={text} configured={configured} />;
  const cards = readmeCards({ origin: '{origin}', host: '{host}', handle: 'YOUR_HANDLE' });
  // The guides' class: an address in <code> wraps anywhere, so a phone's page is no wider than its screen.
  return (
    <div className={styles.docs}>
      <h1>Your coding time in a README</h1>
      <p className="lead">
        The tools that draw WakaTime stats into a GitHub profile README read them from any WakaTime-compatible server. Codetally answers
        where they ask: <code>{site('{origin}/api/v1')}</code> is WakaTime&apos;s own path layout, with the same routes as{' '}
        <a href="/docs/wakatime">
          <code>/api/wakatime/v1</code>
        </a>
        . Your <a href="/dashboard/settings/badges#readme-cards">settings, under Badges and cards</a>, show each setup below with your handle filled in.
      </p>

      <h2 id="public">Public or with a key</h2>
      <ul>
        <li>
          Without a key, <code>{site('{origin}/api/v1/users/YOUR_HANDLE/stats')}</code> (or <code>/stats/last_30_days</code>,{' '}
          <code>last_6_months</code>, <code>last_year</code>, <code>all_time</code>) answers only while your profile is public, and shows what you
          share: the totals; your languages if you share languages; your editors, operating systems and categories if you share editors; never
          your projects. A private or unknown profile is a 404, which README cards show as &ldquo;user not found&rdquo;.
        </li>
        <li>
          With a key that has the <code>stats</code> scope, <code>users/current/stats/…</code> answers your own figures, private ones included
          (a project you hid stays unnamed, its time counted in the totals). Make the Action a key of its own in your{' '}
          <a href="/dashboard/settings#tokens">settings, under Keys</a>: for a tool made for WakaTime, with <code>stats</code> alone, which
          reads but cannot send time or change your settings or projects; not your editor&apos;s key, which also sends time. Keep it
          in a repository secret (<code>WAKATIME_API_KEY</code>), never in the README, and revoke it there if it leaks.
        </li>
        <li>
          Public answers may be kept by caches for a minute; the image services keep their cards longer (github-readme-stats: hours), so a
          change of your settings shows there later.
        </li>
      </ul>

      {cards.map((card) => (
        <section key={card.id} aria-labelledby={card.id}>
          <h2 id={card.id}>
            <a href={card.home}>{card.tool}</a>
          </h2>
          <p>{card.what}</p>
          <p>{card.where}</p>
          <pre>
            <code>{site(card.snippet)}</code>
          </pre>
        </section>
      ))}
    </div>
  );
}

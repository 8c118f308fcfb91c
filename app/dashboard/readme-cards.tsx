import { readmeCards } from '@/lib/web/public/readme-cards';
import { CopyButton } from './widgets';
import type { SiteAddress } from '@/lib/web/account/session';
import { VisitorText } from './visitor-origin';

// The dashboard's "README card" section: each README tool that reads WakaTime-shaped stats, set
// up for this user and this site (lib/web/public/readme-cards.ts; how each works: /docs/readme-cards).
export function ReadmeCards({ site, handle, profilePublic, sharesLanguages }: { site: SiteAddress; handle: string; profilePublic: boolean; sharesLanguages: boolean }) {
  return (
    <>
      <h3 id="readme-cards">README card</h3>
      <p>
        Tools made for WakaTime draw your coding time into a GitHub README; pointed at this site they read your figures here.{' '}
        <a href="/docs/readme-cards">How each one works</a>.
      </p>
      <p data-testid="readme-card-key">
        The GitHub Actions send a key and show your own figures. Give them one of their own: in <a href="/dashboard/settings#tokens">Keys</a>,
        a token for a tool made for WakaTime with the <code>stats</code> scope alone. It reads your figures (private ones, projects
        included) but cannot send time or change your settings or projects; a project you hid stays unnamed, its time counted in the totals. Not your
        editor&apos;s key: that one also sends time in your name.
      </p>
      {(!profilePublic || !sharesLanguages) && (
        <p className="muted" data-testid="readme-card-private">
          The github-readme-stats card reads without a key, so it shows languages only while your profile is public and you share languages
          (settings above).
        </p>
      )}
      <div className="grid">
        {readmeCards({ origin: site.origin, host: new URL(site.origin).host, handle }).map((card) => (
          <div key={card.id} className="card" data-testid={`readme-card-${card.id}`}>
            <h4>{card.tool}</h4>
            <p>{card.what}</p>
            <p className="muted">{card.where}</p>
            <pre data-testid={`readme-card-${card.id}-text`}>
              <VisitorText text={card.snippet} site={site} />
            </pre>
            <CopyButton text={card.snippet} label={`Copy for ${card.tool.split(' (')[0]}`} site={site} />
          </div>
        ))}
      </div>
    </>
  );
}

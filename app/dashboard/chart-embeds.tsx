import { chartEmbeds, chartImageUrl } from '@/lib/charts/urls';
import { CopyButton } from './widgets';
import type { SiteAddress } from '@/lib/web/account/session';
import { VisitorText } from './visitor-origin';

// The dashboard's "Charts for a README" section: the embeddable chart images of this user
// (GET /main/api/v1/public/charts/{userUUID}/{chart}.svg), as Markdown to paste. They are public
// images behind the sharing gate: a private profile's answer 404 until it is made public, so the
// previews (the images themselves, from this site) show only while it is.
export function ChartEmbeds({ site, userId, profilePublic }: { site: SiteAddress; userId: string; profilePublic: boolean }) {
  return (
    <>
      <h3 id="chart-embeds">Charts for a README</h3>
      <p>
        Your languages, your year and your weeks as images, in light or dark as the reader&apos;s screen is. Add <code>?theme=light</code> or{' '}
        <code>?theme=dark</code> for one of them, and <code>?range=7d</code> or <code>365d</code> to the languages.
      </p>
      {!profilePublic && (
        <p className="muted" data-testid="chart-embeds-private">
          Your profile is private: these images answer “not found” until you make it public (settings above).
        </p>
      )}
      <div className="grid">
        {chartEmbeds(site.origin, userId).map((embed) => (
          <div key={embed.chart} className="card" data-testid={`chart-embed-${embed.chart}`}>
            <h4>{embed.title}</h4>
            {profilePublic && (
              // eslint-disable-next-line @next/next/no-img-element -- an SVG of this site, drawn at its own size: nothing to optimise
              <img className="chart-preview" src={chartImageUrl('', userId, embed.chart)} alt={`Preview of ${embed.title.toLowerCase()}`} loading="lazy" decoding="async" />
            )}
            <pre>
              <VisitorText text={embed.markdown} site={site} />
            </pre>
            <CopyButton text={embed.markdown} label={`Copy the Markdown of ${embed.title.toLowerCase()}`} site={site} />
          </div>
        ))}
      </div>
    </>
  );
}

import type { Metadata } from 'next';
import { badgesData } from '@/lib/web/account/dashboard';
import { requireUser } from '@/lib/web/account/session';
import { deleteBadgeAction, refreshBadgeAction } from '../../actions';
import { ChartEmbeds } from '../../chart-embeds';
import { ReadmeCards } from '../../readme-cards';
import { RowAction } from '../../row-action';
import { VisitorInput } from '../../visitor-origin';
import { BadgeMaker, CopyButton } from '../../widgets';

// Settings, Badges and cards: badges (each one's consent to publish its figure), README cards and
// chart embeds, with the snippets to paste.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Badges and cards · Settings', description: 'Badges, README cards and chart embeds for your README.', robots: { index: false } };

export default async function BadgesPage() {
  const user = await requireUser('/dashboard/settings/badges');
  const { account, site, languages, badges } = await badgesData(user);
  return (
    <>
      <h2 id="badges">Badges</h2>
      <p>A badge shows one figure in a README, even while your profile is private: making it is your consent to publish that figure alone.</p>
      <p className="muted">
        After you delete a badge or make your profile private, copies kept by CDNs and GitHub&apos;s image proxy may still be shown for up to two minutes.
      </p>
      <BadgeMaker languages={languages} />
      {badges.map((b) => (
        <section key={b.id} className="card" style={{ marginTop: '1rem' }} aria-label={`Badge ${b.label}`}>
          <p>
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={b.url} alt={b.label} data-testid="badge-image" /> <span className="muted">{b.metric.replace('_', ' ')}, {b.range}, {b.style}</span>
          </p>
          <label htmlFor={`md-${b.id}`}>Markdown</label>
          <VisitorInput id={`md-${b.id}`} text={b.markdown} site={site} /> <CopyButton text={b.markdown} label="Copy Markdown" site={site} />
          <label htmlFor={`html-${b.id}`}>HTML</label>
          <VisitorInput id={`html-${b.id}`} text={b.html} site={site} /> <CopyButton text={b.html} label="Copy HTML" site={site} />
          <div className="pager">
            <RowAction action={refreshBadgeAction} id={b.id} label="Refresh" ariaLabel={`Refresh badge ${b.label}`} />
            <RowAction action={deleteBadgeAction} id={b.id} label="Delete" ariaLabel={`Delete badge ${b.label}`} />
          </div>
        </section>
      ))}
      <ReadmeCards site={site} handle={account.handle} profilePublic={account.settings.profile_public} sharesLanguages={account.settings.share_languages} />
      <ChartEmbeds site={site} userId={account.id} profilePublic={account.settings.profile_public} />
    </>
  );
}

import type { Metadata } from 'next';
import { YearReview } from '@/app/components/year-review';
import { formatDuration } from '@/lib/badges/format';
import { yearPageData } from '@/lib/web/public/year';

// A public profile's year in code: only what its owner shares (lib/stats/year.ts publicYear asks
// the sharing gate), never projects; its share image is card.png beside it. Cached as the profile
// page is (lib/web/public/year.ts tags it).
export const revalidate = 60;
export const generateStaticParams = (): { handle: string; year: string }[] => [];

type Props = { params: Promise<{ handle: string; year: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { handle, year } = await params;
  const { owner, figures } = await yearPageData(handle, year);
  const title = `${owner.user.display_name}'s year in code ${figures.year}`;
  const description = `${owner.user.display_name} coded ${formatDuration(figures.total_seconds)} on ${figures.days_coded} days in ${figures.year}, on Codetally.`;
  const image = { url: `/u/${encodeURIComponent(owner.user.handle)}/year/${figures.year}/card.png`, width: 1200, height: 630, alt: `${title}: ${formatDuration(figures.total_seconds)}` };
  return {
    title,
    description,
    openGraph: { title, description, images: [image] },
    twitter: { card: 'summary_large_image', title, description, images: [image] },
  };
}

export default async function PublicYear({ params }: Props) {
  const { handle, year } = await params;
  const { owner, figures, parts } = await yearPageData(handle, year);
  const profile = `/u/${encodeURIComponent(owner.user.handle)}`;
  return (
    <>
      <h1>
        {owner.user.display_name}&apos;s year in code {figures.year} <span className="muted">@{owner.user.handle}</span>
      </h1>
      <YearReview figures={figures} parts={parts} who={owner.user.display_name} />
      <p style={{ marginTop: '1rem' }}>
        <a href={profile}>{owner.user.display_name}&apos;s profile</a>
      </p>
    </>
  );
}

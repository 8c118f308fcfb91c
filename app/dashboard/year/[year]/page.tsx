import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { YearReview } from '../../../components/year-review';
import { getDb } from '@/lib/db/client';
import { ALL_PARTS, currentYear, FIRST_YEAR, yearFigures, yearsCoded } from '@/lib/stats/year';
import { requireUser } from '@/lib/web/account/session';

// The owner's year in code (GET /me/years/{year}, drawn): every part, projects and categories
// included. A year from 1970 to the current one; a past year without time is not found (the
// dashboard offers only years with time). Linked from Insights (yearLinks).

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ year: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { year } = await params;
  return { title: /^\d{4}$/.test(year) ? `Your year in code ${year}` : 'Your year in code', robots: { index: false } };
}

export default async function YearPage({ params }: Props) {
  const segment = (await params).year;
  const user = await requireUser(`/dashboard/year/${encodeURIComponent(segment)}`);
  const year = /^\d{4}$/.test(segment) ? Number(segment) : NaN;
  const now = currentYear(user.timezone);
  if (!(year >= FIRST_YEAR && year <= now)) notFound();
  const db = await getDb();
  const [figures, years] = await Promise.all([yearFigures(db, user, year), yearsCoded(db, user)]);
  if (year < now && figures.total_seconds === 0) notFound();
  const others = years.filter((y) => y !== year);
  const shareAt = `/u/${user.handle}/year/${year}`;
  return (
    <>
      <h1>Your year in code {year}</h1>
      {year === now && <p className="muted">{year} so far, up to today.</p>}
      <YearReview figures={figures} parts={ALL_PARTS} who="You" />
      <section aria-labelledby="year-share" className="card" style={{ marginTop: '1rem' }}>
        <h2 id="year-share">Share it</h2>
        {user.profilePublic ? (
          <p>
            Your public year page is <a href={shareAt}>{shareAt}</a>, with its image <a href={`${shareAt}/card.png`}>card.png</a>. It shows only what your
            sharing settings share: never your projects, AI-assisted coding only if you share it.
          </p>
        ) : (
          <p>
            Your profile is private, so nobody else can see this year. To share it, make your profile public in <a href="/dashboard/settings/sharing">Sharing</a>.
          </p>
        )}
      </section>
      {others.length > 0 && (
        <nav aria-label="Other years" style={{ marginTop: '1rem' }}>
          Other years:{' '}
          {others.map((y, i) => (
            <span key={y}>
              {i > 0 && ', '}
              <a href={`/dashboard/year/${y}`}>{y}</a>
            </span>
          ))}
        </nav>
      )}
    </>
  );
}

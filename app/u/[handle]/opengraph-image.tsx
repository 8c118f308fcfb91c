import { ImageResponse } from 'next/og';
import { formatDuration } from '@/lib/badges/format';
import { profileData } from '@/lib/web/pages';

// The social card of a public profile: only what the profile page shows.
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';
export const alt = 'Coding activity on Codetally';
// Cached as the profile page is (page.tsx).
export const revalidate = 60;
export const generateStaticParams = (): { handle: string }[] => [];

export default async function Image({ params }: { params: Promise<{ handle: string }> }) {
  const { user, time, language } = await profileData((await params).handle);
  const top = language.languages.slice(0, 4);
  return new ImageResponse(
    (
      <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', padding: 72, background: '#0f172a', color: '#f8fafc' }}>
        <div style={{ fontSize: 36, color: '#93c5fd' }}>Codetally</div>
        <div style={{ fontSize: 72, fontWeight: 700, marginTop: 24 }}>{user.display_name}</div>
        <div style={{ fontSize: 36, color: '#cbd5e1' }}>{`@${user.handle}`}</div>
        <div style={{ fontSize: 56, marginTop: 48 }}>{`${formatDuration(time.total_seconds)} in 30 days`}</div>
        <div style={{ display: 'flex', gap: 24, marginTop: 32, fontSize: 32, color: '#e2e8f0' }}>
          {top.map((l) => (
            <div key={l.name} style={{ display: 'flex', padding: '8px 20px', borderRadius: 12, background: '#1e3a8a' }}>
              {`${l.name} ${l.percent}%`}
            </div>
          ))}
        </div>
      </div>
    ),
    size,
  );
}

import { ImageResponse } from 'next/og';
import { configuredOrigin } from '@/lib/http/origin';
import { profileData } from '@/lib/web/public/pages';
import { cardFonts, socialCard } from '@/lib/web/public/social-card';
import { SocialCardImage } from './social-card';

// The social card of a public profile: only what the profile page shows (lib/web/public/social-card.ts).
export const size = { width: 1200, height: 630 };
export const contentType = 'image/png';
export const alt = 'Coding activity on Codetally';
// Cached as the profile page is (page.tsx).
export const revalidate = 60;
export const generateStaticParams = (): { handle: string }[] => [];

export default async function Image({ params }: { params: Promise<{ handle: string }> }) {
  const card = socialCard(await profileData((await params).handle), configuredOrigin());
  return new ImageResponse(<SocialCardImage card={card} />, { ...size, fonts: await cardFonts() });
}

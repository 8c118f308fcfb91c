import type { Metadata } from 'next';
import { LEADERBOARD_TAG, dayTag } from '@/lib/cache/tags';
import { prerenderingWithoutDatabase, tagRender } from '@/lib/web/public/pages';
import { Board, leaderboardMetadata, queryOf } from './board';

// The default view, served from the cache until a listing changes or the snapshot may be rebuilt
// (LEADERBOARD_MAX_AGE, lib/cache/tags.ts).
export const revalidate = 300;
export const metadata: Metadata = leaderboardMetadata;

export default async function Leaderboard() {
  if (prerenderingWithoutDatabase()) return null;
  await tagRender(LEADERBOARD_TAG, dayTag('UTC'));
  return <Board {...queryOf({})} />;
}

import type { Metadata } from 'next';
import { Board, leaderboardMetadata, queryOf, type Search } from '../board';

// A view of the leaderboard other than the default: /leaderboard with a query comes here
// (next.config.ts), rendered per request from the cached snapshot.
export const dynamic = 'force-dynamic';
export const metadata: Metadata = leaderboardMetadata;

export default async function LeaderboardView({ searchParams }: { searchParams: Promise<Search> }) {
  return <Board {...queryOf(await searchParams)} />;
}

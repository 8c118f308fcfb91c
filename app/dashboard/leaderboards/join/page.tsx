import type { Metadata } from 'next';
import { requireUser } from '@/lib/web/account/session';
import { JoinBoardForm } from '../forms';

// The invite link (/dashboard/leaderboards/join?code=...): sign in first, then one click joins.
// Opening the link alone never joins: a link another site loads could otherwise put a visitor
// on a board, showing their coding time to its members.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Join a private leaderboard', robots: { index: false } };

export default async function JoinPage({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const raw = (await searchParams).code;
  const code = typeof raw === 'string' ? raw.slice(0, 64) : '';
  await requireUser(`/dashboard/leaderboards/join${code ? `?code=${encodeURIComponent(code)}` : ''}`);
  return (
    <>
      <p>
        <a href="/dashboard/leaderboards">← Private leaderboards</a>
      </p>
      <h1>Join a private leaderboard</h1>
      <p className="muted">Joining shows your total coding time, handle and display name to the board&apos;s other members (and, if your public profile shows your languages, your languages too). You can leave at any time.</p>
      <JoinBoardForm code={code || undefined} label={code ? 'Join this leaderboard' : 'Join'} />
    </>
  );
}

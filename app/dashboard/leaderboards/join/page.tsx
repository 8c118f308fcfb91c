import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { boardInvitation } from '@/lib/leaderboards/boards';
import { joinPath } from '@/lib/web/account/invitation';
import { requireUser } from '@/lib/web/account/session';
import { JoinBoardForm } from '../forms';

// The invite link (/dashboard/leaderboards/join?code=...): sign in first (through sign-up and the
// confirmation mail too, which come back here), then the page names the board and one click
// joins. Opening the link alone never joins: a link another site loads could otherwise put a
// visitor on a board, showing their coding time to its members.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Join a private leaderboard', robots: { index: false } };

export default async function JoinPage({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const raw = (await searchParams).code;
  const code = typeof raw === 'string' ? raw.slice(0, 64) : '';
  const user = await requireUser(code ? joinPath('board', code) : '/dashboard/leaderboards/join');
  const board = code ? await boardInvitation(await getDb(), code, user.id) : null;
  return (
    <>
      <p>
        <a href="/dashboard/leaderboards">← Private leaderboards</a>
      </p>
      <h1>Join a private leaderboard</h1>
      {board && 'name' in board && (
        <p data-invitation={board.status}>
          <strong>«{board.name}»</strong>, @{board.owner}&apos;s, {board.members} {board.members === 1 ? 'member' : 'members'}. The name is its owner&apos;s words, not
          Codetally&apos;s.
          {board.status === 'member' && (
            <>
              {' '}
              You are on it: <a href={`/dashboard/leaderboards/${board.id}`}>open it</a>.
            </>
          )}
        </p>
      )}
      {board?.status === 'unknown' && (
        <p className="form-error" role="alert">
          This invite link opens no leaderboard: it was replaced by a new one, or the board is gone. Ask the person who sent it for a new link.
        </p>
      )}
      <p className="muted">Joining shows your total coding time, handle and display name to the board&apos;s other members (and, if your public profile shows your languages, your languages too). You can leave at any time.</p>
      <JoinBoardForm code={board?.status === 'open' ? code : undefined} label={board?.status === 'open' ? 'Join this leaderboard' : 'Join'} />
    </>
  );
}

import type { Metadata } from 'next';
import { getDb } from '@/lib/db/client';
import { myBoards } from '@/lib/leaderboards/boards';
import { requireUser } from '@/lib/web/account/session';
import { CreateBoardForm, JoinBoardForm } from './forms';

// Private leaderboards (GET/POST /leaderboards, POST /leaderboards/join, as a page): mine, and
// forms to make one or join one by code.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Private leaderboards', description: 'Your private leaderboards.', robots: { index: false } };

export default async function LeaderboardsPage() {
  const user = await requireUser('/dashboard/leaderboards');
  const boards = await myBoards(await getDb(), user.id);
  return (
    <>
      <h1>Private leaderboards</h1>
      <p className="muted">
        A private leaderboard ranks its members by coding time, as the public leaderboard does, and only its members see it. Joining shows your total coding time, handle and display name to the
        other members; ranked by a language, it lists only members whose public profile shows their languages. Leave whenever you like: you are off the board at once.
      </p>
      {boards.length === 0 ? (
        <p className="muted">You are on no private leaderboard yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Your private leaderboards</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Members</th>
                <th scope="col">You are</th>
              </tr>
            </thead>
            <tbody>
              {boards.map((b) => (
                <tr key={b.id}>
                  <td>
                    <a href={`/dashboard/leaderboards/${b.id}`}>{b.name}</a>
                  </td>
                  <td>{b.members_count}</td>
                  <td>{b.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="grid">
        <section aria-labelledby="make">
          <h2 id="make">Make one</h2>
          <CreateBoardForm />
        </section>
        <section aria-labelledby="join">
          <h2 id="join">Join one</h2>
          <JoinBoardForm />
        </section>
      </div>
    </>
  );
}

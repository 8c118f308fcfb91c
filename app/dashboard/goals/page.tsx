import type { Metadata } from 'next';
import { Card } from '../../components/card';
import { deleteGoalAction } from './actions';
import { EditGoalForm, GoalForm, GoalSuggestions } from './goal-form';
import styles from './goals.module.css';
import { GoalHistory } from './history';
import { formatDuration } from '@/lib/badges/format';
import { addDays } from '@/lib/dates';
import { getDb } from '@/lib/db/client';
import { ownGoalsWithHistory } from '@/lib/figures/goals';
import { MAX_GOALS_PER_USER } from '@/lib/figures/schemas';
import { localDateHour } from '@/lib/local-time';
import { projectTotals } from '@/lib/stats/own';
import { dimensionTotals } from '@/lib/stats/queries';
import { requireUser } from '@/lib/web/account/session';

// Goals (GET/POST/PATCH/DELETE /me/goals, as a page): each with the current period's progress and
// its streak, its history (the last 14 days or 12 weeks) with a form to edit it, a form to set one
// and a button to drop one (server actions).

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Goals', description: 'Your daily and weekly coding goals.', robots: { index: false } };

export default async function GoalsPage() {
  const user = await requireUser('/dashboard/goals');
  const db = await getDb();
  const today = localDateHour(user.timezone).date;
  const from = addDays(today, -89);
  const [goals, languages, projects] = await Promise.all([
    ownGoalsWithHistory(db, user),
    dimensionTotals(db, { userId: user.id }, 'language', from, today),
    projectTotals(db, user.id, from, today),
  ]);
  const names = (list: { name: string; millis: number }[]) => list.sort((a, b) => b.millis - a.millis).map((f) => f.name).filter((n) => n !== '' && n !== '(no project)');
  return (
    <>
      <h1>Goals</h1>
      <p className="muted">
        Days and weeks (Monday to Sunday) are yours, in {user.timezone}. A streak counts the days or weeks in a row that met the goal (a goal that ignores weekends steps over them). Each goal shows how its last 14 days or 12 weeks went. Up to {MAX_GOALS_PER_USER} goals.
      </p>
      {goals.length === 0 ? (
        <p className="muted">No goals yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Your goals</caption>
            <thead>
              <tr>
                <th scope="col">Goal</th>
                <th scope="col">Progress</th>
                <th scope="col">Streak</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {goals.map((g) => (
                <tr key={g.id}>
                  <td>
                    <a href={`#goal-${g.id}`}>{g.title}</a>
                  </td>
                  <td>
                    <progress value={Math.min(g.progress.actual_seconds, g.seconds)} max={g.seconds} aria-label={`${g.title}: progress`} />{' '}
                    {formatDuration(g.progress.actual_seconds)} of {formatDuration(g.seconds)} {g.period === 'day' ? 'today' : 'this week'}
                    {g.progress.done ? ' ✓' : ''}
                    {g.progress.ignored ? ' (a weekend: not counted)' : ''}
                  </td>
                  <td>
                    {g.streak_periods} {g.period === 'day' ? (g.streak_periods === 1 ? 'day' : 'days') : g.streak_periods === 1 ? 'week' : 'weeks'}
                  </td>
                  <td>
                    <form action={deleteGoalAction}>
                      <input type="hidden" name="id" value={g.id} />
                      <button type="submit" className="secondary" aria-label={`Delete goal ${g.title}`}>
                        Delete
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {goals.length > 0 && (
        <div className={styles.goals}>
          {goals.map((g) => (
            <Card key={g.id} id={`goal-${g.id}`} title={g.title}>
              <GoalHistory title={g.title} period={g.period} goalSeconds={g.seconds} ignoreWeekends={g.ignore_weekends} history={g.history} />
              {/* Only what the form starts from reaches the client, not the history. */}
              <EditGoalForm goal={{ id: g.id, period: g.period, seconds: g.seconds, language: g.language, project: g.project, custom_title: g.custom_title, ignore_weekends: g.ignore_weekends }} title={g.title} />
            </Card>
          ))}
        </div>
      )}
      <h2 id="new-goal">Set a goal</h2>
      <GoalForm />
      <GoalSuggestions languages={names(languages)} projects={names(projects)} />
    </>
  );
}

import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Card } from '../../../components/card';
import { Breakdown, DailyBars } from '../../../components/chart-figures';
import { RangePicker } from '../../range-picker';
import { renameProjectAction, setProjectHiddenAction, splitProjectAction } from '../actions';
import { formatDuration } from '@/lib/badges/format';
import { PROJECT_NAME_MAX } from '@/lib/projects/schemas';
import { mergeQuestion, projectNotice, projectPageData, rangeSearch, shownDates } from '@/lib/web/account/projects';
import { decodedSegment } from '@/lib/http/url';
import { wallClock } from '@/lib/local-time';
import { requireUser } from '@/lib/web/account/session';
import { labeledEditors } from '@/lib/editors';
import { ProjectBadgeCard } from './project-badge';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Project', description: 'Your time on one project.', robots: { index: false } };

type Props = { params: Promise<{ name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ProjectPage({ params, searchParams }: Props) {
  // A page's params arrive as the path has them, percent-encoded ("api%20caf%C3%A9").
  const name = decodedSegment((await params).name);
  if (name === null) notFound();
  const path = `/dashboard/projects/${encodeURIComponent(name)}`;
  const user = await requireUser(path);
  const search = await searchParams;
  const data = await projectPageData(user, name, search);
  if (!data) notFound();
  const { asked, range, days, chartDays, figures, hidden, merges, mergesPeriod } = data;
  const notice = projectNotice(search.notice);
  const total = days.reduce((sum, d) => sum + d.seconds, 0);
  const merge = typeof search.merge === 'string' ? await mergeQuestion(user, name, search.merge) : null;
  const csv = `/main/api/v1/me/projects/${encodeURIComponent(name)}/days?${rangeSearch(range)}&format=csv`;
  return (
    <>
      <h1>{name}</h1>
      <p>
        <a href={`/dashboard/projects?${rangeSearch(range)}`}>All projects</a>
      </p>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {hidden && <p className="muted">Hidden: its time counts in every total, but only your project list names it.</p>}
      <RangePicker user={user} path={path} range={asked} dates={shownDates(range)} />
      <Card id="p-days" title="Hours per day">
        <p>
          {formatDuration(total)} in the range{figures ? `, last active ${figures.last_active}` : ''}. <a href={csv}>Download CSV</a> (date, project, seconds, hours).
        </p>
        {days.length === 0 ? <p className="muted">No time in this range.</p> : <DailyBars days={chartDays} caption={`Time per day on ${name}`} />}
      </Card>
      <Card id="p-languages" title="Languages">
        <Breakdown items={figures?.languages ?? []} empty="No time in this range." caption={`Languages of ${name}`} />
      </Card>
      <Card id="p-editors" title="Editors">
        <Breakdown items={labeledEditors(figures?.editors ?? [])} empty="No time in this range." caption={`Editors of ${name}`} />
      </Card>
      <Card id="p-rename" title="Rename">
        <p className="muted">
          Every figure of the project, past and future, counts under the new name; a name that already has time merges with it, once you confirm.
          Plugins that still send the old name count under the new one.
        </p>
        {merge && (
          <div className="notice" role="alert" data-testid="merge-question">
            <p>
              “{merge.into.name}” already has {formatDuration(merge.into.seconds)} ({merge.period}). Renaming “{merge.from.name}” ({formatDuration(merge.from.seconds)}, {merge.period}) to it makes
              one project, “{merge.into.name}”, of {formatDuration(merge.from.seconds + merge.into.seconds)}. Until either name is renamed again, the merge can be split back out on “{merge.into.name}”’s page.
            </p>
            <form action={renameProjectAction}>
              <input type="hidden" name="name" value={name} />
              <input type="hidden" name="to" value={merge.into.name} />
              <input type="hidden" name="confirm" value="merge" />
              <button type="submit">Merge into “{merge.into.name}”</button> <a href={path}>Cancel</a>
            </form>
          </div>
        )}
        <form action={renameProjectAction}>
          <input type="hidden" name="name" value={name} />
          <label>
            New name <input name="to" required maxLength={PROJECT_NAME_MAX} defaultValue={name} />
          </label>{' '}
          <button type="submit">Rename</button>
        </form>
      </Card>
      {merges.length > 0 && (
        <Card id="p-merges" title="Merged into this project">
          <p className="muted">
            Splitting one back out gives it the time it had when it was merged ({mergesPeriod}, as the merge counted it), and its name again. What came under either name since stays here.
          </p>
          <ul>
            {merges.map((m) => (
              <li key={m.project}>
                <form action={splitProjectAction}>
                  “{m.project}”, {formatDuration(m.seconds)}, merged {wallClock(m.merged_at, user.timezone)}.{' '}
                  <input type="hidden" name="into" value={name} />
                  <input type="hidden" name="project" value={m.project} />
                  <button type="submit" className="secondary">
                    Split “{m.project}” back out
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </Card>
      )}
      <Card id="p-hide" title={hidden ? 'Show' : 'Hide'}>
        <form action={setProjectHiddenAction}>
          <input type="hidden" name="name" value={name} />
          <input type="hidden" name="hidden" value={hidden ? 'false' : 'true'} />
          <button type="submit" className="secondary">
            {hidden ? 'Show this project everywhere again' : 'Hide this project'}
          </button>
        </form>
      </Card>
      <ProjectBadgeCard user={user} name={name} />
    </>
  );
}

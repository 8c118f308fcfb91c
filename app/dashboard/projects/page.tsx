import type { Metadata } from 'next';
import { Card } from '../../components/card';
import { RangePicker } from '../range-picker';
import { formatDuration } from '@/lib/badges/format';
import { projectsPageData, rangeSearch, shownDates } from '@/lib/web/account/projects';
import { requireUser } from '@/lib/web/account/session';
import { labeledEditors } from '@/lib/editors';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Projects', description: 'Your time per project.', robots: { index: false } };

const listed = (items: { name: string; seconds: number }[]) => items.map((i) => `${i.name} ${formatDuration(i.seconds)}`).join(', ');

export default async function Projects({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/dashboard/projects');
  const { asked, range, projects, hidden } = await projectsPageData(user, await searchParams);
  const query = rangeSearch(range);
  return (
    <>
      <h1>Projects</h1>
      <p className="muted">Only you see your projects. A hidden project counts in every total, but only this page names it.</p>
      <RangePicker user={user} path="/dashboard/projects" range={asked} dates={shownDates(range)} />
      <Card id="p-list" title="Time per project">
        {projects.length === 0 ? (
          <p className="muted">No project has time in this range.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Your projects in the range</caption>
              <thead>
                <tr>
                  <th scope="col">Project</th>
                  <th scope="col">Time</th>
                  <th scope="col">Languages</th>
                  <th scope="col" className="wide-only">
                    Editors
                  </th>
                  <th scope="col">Last active</th>
                </tr>
              </thead>
              <tbody>
                {projects.map((p) => (
                  <tr key={p.name}>
                    <th scope="row">
                      <a href={`/dashboard/projects/${encodeURIComponent(p.name)}?${query}`}>{p.name}</a>
                      {hidden.includes(p.name) && <span className="muted"> (hidden)</span>}
                    </th>
                    <td>{formatDuration(p.seconds)}</td>
                    <td>{listed(p.languages)}</td>
                    <td className="wide-only">{listed(labeledEditors(p.editors))}</td>
                    <td>{p.last_active}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {hidden.length > 0 && (
        <Card id="p-hidden" title="Hidden projects">
          <ul>
            {hidden.map((name) => (
              <li key={name}>
                <a href={`/dashboard/projects/${encodeURIComponent(name)}`}>{name}</a>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}

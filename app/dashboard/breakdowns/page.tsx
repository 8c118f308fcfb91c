import type { Metadata } from 'next';
import { Card } from '../../components/card';
import { Figures } from '../../components/figures';
import { StackedDays } from '../../components/stacked-days';
import { RangePicker } from '../range-picker';
import { formatDuration } from '@/lib/badges/format';
import { getDb } from '@/lib/db/client';
import { linesText } from '@/lib/lines';
import { ownBreakdowns, ownMachinesAndSystems, stackedBy, type StackedBy } from '@/lib/stats/breakdowns';
import { dashboardRange } from '@/lib/web/account/dashboard-range';
import { requireUser } from '@/lib/web/account/session';
import { textProblem } from '@/lib/text';

// Breakdowns of the owner's time by every dimension kept over all history (lib/stats/breakdowns.ts):
// a stacked daily chart by project, language or category; AI-assisted against your own time, by
// agent and project, with line changes; machines and operating systems, and a filter by either.
// Plain server-rendered HTML and SVG; the range, the stacking and the filter are in the address.

export const dynamic = 'force-dynamic';
export const metadata: Metadata = {
  title: 'Breakdowns',
  description: 'Your coding time per day by project, language or category; AI-assisted time and lines; machines and operating systems.',
  robots: { index: false },
};

const path = '/dashboard/breakdowns';
const stackLabels: Record<StackedBy, string> = { project: 'Project', language: 'Language', category: 'Category' };
// A value no write could have stored (NUL, an unpaired surrogate) filters nothing: it never reaches the database.
const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.trim() !== '' && !textProblem(v) ? v : undefined);
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : '—');

function NamedTable({ rows, caption, total }: { rows: { name: string; seconds: number }[]; caption: string; total: number }) {
  if (rows.length === 0) return <p className="muted">Nothing in this range.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="sr-only">{caption}</caption>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <th scope="row" className="name" style={{ fontWeight: 400, overflowWrap: 'anywhere' }}>
                {r.name}
              </th>
              <td className="num">{formatDuration(r.seconds)}</td>
              <td className="num">{percent(r.seconds, total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default async function BreakdownsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser(path);
  const search = await searchParams;
  const range = dashboardRange(search);
  const by: StackedBy = (stackedBy as readonly string[]).includes(one(search.by) ?? '') ? (one(search.by) as StackedBy) : 'project';
  const filter = { machine: one(search.machine), os: one(search.os) };
  const db = await getDb();
  const [found, choices] = await Promise.all([ownBreakdowns(db, user, range.query, by, filter), ownMachinesAndSystems(db, user.id)]);
  const keep = (extra: Record<string, string | undefined>) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...(typeof search.range === 'string' && { range: search.range }), ...(typeof search.from === 'string' && { from: search.from, to: String(search.to ?? '') }), by, ...filter, ...extra })) {
      if (v) q.set(k, v);
    }
    return `${path}?${q}`;
  };
  const { ai } = found;
  return (
    <>
      <h1>Breakdowns</h1>
      <RangePicker user={user} path={path} range={range} dates={found.range} />
      <form method="get" action={path} className="inline" aria-label="Only the time of one machine or system">
        <input type="hidden" name="by" value={by} />
        {/* The range shown stays, named or from and to. */}
        {(['range', 'from', 'to'] as const).map((k) => typeof search[k] === 'string' && <input key={k} type="hidden" name={k} value={search[k]} />)}
        <div>
          <label htmlFor="f-machine">Machine</label>
          <select id="f-machine" name="machine" defaultValue={filter.machine ?? ''}>
            <option value="">Every machine</option>
            {choices.machines.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="f-os">Operating system</label>
          <select id="f-os" name="os" defaultValue={filter.os ?? ''}>
            <option value="">Every system</option>
            {choices.systems.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="secondary">
          Show
        </button>
      </form>
      <Figures
        items={[
          { label: 'coding time', value: formatDuration(found.total_seconds) },
          { label: 'AI-assisted', value: `${formatDuration(ai.seconds)} (${percent(ai.seconds, found.total_seconds)})` },
          { label: 'lines by AI agents', value: linesText(ai.lines.ai_additions, ai.lines.ai_deletions) },
          { label: 'lines by you', value: linesText(ai.lines.human_additions, ai.lines.human_deletions) },
        ]}
      />
      <Card id="bd-daily" title="Every day" level="h2">
        <nav aria-label="Split each day by" className="pager">
          {stackedBy.map((b) =>
            b === by ? (
              <strong key={b} aria-current="page">
                By {stackLabels[b].toLowerCase()}
              </strong>
            ) : (
              <a key={b} href={keep({ by: b })}>
                By {stackLabels[b].toLowerCase()}
              </a>
            ),
          )}
        </nav>
        <StackedDays
          days={found.daily}
          names={found.stacked.names}
          caption={`Coding time per day by ${by}`}
          hourly={found.daily.length === 1 ? { href: `/dashboard/timeline?date=${found.daily[0].date}`, text: 'The day hour by hour, on the Timeline' } : undefined}
        />
      </Card>
      <div className="grid">
        <Card id="bd-ai" title="AI-assisted and your own" level="h2">
          <p>
            AI agents: {formatDuration(ai.seconds)} ({percent(ai.seconds, found.total_seconds)}); you: {formatDuration(ai.human_seconds)}. Lines:{' '}
            {percent(ai.lines.ai_additions + ai.lines.ai_deletions, ai.lines.ai_additions + ai.lines.ai_deletions + ai.lines.human_additions + ai.lines.human_deletions)} changed by AI agents.
          </p>
          <h3>By agent</h3>
          <NamedTable rows={ai.agents} caption="AI-assisted time by agent" total={ai.seconds} />
          <h3>By project</h3>
          {ai.projects.length === 0 ? (
            <p className="muted">No AI-assisted time in this range.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">AI-assisted time by project</caption>
                <thead>
                  <tr>
                    <th scope="col">Project</th>
                    <th scope="col" className="num">
                      AI-assisted
                    </th>
                    <th scope="col" className="num">
                      Share
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {ai.projects.map((p) => (
                    <tr key={p.name}>
                      <th scope="row" style={{ fontWeight: 400, overflowWrap: 'anywhere' }}>
                        {p.name}
                      </th>
                      <td className="num">{formatDuration(p.ai_seconds)}</td>
                      <td className="num">{percent(p.ai_seconds, p.seconds)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
        <Card id="bd-categories" title="Categories" level="h2">
          <NamedTable rows={found.categories} caption="Coding time by category" total={found.total_seconds} />
        </Card>
        <Card id="bd-machines" title="Machines" level="h2">
          <NamedTable rows={found.machines} caption="Coding time by machine" total={found.total_seconds} />
        </Card>
        <Card id="bd-systems" title="Operating systems" level="h2">
          <NamedTable rows={found.operating_systems} caption="Coding time by operating system" total={found.total_seconds} />
        </Card>
      </div>
    </>
  );
}

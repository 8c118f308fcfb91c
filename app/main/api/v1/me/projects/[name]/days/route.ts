// GET /main/api/v1/me/projects/{name}/days — one project's time per day (JSON, or CSV for invoices); a hidden one not to a `stats` key
import { OWN_FIGURES_SCOPES, withAccount } from '@/lib/auth/account';
import { json } from '@/lib/http/body';
import { route } from '@/lib/http/methods';
import { parseQuery } from '@/lib/http/query';
import { csvFileName, projectDaysCsv } from '@/lib/projects/csv';
import { ownRange, projectDays, projectParam, projectReader } from '@/lib/projects/read';
import { projectDaysQuery } from '@/lib/projects/schemas';

export const dynamic = 'force-dynamic';

const get = withAccount<{ name: string }>(async ({ request, db, user, via, scopes, params }) => {
  const query = parseQuery(projectDaysQuery, new URL(request.url).searchParams);
  const range = await ownRange(db, user.id, query.range, user.timezone);
  const found = await projectDays(db, user.id, projectParam(params.name), range, projectReader({ via, scopes }));
  const csv = query.format === 'csv' || (query.format === undefined && /\btext\/csv\b/i.test(request.headers.get('accept') ?? ''));
  if (!csv) return json(found);
  return new Response(projectDaysCsv(found.project, found.days), {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${csvFileName(found.project)}"` },
  });
}, OWN_FIGURES_SCOPES);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/me/projects/[name]/days' });

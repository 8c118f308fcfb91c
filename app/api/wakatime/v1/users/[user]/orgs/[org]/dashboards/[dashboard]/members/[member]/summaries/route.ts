// GET /api/wakatime/v1/users/current/orgs/{org}/dashboards/{dashboard}/members/{member}/summaries — a dashboard member's figures per date, as they share them
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { dashboardMemberSummariesHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', dashboardMemberSummariesHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/orgs/[org]/dashboards/[dashboard]/members/[member]/summaries' });

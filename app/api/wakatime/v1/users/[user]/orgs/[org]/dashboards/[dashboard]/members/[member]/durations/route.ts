// GET /api/wakatime/v1/users/current/orgs/{org}/dashboards/{dashboard}/members/{member}/durations — the caller's own runs of coding time (another member's: 403)
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { dashboardMemberDurationsHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', dashboardMemberDurationsHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/orgs/[org]/dashboards/[dashboard]/members/[member]/durations' });

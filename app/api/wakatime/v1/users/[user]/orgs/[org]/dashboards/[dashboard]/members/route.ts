// GET /api/wakatime/v1/users/current/orgs/{org}/dashboards/{dashboard}/members — a dashboard's members
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { dashboardMembersHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', dashboardMembersHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/orgs/[org]/dashboards/[dashboard]/members' });

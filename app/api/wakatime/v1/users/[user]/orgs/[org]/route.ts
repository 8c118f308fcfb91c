// GET /api/wakatime/v1/users/current/orgs/{org} — the organization's dashboards (where wakatime-client's getOrganizationDashboards asks)
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { orgDashboardsHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', orgDashboardsHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/orgs/[org]' });

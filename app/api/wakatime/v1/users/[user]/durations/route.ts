// GET /api/wakatime/v1/users/current/durations — one day's runs of coding time (slice_by, project)
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { durationsHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', durationsHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/durations' });

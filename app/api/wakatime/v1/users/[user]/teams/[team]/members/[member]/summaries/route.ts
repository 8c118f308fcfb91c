// GET /api/wakatime/v1/users/current/teams/{team}/members/{member}/summaries — a team member's figures per date, as they share them
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { teamMemberSummariesHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', teamMemberSummariesHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/teams/[team]/members/[member]/summaries' });

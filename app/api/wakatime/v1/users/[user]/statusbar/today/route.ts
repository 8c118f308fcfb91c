// GET /api/wakatime/v1/users/current/statusbar/today — today's figures for the editor's status bar
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/door';
import { statusBarHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey('stats', statusBarHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get });

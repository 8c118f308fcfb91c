// GET /api/wakatime/v1/users/current/statusbar/today — today's figures for the editor's status bar
// (scope `stats`, or `sync`: the token a plugin sends with shows its time; lib/auth/tokens.ts)
import { statusBarScopes } from '@/lib/auth/tokens';
import { route } from '@/lib/http/methods';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { statusBarHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const get = withWakatimeKey(statusBarScopes, statusBarHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/wakatime/v1/users/[user]/statusbar/today' });

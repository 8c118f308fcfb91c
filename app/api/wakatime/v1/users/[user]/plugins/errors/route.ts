// POST /api/wakatime/v1/users/current/plugins/errors — wakatime-cli's reports of a plugin's errors:
// 201 {} as WakaTime answers, counted in the metrics, nothing of them kept
import { route } from '@/lib/http/methods';
import { statusBarScopes } from '@/lib/auth/tokens';
import { withWakatimeKey } from '@/lib/wakatime/api-key';
import { pluginErrorsHandler } from '@/lib/wakatime/handlers';

export const dynamic = 'force-dynamic';
const post = withWakatimeKey(statusBarScopes, pluginErrorsHandler);

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/api/wakatime/v1/users/[user]/plugins/errors' });

// GET /api/wakatime/v1/users/current/statusbar/today — today's figures for the editor's status bar
// (lib/wakatime/routes.ts: statusbar and status_bar are the same route)
import { statusBarRoute } from '@/lib/wakatime/routes';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = statusBarRoute('/api/wakatime/v1/users/[user]/statusbar/today');

// GET /api/compat/shields/v1/{user}/interval:{range}[/{filter}:{value}] — Wakapi's shields.io endpoint: JSON of what the owner shares
import { wakapiBadgeQuery, wakapiShields } from '@/lib/badges/wakapi';
import { route } from '@/lib/http/methods';
import { publicRoute } from '@/lib/http/public';

export const dynamic = 'force-dynamic';

const BASE = '/api/compat/shields/v1/';

// The path as the client wrote it (each segment decoded once, lib/badges/wakapi.ts).
const get = publicRoute(async (request: Request) => wakapiShields(request, wakapiBadgeQuery(new URL(request.url).pathname.slice(BASE.length).split('/'))));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/compat/shields/v1/[user]/[[...rest]]', cors: true });

// GET /api/badge/{user}/interval:{range}[/{filter}:{value}] — Wakapi's README badge URL: an SVG of what the owner shares
import { wakapiBadgeQuery, wakapiBadgeSvg } from '@/lib/badges/wakapi';
import { route } from '@/lib/http/methods';
import { publicRoute } from '@/lib/http/public';

export const dynamic = 'force-dynamic';

const BASE = '/api/badge/';

// The path as the client wrote it (each segment decoded once, lib/badges/wakapi.ts).
const get = publicRoute(async (request: Request) => wakapiBadgeSvg(request, wakapiBadgeQuery(new URL(request.url).pathname.slice(BASE.length).split('/'))));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/api/badge/[user]/[[...rest]]', cors: true });

// POST /main/api/v1/activities/desktop — store one desktop bucket (batch sync is preferred)
import { withToken } from '@/lib/auth/bearer';
import { writeHandler } from '@/lib/ingest/sync';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withToken('sync', writeHandler('desktop', 'single'), { rateLimited: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });

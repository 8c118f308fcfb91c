// POST /main/api/v1/sync/activities/desktop — store a batch of desktop-agent buckets
import { withToken } from '@/lib/auth/bearer';
import { writeHandler } from '@/lib/ingest/sync';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withToken('sync', writeHandler('desktop', 'batch'), { rateLimited: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });

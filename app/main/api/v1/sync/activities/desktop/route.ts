// POST /main/api/v1/sync/activities/desktop — store a batch of desktop-agent buckets
import { withToken } from '@/lib/auth/bearer';
import { writeHandler } from '@/lib/ingest/sync';

export const dynamic = 'force-dynamic';
export const POST = withToken('sync', writeHandler('desktop', 'batch'), { rateLimited: true });

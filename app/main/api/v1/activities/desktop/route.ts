// POST /main/api/v1/activities/desktop — store one desktop bucket (batch sync is preferred)
import { withToken } from '@/lib/auth/bearer';
import { writeHandler } from '@/lib/ingest/sync';

export const dynamic = 'force-dynamic';
export const POST = withToken('sync', writeHandler('desktop', 'single'), { rateLimited: true });

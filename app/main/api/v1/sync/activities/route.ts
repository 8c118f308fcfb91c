// POST /main/api/v1/sync/activities — store a batch of IDE buckets (the plugins' main route)
import { withToken } from '@/lib/auth/bearer';
import { writeHandler } from '@/lib/ingest/sync';

export const dynamic = 'force-dynamic';
export const POST = withToken('sync', writeHandler('ide', 'batch'), { rateLimited: true });

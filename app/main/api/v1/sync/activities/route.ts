// POST /main/api/v1/sync/activities — store a batch of IDE buckets (the plugins' main route)
import { withToken } from '@/lib/auth/bearer';
import { writeHandler } from '@/lib/ingest/sync';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withToken('sync', writeHandler('ide', 'batch'), { rateLimited: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });

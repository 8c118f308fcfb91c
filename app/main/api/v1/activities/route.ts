// POST /main/api/v1/activities — store one IDE bucket (batch sync is preferred)
import { withToken } from '@/lib/auth/bearer';
import { writeHandler } from '@/lib/ingest/sync';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withToken('sync', writeHandler('ide', 'single'), { rateLimited: true });

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post });

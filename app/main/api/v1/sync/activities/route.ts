// POST /main/api/v1/sync/activities — store a batch of IDE buckets (the plugins' main route)
import { withWriteToken } from '@/lib/auth/write-token';
import { writeHandler } from '@/lib/ingest/sync';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withWriteToken(writeHandler('ide', 'batch'));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/sync/activities' });

// POST /main/api/v1/sync/activities/desktop — store a batch of desktop-agent buckets
import { withWriteToken } from '@/lib/auth/write-token';
import { writeHandler } from '@/lib/ingest/sync';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withWriteToken(writeHandler('desktop', 'batch'));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/sync/activities/desktop' });

// POST /main/api/v1/activities/desktop — store one desktop bucket (batch sync is preferred)
import { withWriteToken } from '@/lib/auth/write-token';
import { writeHandler } from '@/lib/ingest/sync';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
const post = withWriteToken(writeHandler('desktop', 'single'));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ POST: post }, { pattern: '/main/api/v1/activities/desktop' });

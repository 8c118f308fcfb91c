// Any other path under /main/api/v1 — a problem+json 404 rather than an HTML page
import { measured } from '@/lib/http/methods';
import { ApiError, problemResponse } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';
const notFound = measured('/main/api/v1/[...rest]', async () => problemResponse(new ApiError('not_found', 'No such route. See /main/api/v1/openapi.json.')));
// Every method, OPTIONS included: an unknown path has no methods to list.
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };

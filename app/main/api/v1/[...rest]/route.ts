// Any other path under /main/api/v1 — a problem+json 404 rather than an HTML page
import { ApiError, problemResponse } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';
const notFound = async () => problemResponse(new ApiError(404, 'not_found', 'No such route. See /main/api/v1/openapi.json.'));
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };

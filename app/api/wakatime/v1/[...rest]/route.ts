// Any other path under the WakaTime-compatible base, and so under each of its aliases (rewritten
// to it: lib/wakatime/paths.ts) — a 404 in WakaTime's JSON shape rather than an HTML page
import { measured } from '@/lib/http/methods';
import { ApiError } from '@/lib/http/problem';
import { wakatimeError } from '@/lib/wakatime/api-key';

export const dynamic = 'force-dynamic';
const notFound = measured('/api/wakatime/v1/[...rest]', () => wakatimeError(new ApiError('not_found', 'No such route. See /main/api/v1/openapi.json.')));
// Every method, OPTIONS included: an unknown path has no methods to list.
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };

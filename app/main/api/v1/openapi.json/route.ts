// GET /main/api/v1/openapi.json — the OpenAPI 3.1 description, generated from the request schemas
import { openApiDocument } from '@/lib/openapi';
import { route } from '@/lib/http/methods';

export const dynamic = 'force-dynamic';
let cached: string | undefined;

async function get(): Promise<Response> {
  cached ??= JSON.stringify(openApiDocument());
  return new Response(cached, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
  });
}

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = route({ GET: get }, { pattern: '/main/api/v1/openapi.json', cors: true });

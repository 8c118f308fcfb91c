// GET /main/api/v1/openapi.json — the OpenAPI 3.1 description, generated from the request schemas
import { openApiDocument } from '@/lib/openapi';

export const dynamic = 'force-dynamic';
let cached: string | undefined;

export async function GET(): Promise<Response> {
  cached ??= JSON.stringify(openApiDocument());
  return new Response(cached, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*' },
  });
}

import { expect } from 'vitest';
import { documentedSchemas, openApiDocument } from '../../lib/openapi';
import { problemSchema } from '../../lib/http/problem';

// Checks an answer against openapi.json: the operation lists its status and content type, a
// problem's code is one the operation names for that status, and a JSON body parses with the
// schema the document names for it.

type Media = { schema?: { $ref?: string; allOf?: [{ $ref: string }, { properties: { code: { enum: string[] } } }] } };
type Operation = { responses: Record<string, { content?: Record<string, Media> }> };

const document = openApiDocument() as { servers: { url: string }[]; paths: Record<string, Record<string, Operation> & { servers?: { url: string }[] }> };
const schemas = documentedSchemas();
// Each path under each of its servers (the document's, or the path's own: the WakaTime-compatible
// routes, at /api/wakatime/v1 and at WakaTime's own layout, /api/v1).
const templates = Object.entries(document.paths).flatMap(([template, item]) =>
  (item.servers ?? document.servers).map((server) => ({
    template,
    pattern: new RegExp(`^${server.url}${template.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  })),
);

const componentOf = (ref: string) => schemas.get(ref.replace('#/components/schemas/', ''));

/** Resolves when `response` (to `method` `url`) is what openapi.json promises; returns it. */
export async function expectDocumented(method: string, url: string, response: Response): Promise<Response> {
  const pathname = new URL(url, 'http://localhost').pathname;
  const template = templates.find((t) => t.pattern.test(pathname))?.template;
  const operation = template && document.paths[template][method.toLowerCase()];
  expect(operation, `${method} ${pathname} is not in openapi.json`).toBeTruthy();
  const where = `${method} ${template} answered ${response.status}`;
  const documented = (operation as Operation).responses[String(response.status)];
  expect(documented, `${where}, a status openapi.json does not list`).toBeDefined();
  if (!documented.content) return response;

  const type = response.headers.get('content-type')?.split(';')[0].trim() ?? '';
  const media = documented.content[type];
  expect(media, `${where} as ${type}; openapi.json lists ${Object.keys(documented.content).join(', ')}`).toBeDefined();
  if (!type.endsWith('json')) return response;

  const body: unknown = await response.clone().json();
  const problem = media.schema?.allOf;
  if (problem) {
    const parsed = problemSchema.parse(body);
    expect(problem[1].properties.code.enum, `${where} with code ${parsed.code}`).toContain(parsed.code);
  } else if (media.schema?.$ref) {
    const schema = componentOf(media.schema.$ref);
    expect(schema, `${media.schema.$ref} has no schema`).toBeDefined();
    const result = schema!.safeParse(body);
    expect(result.error?.issues, `${where}: the body does not match ${media.schema.$ref}`).toBeUndefined();
  }
  return response;
}

/** `expectDocumented` for a route handler called directly: `documented(request, await GET(request))`. */
export function documented(request: Request, response: Response): Promise<Response> {
  return expectDocumented(request.method, request.url, response);
}

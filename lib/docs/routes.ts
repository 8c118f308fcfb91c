import { exampleOf, exampleText } from './example';
import { describe, fieldRows, flatten, refName, rules, typeLabel, type Components, type FieldRow, type JsonSchema } from './schema';

// What /docs shows of each operation of openapi.json: how to call it, what to send, what comes
// back, with examples, all read from the document (itself made from the zod schemas).

interface Media {
  schema?: JsonSchema;
}

interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses?: Record<string, { description?: string; headers?: Record<string, { description?: string; schema?: JsonSchema }>; content?: Record<string, Media> }>;
}

export interface OpenApiDocument {
  servers?: { url: string }[];
  components?: { schemas?: Components };
  paths: Record<string, Partial<Record<string, Operation>> & { servers?: { url: string }[] }>;
}

export interface DocParameter {
  name: string;
  in: string;
  required: boolean;
  type: string;
  rules: string[];
  description?: string;
}

export interface DocBody {
  mediaType: string;
  /** The body's type in a few words (`IdeBatch`, `array of WakaTimeHeartbeat`), and its own rules. */
  type: string;
  rules: string[];
  description?: string;
  fields: FieldRow[];
  /** Indented JSON, for a JSON body that has something to show (of a request, a success or a shared error body). */
  example?: string;
}

export interface DocResponse {
  status: string;
  description?: string;
  headers: { name: string; type: string; description?: string }[];
  /** A body every error of many routes shares: described once, in `shapes`. */
  shape?: { name: string; mediaType: string };
  body?: DocBody;
}

export interface DocRoute {
  anchor: string;
  method: string;
  /** The path as the document writes it, relative to its server. */
  path: string;
  /** The path as a client calls it, with its server. */
  shown: string;
  summary?: string;
  description?: string;
  auth: string;
  parameters: DocParameter[];
  requestBody?: DocBody;
  responses: DocResponse[];
}

export interface DocShape {
  name: string;
  anchor: string;
  mediaType: string;
  body: DocBody;
  statuses: string[];
}

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The id of a route's section: stable, so links to it keep working. */
export const routeAnchor = (method: string, path: string) => `${method}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`;

export const shapeAnchor = (name: string) => `shape-${name}`;

/** A scheme in words, given its scopes in words ("sync", "stats or sync"). */
const schemeNames: Record<string, (scopes: string) => string> = {
  bearer: (scopes) => `token with ${scopes}`,
  admin: () => 'ADMIN_TOKEN',
  metrics: () => 'METRICS_TOKEN',
  session: () => 'dashboard session',
  wakatimeBasic: (scopes) => `key with ${scopes} as Basic user name`,
  wakatimeQuery: () => '?api_key=',
};

/** Who may call an operation, in words; a scheme that several scopes open is named once ("token with stats or sync"). */
export function authOf(op: Operation): string {
  if (!op.security?.length) return 'public, no token';
  const bySchemes = new Map<string, string[]>();
  for (const [name, scopes] of op.security.flatMap((s) => Object.entries(s))) bySchemes.set(name, [...(bySchemes.get(name) ?? []), scopes.join(', ')]);
  return [...bySchemes].map(([name, alternatives]) => schemeNames[name]?.(alternatives.join(' or ')) ?? name).join(' or ');
}

/** The component a body is, directly or as the head of an `allOf` (a problem narrowed to its codes). */
const bodyComponent = (schema: JsonSchema | undefined) => refName(schema) ?? refName(schema?.allOf?.[0]);

const isJson = (mediaType: string) => /[/+]json$/.test(mediaType);

/** Whether a schema is an object with nothing known about its fields (a free-form document). */
function freeForm(schema: JsonSchema, components: Components): boolean {
  const s = flatten(schema, components);
  return s.type === 'object' && !s.properties && typeof s.additionalProperties !== 'object';
}

/**
 * A body as the page shows it. `withExample` is false for the answers of a failure, where an
 * example made from the schema alone (a health check's `"status": "ok"` with 503) would mislead.
 */
function body(mediaType: string, schema: JsonSchema, components: Components, withExample = true): DocBody {
  const example = withExample && isJson(mediaType) && !freeForm(schema, components) ? exampleText(exampleOf(schema, components)) : undefined;
  return {
    mediaType,
    type: typeLabel(schema, components),
    rules: rules(schema, components),
    description: describe(schema, components),
    fields: fieldRows(schema, components),
    ...(example ? { example } : {}),
  };
}

/**
 * The bodies described once rather than on every route: components that only ever answer an
 * error (status 400 and up) on more than one route, such as the problem details.
 */
function sharedShapes(doc: OpenApiDocument): Map<string, { mediaType: string; schema: JsonSchema; statuses: Set<string> }> {
  const uses = new Map<string, { mediaType: string; schema: JsonSchema; statuses: Set<string>; routes: Set<string>; success: boolean }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      for (const [status, response] of Object.entries(item[method]?.responses ?? {})) {
        for (const [mediaType, media] of Object.entries(response.content ?? {})) {
          const name = bodyComponent(media.schema);
          if (!name) continue;
          const use = uses.get(name) ?? { mediaType, schema: { $ref: `#/components/schemas/${name}` }, statuses: new Set(), routes: new Set(), success: false };
          use.statuses.add(status);
          use.routes.add(`${method} ${path}`);
          use.success ||= Number(status) < 400;
          uses.set(name, use);
        }
      }
    }
  }
  // The most used first.
  return new Map([...uses].filter(([, use]) => !use.success && use.routes.size > 1).sort(([, a], [, b]) => b.routes.size - a.routes.size));
}

/** Every operation of the document, in its order, ready to show; and the shared error bodies. */
export function docsModel(doc: OpenApiDocument): { routes: DocRoute[]; shapes: DocShape[] } {
  const components = doc.components?.schemas ?? {};
  const shared = sharedShapes(doc);
  const base = doc.servers?.[0]?.url ?? '';
  const routes = Object.entries(doc.paths).flatMap(([path, item]) =>
    methods.flatMap((method) => {
      const op = item[method];
      if (!op) return [];
      const [requestType, requestMedia] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const route: DocRoute = {
        anchor: routeAnchor(method, path),
        method: method.toUpperCase(),
        path,
        // A path under a server of its own (the WakaTime-compatible routes) names it.
        shown: `${(item.servers?.[0]?.url ?? base).replace(/\/$/, '')}${path}`,
        summary: op.summary,
        description: op.description,
        auth: authOf(op),
        parameters: (op.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in,
          required: p.required ?? false,
          type: p.schema ? typeLabel(p.schema, components) : 'string',
          rules: p.schema ? rules(p.schema, components) : [],
          description: p.description ?? (p.schema ? describe(p.schema, components) : undefined),
        })),
        ...(requestType && requestMedia?.schema ? { requestBody: body(requestType, requestMedia.schema, components) } : {}),
        responses: Object.entries(op.responses ?? {}).map(([status, response]) => {
          const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
          const name = bodyComponent(media?.schema);
          return {
            status,
            description: response.description,
            headers: Object.entries(response.headers ?? {}).map(([header, h]) => ({
              name: header,
              type: h.schema ? typeLabel(h.schema, components) : 'string',
              description: h.description,
            })),
            ...(name && shared.has(name)
              ? { shape: { name, mediaType: mediaType! } }
              : mediaType && media?.schema
                ? { body: body(mediaType, media.schema, components, Number(status) < 400) }
                : {}),
          };
        }),
      };
      return [route];
    }),
  );
  const shapes = [...shared].map(([name, { mediaType, schema, statuses }]) => ({
    name,
    anchor: shapeAnchor(name),
    mediaType,
    body: body(mediaType, schema, components),
    statuses: [...statuses].sort(),
  }));
  return { routes, shapes };
}

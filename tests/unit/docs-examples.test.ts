import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documentedSchemas, openApiDocument } from '@/lib/openapi';
import { exampleOf } from '@/lib/docs/example';
import { docsModel, type OpenApiDocument } from '@/lib/docs/routes';
import { refName, type JsonSchema } from '@/lib/docs/schema';

// Every example /docs shows must be accepted by the schemas the routes validate with: the zod
// schema of its component (refinements included), and the JSON Schema the document writes.

const doc = openApiDocument() as unknown as OpenApiDocument & { components: { schemas: Record<string, JsonSchema> } };
const components = doc.components.schemas;
const zodSchemas = documentedSchemas();

/**
 * The document's JSON Schema made ready for zod's converter: descriptions left out (the converter
 * would put them in zod's global registry), and `type: object` written where `properties` imply
 * it (the converter ignores `properties` without it, as in the `allOf` that narrows a problem's
 * `code`).
 */
function prepared(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => prepared(v));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value)
    .filter(([k, v]) => key === 'properties' || !(k === 'description' && typeof v === 'string'))
    .map(([k, v]) => [k, prepared(v, k)]);
  if (key !== 'properties' && 'properties' in value && !('type' in value)) entries.push(['type', 'object']);
  return Object.fromEntries(entries);
}

/** The document's JSON Schema for `schema` as a validator (its component references as $defs). */
function jsonSchemaCheck(schema: JsonSchema): z.ZodType {
  const text = JSON.stringify({ ...schema, $defs: components }).replaceAll('"#/components/schemas/', '"#/$defs/');
  return z.fromJSONSchema(prepared(JSON.parse(text)) as Parameters<typeof z.fromJSONSchema>[0], { registry: z.registry() });
}

/** The problems `value` has under `schema` (the document's JSON Schema and, for a component, its zod schema). */
function problemsOf(schema: JsonSchema, value: unknown): string[] {
  const problems: string[] = [];
  const json = jsonSchemaCheck(schema).safeParse(value);
  if (!json.success) problems.push(...json.error.issues.map((i) => `json schema: ${i.path.join('.')} ${i.message}`));
  const name = refName(schema);
  if (name) {
    const zodSchema = zodSchemas.get(name);
    if (!zodSchema) problems.push(`no zod schema for ${name}`);
    const parsed = zodSchema?.safeParse(value);
    if (parsed && !parsed.success) problems.push(...parsed.error.issues.map((i) => `zod: ${i.path.join('.')} ${i.message}`));
  }
  return problems;
}

const model = docsModel(doc);
const operationOf = (path: string, method: string) => doc.paths[path][method.toLowerCase()]!;

describe('the examples of /docs', () => {
  it('every component has an example its zod schema and its JSON Schema accept', () => {
    const names = Object.keys(components);
    expect(names.length).toBeGreaterThan(30);
    const refused = names
      .map((name) => ({ $ref: `#/components/schemas/${name}` }))
      .map((schema) => [refName(schema), problemsOf(schema, exampleOf(schema, components))])
      .filter(([, problems]) => problems!.length > 0);
    expect(refused).toEqual([]);
  });

  it('every request and answer example shown on a route is accepted by the schema the route names', () => {
    const refused: [string, string[]][] = [];
    let checked = 0;
    const check = (where: string, schema: JsonSchema, example: string | undefined) => {
      expect(example, `${where} shows no example`).toBeDefined();
      const problems = problemsOf(schema, JSON.parse(example!));
      if (problems.length) refused.push([where, problems]);
      checked += 1;
    };
    for (const route of model.routes) {
      const op = operationOf(route.path, route.method);
      if (route.requestBody) check(`${route.anchor} request`, op.requestBody!.content[route.requestBody.mediaType].schema!, route.requestBody.example);
      for (const response of route.responses) {
        if (response.body?.example) check(`${route.anchor} ${response.status}`, op.responses![response.status].content![response.body.mediaType].schema!, response.body.example);
      }
    }
    for (const shape of model.shapes) check(shape.name, { $ref: `#/components/schemas/${shape.name}` }, shape.body.example);
    expect(refused).toEqual([]);
    // Every route with a body shows an example of it, and most routes answer one.
    expect(model.routes.filter((r) => r.requestBody).length).toBeGreaterThanOrEqual(12);
    expect(checked).toBeGreaterThan(40);
  });

  it('the checks refuse an example that breaks its schema (they are not vacuous)', () => {
    const batch = { $ref: '#/components/schemas/IdeBatch' };
    const example = exampleOf(batch, components) as { activities: Record<string, unknown>[] };
    expect(problemsOf(batch, example)).toEqual([]);
    expect(problemsOf(batch, { activities: [] })).not.toEqual([]);
    expect(problemsOf(batch, { activities: [{ ...example.activities[0], time: 0 }] })).not.toEqual([]);
    expect(problemsOf(batch, { activities: [{ ...example.activities[0], hour: 24 }] })).not.toEqual([]);
    // A refinement zod has and JSON Schema cannot say: a date that is no calendar date.
    expect(problemsOf(batch, { activities: [{ ...example.activities[0], date: '2025-02-30' }] }).some((p) => p.startsWith('zod:'))).toBe(true);
    // A problem answer narrowed to its codes by allOf (no component of its own: JSON Schema alone).
    const unauthorized = operationOf('/badges', 'GET').responses!['401'].content!['application/problem+json'].schema!;
    const problem = exampleOf(unauthorized, components) as Record<string, unknown>;
    expect(problem.code).toBe('unauthorized');
    expect(problemsOf(unauthorized, problem)).toEqual([]);
    expect(problemsOf(unauthorized, { ...problem, code: 'not_found' })).not.toEqual([]);
  });
});

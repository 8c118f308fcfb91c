import { describe, expect, it } from 'vitest';
import { openApiDocument } from '@/lib/openapi';
import { exampleOf } from '@/lib/docs/example';
import { docsModel, type OpenApiDocument } from '@/lib/docs/routes';
import { codeSpan, fieldRows, rules, typeLabel, type Components, type JsonSchema } from '@/lib/docs/schema';

// How /docs reads the schemas of openapi.json: types, rules, the rows of nested fields, examples.

const components: Components = {
  Item: {
    type: 'object',
    description: 'One item.',
    properties: {
      id: { type: 'string', format: 'uuid' },
      size: { anyOf: [{ type: 'integer', minimum: 0, maximum: 23 }, { type: 'null' }], description: 'Hours.' },
      tags: { type: 'array', minItems: 1, maxItems: 5, items: { type: 'string', enum: ['a', 'b'] } },
    },
    required: ['id'],
  },
  // A component inside itself.
  Tree: { type: 'object', properties: { name: { type: 'string', minLength: 3, maxLength: 8 }, children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } }, required: ['name'] },
  Pair: {
    type: 'object',
    properties: {
      answers: {
        type: 'array',
        items: {
          anyOf: [
            { type: 'array', prefixItems: [{ $ref: '#/components/schemas/Item' }, { type: 'number', const: 201 }], items: false, minItems: 2, maxItems: 2 },
            { type: 'array', prefixItems: [{ type: 'object', properties: { error: { type: 'string' } } }, { type: 'number', const: 400 }], items: false, minItems: 2, maxItems: 2 },
          ],
        },
      },
    },
  },
};
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

describe('reading a schema', () => {
  it('says a type in a few words', () => {
    expect(typeLabel(ref('Item'), components)).toBe('Item');
    expect(typeLabel({ type: 'array', items: ref('Item') }, components)).toBe('array of Item');
    expect(typeLabel(components.Item.properties!.size, components)).toBe('integer or null');
    expect(typeLabel({ type: ['string', 'null'], format: 'date' }, components)).toBe('string (date) or null');
    expect(typeLabel({ type: 'object', additionalProperties: { type: ['number', 'boolean'] } }, components)).toBe('map of number or boolean');
    expect(typeLabel({}, components)).toBe('any');
    expect(() => typeLabel(ref('Missing'), components)).toThrow(/unresolvable/);
  });

  it('says the rules: values, lengths, bounds (not the safe-integer ones), items, pattern, default', () => {
    expect(rules(components.Item.properties!.size, components)).toEqual(['from 0 to 23']);
    expect(rules(components.Item.properties!.tags, components)).toEqual(['1–5 items']);
    expect(rules({ type: 'string', enum: ['sync', 'badges'], default: 'sync' }, components)).toEqual(['one of `sync`, `badges`', 'default `sync`']);
    expect(rules({ type: 'number', exclusiveMinimum: 0, maximum: 3600 }, components)).toEqual(['> 0 and ≤ 3600']);
    expect(rules({ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, components)).toEqual([]);
    expect(rules({ type: 'string', maxLength: 1 }, components)).toEqual(['at most 1 character']);
    expect(rules({ type: 'string', pattern: '^[a-z]+$' }, components)).toEqual(['matches `^[a-z]+$`']);
    // A format says it better than its regular expression.
    expect(rules({ type: 'string', format: 'uuid', pattern: '^[0-9a-f-]{36}$' }, components)).toEqual([]);
    expect(codeSpan('a`b')).toBe('`` a`b ``');
  });

  it('lists the fields of nested objects, arrays, tuples and shapes, and expands a component only once inside itself', () => {
    expect(fieldRows(ref('Item'), components).map((r) => [r.name, r.depth, r.type, r.required])).toEqual([
      ['id', 0, 'string (uuid)', true],
      ['size', 0, 'integer or null', false],
      ['tags', 0, 'array of string', false],
    ]);
    expect(fieldRows(ref('Item'), components)[1]).toMatchObject({ nullable: true, description: 'Hours.', rules: ['from 0 to 23'] });
    expect(fieldRows(ref('Tree'), components).map((r) => r.name)).toEqual(['name', 'children']);
    expect(fieldRows({ type: 'array', items: ref('Tree') }, components).map((r) => r.name)).toEqual(['[].name', '[].children']);
    expect(fieldRows(ref('Pair'), components).map((r) => [r.name, r.form ?? '', r.type])).toEqual([
      ['answers', '', 'array of [Item, number] or [object, number]'],
      ['answers[]', '1 of 2', '[Item, number]'],
      ['answers[][0]', '', 'Item'],
      ['answers[][0].id', '', 'string (uuid)'],
      ['answers[][0].size', '', 'integer or null'],
      ['answers[][0].tags', '', 'array of string'],
      ['answers[][1]', '', 'number'],
      ['answers[]', '2 of 2', '[object, number]'],
      ['answers[][0]', '', 'object'],
      ['answers[][0].error', '', 'string'],
      ['answers[][1]', '', 'number'],
    ]);
  });
});

describe('an example made from a schema', () => {
  it('follows the type, enum, const, format, bounds and lengths; stops where a component repeats', () => {
    expect(exampleOf(ref('Item'), components)).toEqual({ id: '4f8a2c1e-7b3d-4e9a-8c5f-1a2b3c4d5e6f', size: 1, tags: ['a'] });
    expect(exampleOf(ref('Tree'), components)).toEqual({ name: 'name', children: [] });
    expect(exampleOf({ type: 'object', properties: { name: { type: 'string', minLength: 6 } } }, components)).toEqual({ name: 'namexx' });
    expect(exampleOf({ type: 'string', maxLength: 3 }, components, 'language')).toBe('lan');
    expect(exampleOf({ type: 'integer', minimum: 5, maximum: 9 }, components)).toBe(5);
    expect(exampleOf({ type: 'number', exclusiveMinimum: 1 }, components)).toBe(2);
    expect(exampleOf({ type: 'integer', maximum: 0 }, components)).toBe(0);
    expect(exampleOf({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, components, 'day')).toBe('2025-01-15');
    expect(exampleOf({ type: 'array', minItems: 2, items: { type: 'boolean' } }, components)).toEqual([true, true]);
    expect(exampleOf({ type: 'array', maxItems: 0, items: { type: 'boolean' } }, components)).toEqual([]);
    expect(exampleOf(ref('Pair'), components)).toEqual({ answers: [[{ id: '4f8a2c1e-7b3d-4e9a-8c5f-1a2b3c4d5e6f', size: 1, tags: ['a'] }, 201]] });
    expect(exampleOf({ type: 'string', enum: ['x', 'y'], default: 'y' }, components)).toBe('y');
  });

  it('takes the schema own example first, but not one of a component narrowed by allOf', () => {
    const withExample: Components = { ...components, Code: { type: 'object', properties: { code: { type: 'string', enum: ['a', 'b'] } }, examples: [{ code: 'a' }] } };
    expect(exampleOf({ type: 'string', examples: ['Europe/Berlin'] }, withExample)).toBe('Europe/Berlin');
    expect(exampleOf(ref('Code'), withExample)).toEqual({ code: 'a' });
    expect(exampleOf({ allOf: [ref('Code'), { properties: { code: { enum: ['b'] } } }] }, withExample)).toEqual({ code: 'b' });
  });
});

describe('the routes of /docs', () => {
  const doc = openApiDocument() as unknown as OpenApiDocument;
  const { routes, shapes } = docsModel(doc);
  const route = (anchor: string) => routes.find((r) => r.anchor === anchor)!;

  it('shows every operation of openapi.json once, under an anchor of its own', () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((k) => k !== 'servers'));
    expect(routes).toHaveLength(operations.length);
    expect(new Set(routes.map((r) => r.anchor)).size).toBe(routes.length);
    // The anchors that links elsewhere (and the browser test) name.
    expect(route('post-sync-activities').shown).toBe('/main/api/v1/sync/activities');
    expect(route('post-users-user-heartbeats-bulk').shown).toBe('/api/wakatime/v1/users/{user}/heartbeats.bulk');
    // An operators' route at the site root.
    expect(route('get-metrics')).toMatchObject({ shown: '/metrics', auth: 'METRICS_TOKEN' });
  });

  it('gives a route its parameters, request fields, answers and examples', () => {
    const sync = route('post-sync-activities');
    expect(sync.auth).toBe('token with sync');
    expect(sync.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false, rules: ['at most 255 characters'] })]);
    expect(sync.requestBody!.type).toBe('IdeBatch');
    expect(sync.requestBody!.fields.find((f) => f.name === 'activities[].time')).toMatchObject({ required: true, type: 'number', rules: ['> 0 and ≤ 3600'] });
    expect(sync.requestBody!.fields.find((f) => f.name === 'activities[].hour')).toMatchObject({ required: false, nullable: true, rules: ['from 0 to 23'] });
    expect(JSON.parse(sync.requestBody!.example!).activities).toHaveLength(1);
    const ok = sync.responses.find((r) => r.status === '200')!;
    expect(ok.body!.type).toBe('SyncAck');
    expect(ok.headers.map((h) => h.name)).toContain('RateLimit');
    expect(JSON.parse(ok.body!.example!)).toHaveProperty('accepted');
    expect(sync.responses.find((r) => r.status === '422')!.shape).toEqual({ name: 'Problem', mediaType: 'application/problem+json' });

    const stats = route('get-users-user-stats-range');
    // A name, a year or a month: the alternatives are told in the description.
    expect(stats.parameters.find((p) => p.name === 'range')).toMatchObject({ in: 'path', required: true, description: expect.stringMatching(/^last_7_days, .* a year \(`2026`\) or a month \(`2026-12`\)/) });
    expect(stats.responses.find((r) => r.status === '401')!.shape?.name).toBe('WakaTimeError');
    expect(stats.auth).toBe('key with stats as Basic user name or token with stats or ?api_key=');
    // The status bar opens to either scope; each way of sending the key is named once.
    expect(route('get-users-user-statusbar-today').auth).toBe('key with stats or sync as Basic user name or token with stats or sync or ?api_key=');
  });

  it('describes the error bodies of many routes once, and keeps an error body of one route (health, badges) on it', () => {
    expect(shapes.map((s) => s.name)).toEqual(['Problem', 'WakaTimeError']);
    const health = route('get-health').responses.find((r) => r.status === '503')!;
    expect(health.body?.type).toBe('Health');
    // A failure's example would be the schema's first values (status "ok"): none is shown.
    expect(health.body?.example).toBeUndefined();
    expect(route('get-public-site-shields-userUUID').responses.find((r) => r.status === '404')!.body?.type).toBe('ShieldsEndpoint');
  });
});

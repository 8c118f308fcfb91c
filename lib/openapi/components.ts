import { z } from 'zod';

// The schemas of openapi.json: each zod schema with a meta id is a component, named by `$ref`.

/** The id a schema was given with `.meta({ id })`: read per schema object, never by id. */
export const idOf = (schema: z.ZodType) => z.globalRegistry.get(schema)?.id;

export const ref = (schema: z.ZodType) => {
  const id = idOf(schema);
  if (!id) throw new Error('every schema in openapi.json needs a meta id');
  return { $ref: `#/components/schemas/${id}` };
};

/** Every schema with an id reachable from `roots` through their definitions (fields, items, options...). */
export function namedSchemas(roots: z.ZodType[]): z.ZodType[] {
  const found = new Set<z.ZodType>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if ('_zod' in value) {
      if (idOf(value as z.ZodType)) found.add(value as z.ZodType);
      visit((value as { _zod: { def: unknown } })._zod.def);
    } else {
      Object.values(value).forEach(visit);
    }
  };
  roots.forEach(visit);
  return [...found];
}

/**
 * The schemas of the document, converted from a registry of their own. zod's global registry is
 * process-wide and the build holds several copies of some modules, each registering its own
 * schema under the same id: converting it would fail as soon as a second copy had loaded.
 */
export function componentSchemas(roots: z.ZodType[]): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const schema of namedSchemas(roots)) registry.add(schema, { id: idOf(schema)! });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'input', unrepresentable: 'any' }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  for (const s of Object.values(schemas)) {
    delete s.$schema;
    delete s.$id;
  }
  return schemas;
}

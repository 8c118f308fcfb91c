import { z } from 'zod';
import { invalidQuery } from './problem';

// Query parameters are zod objects of strings: the same schema parses a request (400
// invalid_query naming the parameter and its rule) and writes the operation's `parameters` in
// openapi.json. Unknown parameters are ignored (cache busters, tracking tags); a repeated one
// counts by its first value.

export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const raw: Record<string, string> = {};
  for (const [name, value] of params) if (!(name in raw)) raw[name] = value;
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw invalidQuery(String(issue.path[0] ?? 'query'), issue.message);
}

/** A whole-number parameter: digits only (no sign, point, exponent or hex), from min to max. */
export function wholeNumber(min: number, max: number, fallback: number) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,15}$/, rule)
    .transform(Number)
    .pipe(z.number().min(min, rule).max(max, rule))
    .optional()
    .transform((value) => value ?? fallback)
    .meta({ type: 'integer', minimum: min, maximum: max, default: fallback });
}

interface Parameter {
  name: string;
  in: 'query';
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

/**
 * The OpenAPI parameters of a query schema (a zod object, refined or not): one per field, with
 * the JSON Schema of what a client sends.
 */
export function queryParameters(schema: z.ZodType): Parameter[] {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      // A whole number travels as digits; describe it as the integer it stands for.
      const meta = z.globalRegistry.get(zodSchema);
      if (meta?.type === 'integer') {
        delete jsonSchema.pattern;
        jsonSchema.default = meta.default;
      }
    },
  }) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, { description, ...fieldSchema }]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    ...(typeof description === 'string' ? { description } : {}),
    schema: fieldSchema,
  }));
}

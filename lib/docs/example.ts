import { alternatives, flatten, refName, resolve, type Components, type JsonSchema } from './schema';

// An example value for a schema of openapi.json: the schema's own `examples` (or `example`) when
// it has one, else one made from the schema, always the same: the constant, the default, the
// first allowed value, a value of the format, a string matching the pattern, a number within the
// bounds, as many array items as the least allowed (at least one). tests/unit/docs-examples.test.ts
// checks every example of the page against the zod schemas the routes validate with.

const formatValues: Record<string, string> = {
  date: '2025-01-15',
  'date-time': '2025-01-15T09:30:00Z',
  time: '09:30:00',
  uuid: '4f8a2c1e-7b3d-4e9a-8c5f-1a2b3c4d5e6f',
  email: 'ada@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
};

function stringFor(s: JsonSchema, name: string | undefined): string {
  const plain = name ?? 'string';
  let value = (s.format && formatValues[s.format]) ?? plain;
  if (s.pattern) {
    const pattern = new RegExp(s.pattern, 'u');
    value = [value, plain, 'example', ...Object.values(formatValues)].find((candidate) => pattern.test(candidate)) ?? value;
  }
  if (s.minLength !== undefined && value.length < s.minLength) value = value.padEnd(s.minLength, 'x');
  if (s.maxLength !== undefined && value.length > s.maxLength) value = value.slice(0, s.maxLength);
  return value;
}

function numberFor(s: JsonSchema, integer: boolean): number {
  let value = 1;
  if (s.minimum !== undefined && value < s.minimum) value = s.minimum;
  if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) value = integer ? Math.floor(s.exclusiveMinimum) + 1 : s.exclusiveMinimum + 1;
  if (s.maximum !== undefined && value > s.maximum) value = s.maximum;
  if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) {
    const low = s.exclusiveMinimum ?? s.minimum ?? s.exclusiveMaximum - 2;
    value = integer ? Math.ceil(s.exclusiveMaximum) - 1 : (low + s.exclusiveMaximum) / 2;
  }
  return integer ? Math.trunc(value) : value;
}

const given = (s: JsonSchema): { value: unknown } | undefined =>
  s.examples?.length ? { value: s.examples[0] } : 'example' in s ? { value: s.example } : undefined;

/** Whether a schema says anything about its value (`{}` allows anything and shows nothing). */
const says = (s: JsonSchema) => Object.keys(s).some((key) => key !== 'description');

const maxDepth = 12;

/**
 * An example of `schema`; `name` is the property it is the value of (a plain string example
 * is that name). Properties that are optional and allow anything are left out.
 */
export function exampleOf(schema: JsonSchema, components: Components, name?: string, depth = 0, seen: ReadonlySet<string> = new Set()): unknown {
  const own = given(schema);
  if (own) return own.value;
  const { schema: resolved, name: component } = resolve(schema, components);
  // A component inside itself, or nesting past any real body: stop with the least value.
  if (depth > maxDepth || (component && seen.has(component))) return null;
  const inside = component ? new Set([...seen, component]) : seen;
  // What would repeat a component inside itself is left out where the schema allows.
  const loops = (inner: JsonSchema) => inside.has(refName(inner) ?? '');
  const s = resolved.allOf ? flatten(resolved, components) : resolved;
  // The examples of a component narrowed by `allOf` (a problem and its codes) may not fit the whole.
  const found = resolved.allOf ? undefined : given(s);
  if (found) return found.value;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum.find((v) => v !== null) ?? s.enum[0];

  // Of several shapes (or a value or null), the first that is not null.
  const { options } = alternatives(s);
  if (options.length === 0) return null;
  if (options.length > 1 || options[0] !== s) return exampleOf(options[0], components, name, depth + 1, inside);

  const type = s.type as string | undefined;
  if (type === 'object' || s.properties) {
    const value: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(s.properties ?? {})) {
      const optional = !s.required?.includes(key);
      if (optional && (!says(property) || loops(property))) continue;
      value[key] = exampleOf(property, components, key, depth + 1, inside);
    }
    if (!s.properties && typeof s.additionalProperties === 'object' && says(s.additionalProperties)) {
      const key = s.propertyNames ? exampleOf(s.propertyNames, components, 'name', depth + 1, inside) : 'name';
      value[String(key)] = exampleOf(s.additionalProperties, components, String(key), depth + 1, inside);
    }
    return value;
  }
  if (type === 'array' || s.prefixItems || s.items !== undefined) {
    if (s.prefixItems) return s.prefixItems.map((member) => exampleOf(member, components, name, depth + 1, inside));
    const items = typeof s.items === 'object' ? s.items : {};
    const count = Math.min(Math.max(s.minItems ?? 0, loops(items) ? 0 : 1), s.maxItems ?? Infinity);
    return Array.from({ length: count }, () => exampleOf(items, components, name, depth + 1, inside));
  }
  if (type === 'string') return stringFor(s, name);
  if (type === 'integer' || type === 'number') return numberFor(s, type === 'integer');
  if (type === 'boolean') return true;
  return null;
}

/** An example as the page shows it: indented JSON. */
export const exampleText = (value: unknown): string => JSON.stringify(value, null, 2);

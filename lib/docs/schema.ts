// Reading the JSON Schemas of openapi.json for people: a short type for each schema, its rules in
// words, and the fields of a body as rows (nested objects and arrays as dotted paths), with every
// `$ref` to a component resolved.

export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema | boolean;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  example?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** The component schemas of a document, by name. */
export type Components = Record<string, JsonSchema>;

const componentPrefix = '#/components/schemas/';

/** The component a `$ref` names, or undefined for a schema that is not a reference. */
export const refName = (schema: JsonSchema | undefined): string | undefined =>
  schema?.$ref?.startsWith(componentPrefix) ? schema.$ref.slice(componentPrefix.length) : undefined;

/**
 * A schema with its `$ref`s followed (keywords beside a `$ref` win, as in OpenAPI 3.1) and the
 * name of the last component it went through. A reference to no component is an error: the
 * document would be broken.
 */
export function resolve(schema: JsonSchema, components: Components): { schema: JsonSchema; name?: string } {
  let current = schema;
  let name: string | undefined;
  for (let hops = 0; current.$ref; hops += 1) {
    const target = refName(current);
    if (!target || !components[target] || hops > 32) throw new Error(`unresolvable $ref ${current.$ref}`);
    const { $ref: _ref, ...beside } = current;
    name = target;
    current = { ...components[target], ...beside };
  }
  return { schema: current, name };
}

/** `allOf`'s schemas as one: properties merged field by field, `required` joined, later keywords win. */
export function mergeAll(schemas: JsonSchema[], components: Components): JsonSchema {
  return schemas.reduce<JsonSchema>((merged, part) => {
    const s = flatten(part, components);
    const properties = { ...merged.properties };
    for (const [key, value] of Object.entries(s.properties ?? {})) properties[key] = key in properties ? mergeAll([properties[key], value], components) : value;
    return {
      ...merged,
      ...s,
      ...(merged.properties || s.properties ? { properties } : {}),
      ...(merged.required || s.required ? { required: [...new Set([...(merged.required ?? []), ...(s.required ?? [])])] } : {}),
    };
  }, {});
}

/** A schema with its references followed and its `allOf` merged. */
export function flatten(schema: JsonSchema, components: Components): JsonSchema {
  const { schema: resolved } = resolve(schema, components);
  if (!resolved.allOf) return resolved;
  const { allOf, ...rest } = resolved;
  return mergeAll([...allOf, rest], components);
}

const isNull = (s: JsonSchema) => s.type === 'null';

/** The non-null alternatives of a schema (`anyOf`, `oneOf`, a list of types) and whether null is one. */
export function alternatives(schema: JsonSchema): { options: JsonSchema[]; nullable: boolean } {
  const list = schema.anyOf ?? schema.oneOf;
  if (list) {
    const { anyOf: _a, oneOf: _o, ...outer } = schema;
    // Keywords beside anyOf (a description, examples) belong to the whole; a lone option takes them.
    const options = list.filter((s) => !isNull(s));
    return { options: options.length === 1 ? [{ ...options[0], ...outer }] : options, nullable: options.length < list.length };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return { options: types.map((type) => ({ ...schema, type })), nullable: types.length < schema.type.length };
  }
  return { options: [schema], nullable: false };
}

/** The bounds zod writes for every `.int()`: the safe integers, which say nothing to a reader. */
const unbounded = (n: number | undefined) => n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER;

const isSchema = (s: JsonSchema | boolean | undefined): s is JsonSchema => typeof s === 'object' && s !== null;

/** The type of a schema in a few words: `string (uuid)`, `array of IdeBucket`, `integer or null`. */
export function typeLabel(schema: JsonSchema, components: Components): string {
  const { schema: resolved, name } = resolve(schema, components);
  const s = resolved.allOf ? flatten(resolved, components) : resolved;
  const { options, nullable } = alternatives(s);
  if (options.length !== 1 || options[0] !== s) {
    const labels = [...new Set(options.map((o) => typeLabel(o, components)))];
    return [...labels, ...(nullable ? ['null'] : [])].join(' or ') || 'null';
  }
  if (s.const !== undefined) return s.const === null ? 'null' : typeof s.const;
  const type = s.type as string | undefined;
  if (type === 'array' || s.prefixItems || s.items !== undefined) {
    if (s.prefixItems) return `[${s.prefixItems.map((p) => typeLabel(p, components)).join(', ')}]`;
    return isSchema(s.items) ? `array of ${typeLabel(s.items, components)}` : 'array';
  }
  if (type === 'object' || s.properties) {
    if (name) return name;
    if (!s.properties && isSchema(s.additionalProperties) && Object.keys(s.additionalProperties).length > 0) {
      return `map of ${typeLabel(s.additionalProperties, components)}`;
    }
    return 'object';
  }
  if (!type) return s.enum ? [...new Set(s.enum.map((v) => (v === null ? 'null' : typeof v)))].join(' or ') : 'any';
  return s.format ? `${type} (${s.format})` : type;
}

/** A JSON value as a code span (Markdown), whatever backticks it holds. */
export function codeSpan(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const longest = (text.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0);
  const fence = '`'.repeat(longest + 1);
  return longest > 0 || text.startsWith(' ') || text.endsWith(' ') ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function sizeRule(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${plural(min, unit)}` : `${min}–${plural(max, unit)}`;
  if (max !== undefined) return `at most ${plural(max, unit)}`;
  if (min !== undefined && min > 0) return `at least ${plural(min, unit)}`;
  return undefined;
}

function numberRule(s: JsonSchema): string | undefined {
  const min = unbounded(s.minimum) ? undefined : s.minimum;
  const max = unbounded(s.maximum) ? undefined : s.maximum;
  const low = s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : min !== undefined ? `≥ ${min}` : undefined;
  const high = s.exclusiveMaximum !== undefined ? `< ${s.exclusiveMaximum}` : max !== undefined ? `≤ ${max}` : undefined;
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  return [low, high].filter(Boolean).join(' and ') || undefined;
}

/** The rules of a schema as short Markdown phrases: allowed values, lengths, bounds, pattern, default. */
export function rules(schema: JsonSchema, components: Components): string[] {
  const { schema: resolved } = resolve(schema, components);
  const s = resolved.allOf ? flatten(resolved, components) : resolved;
  const { options } = alternatives(s);
  // Of alternatives, only a lone option (a nullable value) has rules to tell; the rest is in its type.
  const one = options.length === 1 ? resolve(options[0], components).schema : undefined;
  const out: string[] = [];
  if (one) {
    if (one.const !== undefined) out.push(`always ${codeSpan(one.const)}`);
    const values = one.enum?.filter((v) => v !== null);
    if (values?.length) out.push(values.length === 1 ? `always ${codeSpan(values[0])}` : `one of ${values.map(codeSpan).join(', ')}`);
    const length = sizeRule(one.minLength, one.maxLength, 'character');
    if (length) out.push(length);
    // A format says more than its regular expression.
    if (one.pattern && !one.format) out.push(`matches ${codeSpan(one.pattern)}`);
    const bounds = numberRule(one);
    if (bounds) out.push(bounds);
    const items = one.prefixItems ? undefined : sizeRule(one.minItems, one.maxItems, 'item');
    if (items) out.push(items);
  }
  const fallback = s.default !== undefined ? s.default : one?.default;
  if (fallback !== undefined) out.push(`default ${codeSpan(fallback)}`);
  return out;
}

/** The description of a schema: its own, else that of what it refers to or of its lone option. */
export function describe(schema: JsonSchema, components: Components): string | undefined {
  if (schema.description) return schema.description;
  const { schema: resolved } = resolve(schema, components);
  if (resolved.description) return resolved.description;
  const { options } = alternatives(resolved);
  return options.length === 1 && options[0] !== resolved ? describe(options[0], components) : undefined;
}

export interface FieldRow {
  /** A path into the body: `activities[].language`, `responses[][0].data`. */
  name: string;
  /** How deep the field is (0 for a field of the body itself). */
  depth: number;
  type: string;
  required: boolean;
  nullable: boolean;
  /** Markdown phrases: allowed values, lengths, bounds, pattern, default. */
  rules: string[];
  /** Markdown. */
  description?: string;
  /** For one of several shapes a value may take: which (`1 of 2`). */
  form?: string;
}

const maxDepth = 8;

/**
 * The fields of a body, in document order, each followed by its own fields: the properties of
 * objects, the items of arrays (`name[]`), the members of tuples (`name[0]`) and, for a value of
 * several shapes, each shape in turn. A component met again inside itself is not expanded twice.
 */
export function fieldRows(schema: JsonSchema, components: Components): FieldRow[] {
  const rows: FieldRow[] = [];

  const row = (name: string, depth: number, s: JsonSchema, required: boolean, form?: string) => {
    rows.push({
      name,
      depth,
      type: typeLabel(s, components),
      required,
      nullable: alternatives(flatten(s, components)).nullable,
      rules: rules(s, components),
      description: describe(s, components),
      ...(form ? { form } : {}),
    });
  };

  const children = (input: JsonSchema, path: string, depth: number, seen: ReadonlySet<string>): void => {
    if (depth > maxDepth) return;
    const { name } = resolve(input, components);
    if (name && seen.has(name)) return;
    const inside = name ? new Set([...seen, name]) : seen;
    const s = flatten(input, components);
    const { options } = alternatives(s);
    if (options.length > 1) {
      options.forEach((option, i) => {
        row(path || '(body)', depth, option, true, `${i + 1} of ${options.length}`);
        children(option, path, depth + 1, inside);
      });
      return;
    }
    const one = options.length === 1 ? flatten(options[0], components) : s;
    if (one.properties) {
      const prefix = path ? `${path}.` : '';
      for (const [key, property] of Object.entries(one.properties)) {
        row(`${prefix}${key}`, depth, property, one.required?.includes(key) ?? false);
        children(property, `${prefix}${key}`, depth + 1, inside);
      }
    }
    if (one.prefixItems) {
      one.prefixItems.forEach((member, i) => {
        row(`${path}[${i}]`, depth, member, i < (one.minItems ?? one.prefixItems!.length));
        children(member, `${path}[${i}]`, depth + 1, inside);
      });
    } else if (isSchema(one.items)) {
      children(one.items, `${path}[]`, depth, inside);
    }
  };

  children(schema, '', 0, new Set());
  return rows;
}

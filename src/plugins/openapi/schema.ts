/**
 * @module plugins/openapi/schema
 * JSON Schemas as published (OpenAPI 3.1, JSON Schema 2020-12), from what
 * Elysia generates out of our TypeBox declarations:
 *
 * - Elysia's coercion unions `anyOf: [{ type: string, format: integer }, { type: integer }]`
 *   (and `numeric`, `boolean`) become the plain schema they wrap, with its
 *   real default: query strings are parsed by the server, clients send numbers.
 * - TypeBox's custom-message keyword `error` is removed (strict validators
 *   refuse unknown keywords); `x-…` extensions are removed from schemas (the
 *   caller lifts the ones it knows to where OpenAPI allows them).
 * - An `enum` whose values are not all strings gets the type of its values
 *   (Elysia writes `type: string` over a union of number literals).
 * - Every schema with a `title` is a named component, referenced by `$ref`;
 *   two different schemas with one title are a bug and throw.
 */

export type JsonSchema = { [keyword: string]: unknown };

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
/** Keywords whose value is a subschema. */
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** The string formats Elysia uses to accept a query-string form of a non-string schema. */
const COERCION_FORMATS = new Set(['integer', 'numeric', 'boolean']);

/** Applies `visit` to every subschema of `schema`, bottom-up, replacing each with the result. */
export function mapSchema(schema: unknown, visit: (schema: JsonSchema) => JsonSchema): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonSchema = { ...schema };
  for (const key of SCHEMA_MAPS) {
    const map = out[key];
    if (isObject(map)) out[key] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, mapSchema(sub, visit)]));
  }
  for (const key of SCHEMA_VALUES) if (isObject(out[key])) out[key] = mapSchema(out[key], visit);
  for (const key of SCHEMA_LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((sub) => mapSchema(sub, visit));
  }
  return visit(out);
}

/** `{ anyOf: [{ type: string, format: integer }, X], ...outer }` → `{ ...X, ...outer }`. */
function collapseCoercion(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return schema;
  const index = anyOf.findIndex((member) => isObject(member) && member.type === 'string' && COERCION_FORMATS.has(String(member.format)));
  if (index < 0) return schema;
  const real = anyOf[1 - index];
  if (!isObject(real)) return schema;
  const { anyOf: _, ...outer } = schema;
  return { ...real, ...outer };
}

/** The JSON type of an enum's values, when they share one. */
function enumType(values: unknown[]): string | undefined {
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => Number.isInteger(v))) return 'integer';
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  return undefined;
}

/** One schema, cleaned for publication (see the module comment); `x-…` keys are returned apart. */
export function cleanSchema(schema: unknown): JsonSchema {
  const cleaned = mapSchema(schema, (node) => {
    const collapsed = collapseCoercion(node);
    const { error: _error, ...rest } = collapsed;
    for (const key of Object.keys(rest)) if (key.startsWith('x-')) delete rest[key];
    if (Array.isArray(rest.enum)) {
      const type = enumType(rest.enum);
      if (type) rest.type = type;
      else delete rest.type;
    }
    return rest;
  });
  return isObject(cleaned) ? cleaned : {};
}

/** The `x-…` keys of a schema's root (parameter-level facts written on the TypeBox schema). */
export function extensionsOf(schema: unknown): JsonSchema {
  if (!isObject(schema)) return {};
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key.startsWith('x-')));
}

/** The first JSON path where two values differ (for a message a person can act on). */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], `${at}/${key}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return stable(a) === stable(b) ? undefined : `${at || '/'}: ${stable(a)?.slice(0, 80)} vs ${stable(b)?.slice(0, 80)}`;
}

const stable = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

/**
 * Named components: `hoist` replaces every titled subschema by a `$ref` to
 * `#/components/schemas/<title>`, registering it once. A use that differs
 * from the registered schema only in its `description` keeps that
 * description beside the `$ref`; any other difference throws.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly shapes = new Map<string, { key: string; shape: JsonSchema }>();

  hoist(schema: unknown): JsonSchema {
    const hoisted = mapSchema(schema, (node) => {
      const title = node.title;
      if (typeof title !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(title)) return node;
      // Elysia folds `T | null` into T's own schema (`type: [object, null]`): publish T, and `T | null` where used.
      if (Array.isArray(node.type) && node.type.includes('null')) {
        const types = node.type.filter((type) => type !== 'null');
        const { description, ...rest } = node;
        return { anyOf: [this.reference({ ...rest, type: types.length === 1 ? types[0] : types }, title), { type: 'null' }], ...(description === undefined ? {} : { description }) };
      }
      return this.reference(node, title);
    });
    return isObject(hoisted) ? hoisted : {};
  }

  /** Registers `node` under `title` (or checks it against the one registered) and returns its `$ref`. */
  private reference(node: JsonSchema, title: string): JsonSchema {
    const { description, ...shape } = node;
    const key = stable(shape);
    const known = this.shapes.get(title);
    if (known === undefined) {
      this.shapes.set(title, { key, shape });
      this.schemas[title] = node;
    } else if (known.key !== key) {
      throw new Error(`OpenAPI: two different schemas are titled '${title}' (at ${firstDifference(known.shape, shape)}); give one another title`);
    }
    const ref: JsonSchema = { $ref: `#/components/schemas/${title}` };
    if (description !== undefined && description !== this.schemas[title]!.description) ref.description = description;
    return ref;
  }
}

/**
 * @module modules/graphql/types
 * GraphQL types generated from the REST models' TypeBox schemas, so the two
 * interfaces cannot drift: an object schema becomes an object type (named by
 * its `title`, else by where it sits: `ParentField`; a titled shape met again
 * is the same type), arrays lists, strings and booleans `String`/`Boolean`,
 * numbers `Float` (an integer that fits 32 bits `Int`, Elysia's integer-or-
 * its-text an integer), `X | null` a nullable `X`. A closed list of strings
 * whose values are GraphQL names is an enum (one per set of values; `4h`,
 * `1mo` are not names, so timeframes and ranges stay `String`). A field the
 * REST schema requires and does not let be null is non-null, and so is a
 * list item that cannot be null (issue 31: a generated client's types say
 * what is always there). What GraphQL cannot type field by field — records,
 * unions of objects, unknown, an object without properties — is the `JSON`
 * scalar, carrying the REST value as it is (the allowed ones are listed, each
 * with its reason, in test/modules/graphql/json-fields.test.ts). An argument
 * is typed as its REST parameter (a number Elysia also takes as decimal text
 * is `Int` or `Float`, a closed list of strings `String`, so a query may keep
 * sending the REST value as a string; a body object an input object type),
 * non-null where the parameter is required without a default, with the REST
 * default as its default value, then checked by that parameter's schema. One `GraphQLTypes` per schema build holds the types made so far (a
 * schema object is typed once).
 *
 * @example
 * const types = new GraphQLTypes();
 * types.output(SnapshotResponse, 'Snapshot'); // => GraphQLObjectType 'Snapshot'
 */
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLNonNull,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  type GraphQLArgumentConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLFieldConfig,
  Kind as AstKind,
  type ValueNode,
} from 'graphql';

/** Any JSON value, passed through as the REST answer has it. */
export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  description: 'A JSON value, as the REST answer carries it (records, unions of objects)',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(node: ValueNode): unknown {
    switch (node.kind) {
      case AstKind.STRING:
      case AstKind.BOOLEAN:
        return node.value;
      case AstKind.INT:
      case AstKind.FLOAT:
        return Number(node.value);
      case AstKind.OBJECT:
        return Object.fromEntries(node.fields.map((f) => [f.name.value, literal(f.value)]));
      case AstKind.LIST:
        return node.values.map((v) => literal(v));
      default:
        return null;
    }
  },
});

const NAME = /^[_A-Za-z][_A-Za-z0-9]*$/;
const INT32 = 2 ** 31 - 1;

type Extra = (name: string) => GraphQLFieldConfigMap<unknown, unknown> | undefined;

export class GraphQLTypes {
  private readonly made = new Map<TSchema, GraphQLOutputType>();
  /** Titled objects by shape: a schema wrapped again (t.Optional copies it) is the same type, not `Title2`. */
  private readonly titled = new Map<string, GraphQLOutputType>();
  /** Input objects by shape: the same REST body object is one input type wherever it appears. */
  private readonly inputs = new Map<string, GraphQLInputObjectType>();
  /** Enums by their values: `long | short` is one enum wherever it appears. */
  private readonly enums = new Map<string, GraphQLEnumType>();
  private readonly names = new Set<string>();

  /** `extra(typeName)`: fields a type gets besides its REST ones (a signal's snapshot, say). */
  constructor(private readonly extra: Extra = () => undefined) {}

  /** The output type of `schema`; `name` names it when it is an object without a title. */
  output(schema: TSchema, name: string): GraphQLOutputType {
    const known = this.made.get(schema);
    if (known) return known;
    const shape = schema[Kind] === 'Object' && typeof schema.title === 'string' ? JSON.stringify(schema) : undefined;
    const type = (shape !== undefined ? this.titled.get(shape) : undefined) ?? this.build(schema, name);
    this.made.set(schema, type);
    if (shape !== undefined) this.titled.set(shape, type);
    return type;
  }

  /**
   * The input type of one argument: scalars as their kind (a query
   * parameter's number, which Elysia declares as a number or its decimal
   * string, as the number: `Int` for an integer within 32 bits, else
   * `Float`; a closed list of strings as `String`); anything structured is
   * JSON. Every value is then checked by the REST schema (its bounds, its
   * list, its pattern).
   */
  input(schema: TSchema, name = 'Input'): GraphQLInputType {
    const inner = nonNull(schema);
    switch (inner[Kind]) {
      case 'String':
      case 'StringEnum':
      case 'UnionEnum':
        return GraphQLString;
      case 'Boolean':
        return GraphQLBoolean;
      case 'Integer':
        return fitsIntArgument(inner) ? GraphQLInt : GraphQLFloat;
      case 'Number':
        return GraphQLFloat;
      case 'Literal':
        return scalarOfLiteral(inner.const);
      case 'Union': {
        const number = numberOrItsText(inner);
        return number ? this.input(number, name) : (literalUnion(inner) ?? GraphQLJSON);
      }
      case 'Array': {
        const item = this.input(inner.items as TSchema, name);
        return item === GraphQLJSON ? GraphQLJSON : new GraphQLList(item);
      }
      case 'Object':
        return this.inputObject(inner, name);
      default:
        return GraphQLJSON;
    }
  }

  /**
   * One argument as its REST parameter declares it (issue 31): non-null when
   * the parameter is required, has no default and cannot be null (a query
   * leaving it out is a validation error, as REST answers 400); its REST
   * default as the GraphQL default value where the default is a scalar, so a
   * client reads it from the schema.
   */
  argument(schema: TSchema, name?: string): GraphQLArgumentConfig {
    const type = this.input(schema, name);
    const fallback: unknown = schema.default;
    const required = !isOptional(schema) && fallback === undefined && !nullable(schema);
    const config: GraphQLArgumentConfig = { type: required ? new GraphQLNonNull(type) : type };
    if (typeof schema.description === 'string') config.description = schema.description;
    if (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean') config.defaultValue = fallback;
    return config;
  }

  /**
   * A REST body's object as an input object type (named by its title, else
   * `name`; one per shape): each field as its property, non-null where the
   * property is required without a default. The value GraphQL coerces is
   * then checked by the REST schema as a whole.
   */
  private inputObject(schema: TSchema, name: string): GraphQLInputType {
    const properties = (schema.properties ?? {}) as Record<string, TSchema>;
    const keys = Object.keys(properties);
    if (keys.length === 0 || !keys.every((k) => NAME.test(k))) return GraphQLJSON;
    const shape = JSON.stringify(schema);
    let made = this.inputs.get(shape);
    if (!made) {
      const typeName = this.uniqueName(typeof schema.title === 'string' && NAME.test(schema.title) ? `${schema.title}Input` : name);
      made = new GraphQLInputObjectType({
        name: typeName,
        description: typeof schema.description === 'string' ? schema.description : undefined,
        fields: () => Object.fromEntries(keys.map((key) => [key, this.argument(properties[key]!, typeName.replace(/Input$/, '') + key[0]!.toUpperCase() + key.slice(1) + 'Input')])),
      });
      this.inputs.set(shape, made);
    }
    return made;
  }

  private build(schema: TSchema, name: string): GraphQLOutputType {
    const inner = nonNull(schema);
    if (inner !== schema) return this.output(inner, name);
    switch (schema[Kind]) {
      case 'String':
        return GraphQLString;
      case 'Boolean':
        return GraphQLBoolean;
      case 'Integer':
        return fitsInt(schema) ? GraphQLInt : GraphQLFloat;
      case 'Number':
        return GraphQLFloat;
      case 'Literal':
        return scalarOfLiteral(schema.const);
      case 'StringEnum':
        return this.enumOf(schema.enum as string[], name) ?? GraphQLString;
      case 'Union': {
        // Elysia's t.Integer / t.Numeric: the number or its decimal text; an answer carries the number.
        const number = numberOrItsText(schema);
        if (number) return this.output(number, name);
        const values = stringLiterals(schema);
        return (values && this.enumOf(values, name)) ?? literalUnion(schema) ?? GraphQLJSON;
      }
      case 'Array': {
        const items = schema.items as TSchema;
        const item = this.output(items, name);
        return new GraphQLList(nullable(items) ? item : new GraphQLNonNull(item));
      }
      case 'Object':
        return this.object(schema, name);
      default:
        return GraphQLJSON;
    }
  }

  private object(schema: TSchema, fallback: string): GraphQLOutputType {
    const properties = (schema.properties ?? {}) as Record<string, TSchema>;
    const keys = Object.keys(properties);
    if (keys.length === 0 || !keys.every((k) => NAME.test(k))) return GraphQLJSON;
    const name = this.uniqueName(typeof schema.title === 'string' && NAME.test(schema.title) ? schema.title : fallback);
    return new GraphQLObjectType({
      name,
      description: typeof schema.description === 'string' ? schema.description : undefined,
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const key of keys) {
          const property = properties[key]!;
          const type = this.output(property, name + key[0]!.toUpperCase() + key.slice(1));
          // Non-null where the REST schema says the value is always there (required and not nullable).
          const field: GraphQLFieldConfig<unknown, unknown> = { type: isOptional(property) || nullable(property) ? type : new GraphQLNonNull(type) };
          if (typeof property.description === 'string') field.description = property.description;
          fields[key] = field;
        }
        return { ...fields, ...this.extra(name) };
      },
    });
  }

  /**
   * A closed list of strings as an enum (issue 31: a generated client gets a
   * union type, not `string`), one per set of values, named where it first
   * appears; undefined when a value is not a GraphQL name (`4h`, `1mo`), which
   * stays a String.
   */
  private enumOf(values: readonly string[], name: string): GraphQLEnumType | undefined {
    if (values.length === 0 || !values.every((v) => NAME.test(v) && v !== 'true' && v !== 'false' && v !== 'null')) return undefined;
    const key = [...values].sort().join('|');
    let made = this.enums.get(key);
    if (!made) {
      made = new GraphQLEnumType({ name: this.uniqueName(name), values: Object.fromEntries(values.map((v) => [v, { value: v }])) });
      this.enums.set(key, made);
    }
    return made;
  }

  private uniqueName(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.names.has(name); i++) name = `${wanted}${i}`;
    this.names.add(name);
    return name;
  }
}

/** `X | null` → X (nullability is the GraphQL default); anything else as it is. */
function nonNull(schema: TSchema): TSchema {
  if (schema[Kind] !== 'Union') return schema;
  const rest = (schema.anyOf as TSchema[]).filter((s) => s[Kind] !== 'Null');
  return rest.length === 1 && rest.length < (schema.anyOf as TSchema[]).length ? rest[0]! : schema;
}

/** Whether a schema admits null (`X | null`). */
function nullable(schema: TSchema): boolean {
  return schema[Kind] === 'Null' || (schema[Kind] === 'Union' && (schema.anyOf as TSchema[]).some((s) => s[Kind] === 'Null'));
}

/** The values of a union of string literals (`Null` aside), or undefined. */
function stringLiterals(schema: TSchema): string[] | undefined {
  const members = (schema.anyOf as TSchema[]).filter((s) => s[Kind] !== 'Null');
  return members.length > 0 && members.every((s) => s[Kind] === 'Literal' && typeof s.const === 'string') ? members.map((s) => s.const as string) : undefined;
}

/** An integer an answer carries fits 32 bits only when its bounds say so (GraphQL's Int refuses to serialise more). */
function fitsInt(schema: TSchema): boolean {
  return typeof schema.maximum === 'number' && schema.maximum <= INT32 && typeof schema.minimum === 'number' && schema.minimum >= -INT32;
}

/** An integer argument is an Int unless its bounds reach past 32 bits (one without bounds is clamped or checked by its REST schema). */
function fitsIntArgument(schema: TSchema): boolean {
  return (typeof schema.maximum !== 'number' || schema.maximum <= INT32) && (typeof schema.minimum !== 'number' || schema.minimum >= -INT32 - 1);
}

/**
 * The number of a query parameter's `t.Integer` / `t.Numeric`, which Elysia
 * declares as a union of the number and its decimal text (format `integer`
 * or `numeric`): the number's schema, or undefined for any other union.
 */
function numberOrItsText(schema: TSchema): TSchema | undefined {
  const members = schema.anyOf as TSchema[];
  if (members.length !== 2) return undefined;
  const text = members.find((m) => m[Kind] === 'String' && (m.format === 'integer' || m.format === 'numeric'));
  const number = members.find((m) => m[Kind] === 'Integer' || m[Kind] === 'Number');
  return text && number ? number : undefined;
}

function scalarOfLiteral(value: unknown) {
  return typeof value === 'boolean' ? GraphQLBoolean : typeof value === 'number' ? GraphQLFloat : GraphQLString;
}

/** A union of string literals (an enum of the REST schema) is a String. */
function literalUnion(schema: TSchema) {
  const members = (schema.anyOf as TSchema[]).filter((s) => s[Kind] !== 'Null');
  if (members.length > 0 && members.every((s) => s[Kind] === 'Literal' && typeof s.const === 'string')) return GraphQLString;
  if (members.length > 0 && members.every((s) => s[Kind] === 'String')) return GraphQLString;
  // A closed list of numbers (a vote of −1, 0 or +1): Int when every value is a 32-bit integer, else Float.
  if (members.length > 0 && members.every((s) => s[Kind] === 'Literal' && typeof s.const === 'number')) {
    return members.every((s) => Number.isInteger(s.const) && Math.abs(s.const as number) <= INT32) ? GraphQLInt : GraphQLFloat;
  }
  return undefined;
}

/** Whether a property of an object schema may be left out. */
export function isOptional(schema: TSchema): boolean {
  return schema[OptionalKind] === 'Optional';
}

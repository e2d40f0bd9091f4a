/**
 * @module modules/graphql/types
 * GraphQL types generated from the REST models' TypeBox schemas, so the two
 * interfaces cannot drift: an object schema becomes an object type (named by
 * its `title`, else by where it sits: `ParentField`), arrays lists, strings,
 * booleans and literal unions `String`/`Boolean`, numbers `Float` (an integer
 * that fits 32 bits `Int`), `X | null` a nullable `X`. What GraphQL cannot
 * type field by field — records, unions of objects, unknown — is the `JSON`
 * scalar, carrying the REST value as it is. Every field is nullable (a
 * GraphQL error nulls only its own field). An argument is typed as its
 * REST parameter (a number Elysia also takes as decimal text is `Int` or
 * `Float`, a closed list of strings `String`), then checked by that
 * parameter's schema. One `GraphQLTypes` per schema build holds the types
 * made so far (a schema object is typed once).
 *
 * @example
 * const types = new GraphQLTypes();
 * types.output(SnapshotResponse, 'Snapshot'); // => GraphQLObjectType 'Snapshot'
 */
import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
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
  private readonly names = new Set<string>();

  /** `extra(typeName)`: fields a type gets besides its REST ones (a signal's snapshot, say). */
  constructor(private readonly extra: Extra = () => undefined) {}

  /** The output type of `schema`; `name` names it when it is an object without a title. */
  output(schema: TSchema, name: string): GraphQLOutputType {
    const known = this.made.get(schema);
    if (known) return known;
    const type = this.build(schema, name);
    this.made.set(schema, type);
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
  input(schema: TSchema): GraphQLInputType {
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
        return number ? this.input(number) : (literalUnion(inner) ?? GraphQLJSON);
      }
      case 'Array': {
        const item = this.input(inner.items as TSchema);
        return item === GraphQLJSON ? GraphQLJSON : new GraphQLList(item);
      }
      default:
        return GraphQLJSON;
    }
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
      case 'Union':
        return literalUnion(schema) ?? GraphQLJSON;
      case 'Array':
        return new GraphQLList(this.output(schema.items as TSchema, name));
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
          const field: GraphQLFieldConfig<unknown, unknown> = { type: this.output(property, name + key[0]!.toUpperCase() + key.slice(1)) };
          if (typeof property.description === 'string') field.description = property.description;
          fields[key] = field;
        }
        return { ...fields, ...this.extra(name) };
      },
    });
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
  return undefined;
}

/** Whether a property of an object schema may be left out. */
export function isOptional(schema: TSchema): boolean {
  return schema[OptionalKind] === 'Optional';
}

/**
 * @module modules/graphql/schema
 * The one GraphQL schema over every service: a field per REST read and write
 * (graphql/operations, each under its REST route's row of the authorisation
 * table: auth/route-access), `signals` as a Relay connection over
 * /api/breakouts' ranking and `signal(id)` (graphql/signal-fields), and the
 * subscriptions fed by the event bus /api/stream reads
 * (graphql/subscriptions). Every type is derived from the REST models'
 * TypeBox schemas (graphql/types).
 */
import { Type, type TObject } from '@sinclair/typebox';
import { GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap } from 'graphql';
import { accessOf } from '../../auth';
import { SignalSchema } from '../../domain/signal';
import type { GraphQLContext } from './context';
import { graphQLError } from './errors';
import { describe, type Operation } from './operation';
import { MUTATIONS, QUERIES } from './operations';
import { signalExtraFields, signalQueryFields } from './signal-fields';
import { subscriptionFields } from './subscriptions';
import { GraphQLTypes } from './types';

/** A field's arguments; an object argument's input type is named `FieldArgInput` unless its schema has a title. */
function argsOf(types: GraphQLTypes, schema: TObject, field: string): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const [name, property] of Object.entries(schema.properties)) args[name] = types.argument(property, `${capitalised(field)}${capitalised(name)}Input`);
  return args;
}

const capitalised = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** A field's row of the authorisation table: its REST route's (auth/route-access), so both APIs apply one rule. */
async function run(op: Operation, ctx: GraphQLContext, raw: Record<string, unknown>): Promise<unknown> {
  try {
    // The credential before the input, as the REST route checks them.
    const access = accessOf(op.route);
    const principal = access ? await ctx.principal(access) : undefined;
    const result = await op.run(ctx, raw, principal!);
    // The REST answer as its JSON: dates as strings, nothing the route would not send.
    return op.plain ? result : JSON.parse(JSON.stringify(result));
  } catch (error) {
    throw graphQLError(error);
  }
}

/** A root field per operation, its result type named after the field (`suffix` for a mutation's). */
function operationFields(types: GraphQLTypes, operations: Readonly<Record<string, Operation>>, suffix = ''): GraphQLFieldConfigMap<unknown, GraphQLContext> {
  const fields: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  for (const [name, op] of Object.entries(operations)) {
    fields[name] = { type: types.output(op.result, capitalised(name) + suffix), description: describe(op), args: argsOf(types, op.args, name), resolve: (_root, raw, ctx) => run(op, ctx, raw) };
  }
  return fields;
}

/** The REST route of each root field that is not an operation's: `signals` reads /api/breakouts' ranking (`signal(id)` no route's). */
const OWN_FIELD_ROUTES: Readonly<Record<string, string>> = { signals: 'GET /api/breakouts' };

/** The REST route a root field stands for (`METHOD /path`), whose rate-limit class it takes, or undefined. */
export const fieldRoute = (field: string): string | undefined => (QUERIES[field] ?? MUTATIONS[field])?.route ?? OWN_FIELD_ROUTES[field];

export function buildSchema(): GraphQLSchema {
  const types: GraphQLTypes = new GraphQLTypes((name) => (name === 'Signal' ? (signalExtraFields(types) as GraphQLFieldConfigMap<unknown, unknown>) : undefined));
  const Signal = types.output(Type.Object(SignalSchema.properties, { title: 'Signal', description: SignalSchema.description }), 'Signal') as GraphQLObjectType;
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ...signalQueryFields(types, Signal), ...operationFields(types, QUERIES) } }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: operationFields(types, MUTATIONS, 'Result') }),
    subscription: new GraphQLObjectType({ name: 'Subscription', fields: subscriptionFields(types) }),
  });
}

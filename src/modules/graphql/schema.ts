/**
 * @module modules/graphql/schema
 * The one GraphQL schema over every service: a field per REST read
 * (graphql/operations), `signals` as a Relay connection over /api/breakouts'
 * ranking with filters, `signal(id)`, the account objects, mutations under
 * their REST writes' rows of the authorisation table (auth/route-access), and subscriptions fed by the event bus /api/stream reads. A signal's
 * `snapshot` and `earnings` go through the request's DataLoaders, so a page of
 * signals asks each symbol once.
 */
import { Type, type TObject } from '@sinclair/typebox';
import DataLoader from 'dataloader';
import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { Repeater } from 'graphql-yoga';
import { accessOf, type Principal, type RouteAccess } from '../../auth';
import { AlertDispatchedEvent, BreakoutNewEvent, StateChangeEvent } from '../../domain/events';
import { SignalSchema, type Signal } from '../../domain/signal';
import { AppError } from '../../errors';
import { DATA_EXCEPTION_MESSAGE, fromProvider } from '../../plugins/errors';
import { isDataException } from '../../db/data-errors';
import { ProviderError } from '../../providers/types';
import { readPage } from '../../pagination';
import type { Services } from '../../services';
import { ownerAlert } from '../../stream/visibility';
import type { Channel, BusEvents } from '../../stream/bus';
import { earnings } from '../fundamentals/service';
import { EarningsResponse } from '../fundamentals/model';
import { SnapshotResponse } from '../market/model';
import { snapshot } from '../market/service';
import { SIGNAL_ID_PATTERN } from '../../domain/signal-id';
import { BreakoutsQuery } from '../signals/model';
import { rankedSignals } from '../signals/service';
import { badInput, checkedArgs, describe, type Operation, type OperationContext } from './operation';
import { MUTATIONS, QUERIES } from './operations';
import { GraphQLTypes } from './types';

/** Per request: the services, the request (its credential), the API version, the loaders. */
export interface GraphQLContext extends OperationContext {
  request: Request;
  /** The principal a row of the authorisation table admits, or throws (UNAUTHENTICATED / FORBIDDEN). */
  principal(access: RouteAccess): Promise<Principal>;
  /** The caller's principal when it sent a valid credential (cost limits, subscriptions). */
  caller: Principal | null;
  loaders: Loaders;
}

/** A request's batching: each symbol's snapshot and earnings asked once, whatever the number of signals. */
export interface Loaders {
  snapshot: DataLoader<string, unknown>;
  earnings: DataLoader<string, unknown>;
}

export function createLoaders(services: Services): Loaders {
  const each = (load: (symbol: string) => Promise<unknown>) =>
    new DataLoader<string, unknown>((symbols) => Promise.all(symbols.map((s) => load(s).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))))));
  return {
    snapshot: each((symbol) => snapshot(services.marketData, symbol)),
    earnings: each((symbol) => earnings(services.marketData, symbol, readPage({}))),
  };
}

/** The GraphQL error codes an AppError maps to (`extensions.code`), besides its own code upper-cased. */
const CODES: Partial<Record<AppError['code'], string>> = {
  invalid_parameter: 'BAD_USER_INPUT',
  invalid_body: 'BAD_USER_INPUT',
  unauthorized: 'UNAUTHENTICATED',
  invalid_authorization: 'UNAUTHENTICATED',
  invalid_key: 'UNAUTHENTICATED',
  revoked_key: 'UNAUTHENTICATED',
  expired_session: 'UNAUTHENTICATED',
  invalid_session: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  insufficient_scope: 'FORBIDDEN',
};

/** An AppError (or a provider failure, or a value the database refused, as plugins/errors maps them) as a GraphQL error: `extensions.code` and the REST status; anything else stays for yoga to mask. */
export function graphQLError(thrown: unknown): unknown {
  const error = thrown instanceof ProviderError ? fromProvider(thrown) : isDataException(thrown) ? new AppError('invalid_parameter', DATA_EXCEPTION_MESSAGE) : thrown;
  if (!(error instanceof AppError)) return error;
  // `reason`: the REST code where the GraphQL one is coarser (which refusal, which missing scope).
  const code = CODES[error.code];
  return new GraphQLError(error.message, { extensions: { code: code ?? error.code.toUpperCase(), status: error.status, ...(code && code !== 'BAD_USER_INPUT' ? { reason: error.code } : {}) } });
}

function argsOf(types: GraphQLTypes, schema: TObject): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const [name, property] of Object.entries(schema.properties)) args[name] = types.argument(property);
  return args;
}

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

const SIGNAL_FIRST_MAX = 100;
const SIGNAL_FIRST_DEFAULT = 20;
/** The subscription to the caller's own dispatched alerts needs what listing their alert rules needs. */
const ALERT_RULES_ROUTE = 'GET /api/alerts/v2';

/** A signal id as /api/explain takes it (printable: PostgreSQL refuses NUL in text). */
const SignalIdArgs = Type.Object({
  id: Type.String({
    maxLength: 120,
    pattern: SIGNAL_ID_PATTERN,
    description: 'SYMBOL-pattern-detectedAt, as /api/breakouts lists it',
    error: "Argument 'id' must be a signal id SYMBOL-pattern-detectedAt (e.g. AAPL-flat_base-2026-11-18T21:00:00.000Z)",
  }),
});

/** Offset cursors, opaque to the client. */
const cursorOf = (index: number) => Buffer.from(`signal:${index}`).toString('base64url');
function offsetOf(cursor: string): number {
  const match = /^signal:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new GraphQLError(`Argument 'after' is not a cursor this connection gave`, { extensions: { code: 'BAD_USER_INPUT', status: 400 } });
  return Number(match[1]) + 1;
}

/** The REST route of each root field that is not an operation's: `signals` reads /api/breakouts' ranking (`signal(id)` no route's). */
const OWN_FIELD_ROUTES: Readonly<Record<string, string>> = { signals: 'GET /api/breakouts' };

/** The REST route a root field stands for (`METHOD /path`), whose rate-limit class it takes, or undefined. */
export const fieldRoute = (field: string): string | undefined => (QUERIES[field] ?? MUTATIONS[field])?.route ?? OWN_FIELD_ROUTES[field];

export function buildSchema(): GraphQLSchema {
  const types = new GraphQLTypes((name) => {
    if (name !== 'Signal') return undefined;
    return {
      snapshot: {
        type: types.output(SnapshotResponse, 'Snapshot'),
        description: "GET /api/snapshot of the signal's symbol (batched per request)",
        resolve: (signal: Signal, _args: unknown, ctx: GraphQLContext) => ctx.loaders.snapshot.load(signal.symbol).then((v) => JSON.parse(JSON.stringify(v)), (e: unknown) => Promise.reject(graphQLError(e))),
      },
      earnings: {
        type: types.output(EarningsResponse, 'Earnings'),
        description: "GET /api/earnings of the signal's symbol, first page (batched per request)",
        resolve: (signal: Signal, _args: unknown, ctx: GraphQLContext) => ctx.loaders.earnings.load(signal.symbol).then((v) => JSON.parse(JSON.stringify(v)), (e: unknown) => Promise.reject(graphQLError(e))),
      },
    } as GraphQLFieldConfigMap<unknown, unknown>;
  });
  const Signal = types.output(Type.Object(SignalSchema.properties, { title: 'Signal', description: SignalSchema.description }), 'Signal') as GraphQLObjectType;

  const PageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    fields: { hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) }, hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean) }, startCursor: { type: GraphQLString }, endCursor: { type: GraphQLString } },
  });
  const SignalEdge = new GraphQLObjectType({ name: 'SignalEdge', fields: { cursor: { type: new GraphQLNonNull(GraphQLString) }, node: { type: new GraphQLNonNull(Signal) } } });
  const SignalConnection = new GraphQLObjectType({
    name: 'SignalConnection',
    fields: { edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(SignalEdge))) }, pageInfo: { type: new GraphQLNonNull(PageInfo) }, totalCount: { type: new GraphQLNonNull(GraphQLInt) } },
  });

  const queryFields: GraphQLFieldConfigMap<unknown, GraphQLContext> = {
    signals: {
      type: new GraphQLNonNull(SignalConnection),
      description:
        "The signals of GET /api/breakouts (the latest persisted run, or a replay at asOf; symbols outside the universe scanned on demand) in its ranking, filtered by pattern, band and state, as a Relay connection (first ≤ 100, default 20; after: an endCursor).",
      args: {
        symbols: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)) },
        timeframe: types.argument(BreakoutsQuery.properties.timeframe),
        asOf: { ...types.argument(BreakoutsQuery.properties.asOf), description: 'YYYY-MM-DD: a replay with only the bars up to it' },
        pattern: { type: GraphQLString, description: 'Only this patternType' },
        band: { type: GraphQLString, description: 'Only this scoreBand' },
        state: { type: GraphQLString, description: 'Only this breakoutState' },
        first: { type: GraphQLInt, defaultValue: SIGNAL_FIRST_DEFAULT },
        after: { type: GraphQLString },
      },
      resolve: async (_root, args: { symbols?: string[]; timeframe?: string; asOf?: string; pattern?: string; band?: string; state?: string; first?: number; after?: string }, ctx) => {
        try {
          const query = checkedArgs(BreakoutsQuery, { symbols: args.symbols?.join(','), timeframe: args.timeframe, asOf: args.asOf });
          const first = args.first ?? SIGNAL_FIRST_DEFAULT;
          if (first < 0 || first > SIGNAL_FIRST_MAX) throw new GraphQLError(`Argument 'first' must be an integer from 0 to ${SIGNAL_FIRST_MAX}`, { extensions: { code: 'BAD_USER_INPUT', status: 400 } });
          const start = args.after ? offsetOf(args.after) : 0;
          const all = (await rankedSignals(ctx.services, query)).filter(
            (s) => (!args.pattern || s.patternType === args.pattern) && (!args.band || s.scoreBand === args.band) && (!args.state || s.breakoutState === args.state),
          );
          const page = all.slice(start, start + first);
          const edges = page.map((node, i) => ({ cursor: cursorOf(start + i), node }));
          return {
            edges,
            totalCount: all.length,
            pageInfo: { hasNextPage: start + first < all.length, hasPreviousPage: start > 0, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
          };
        } catch (error) {
          throw graphQLError(error);
        }
      },
    },
    signal: {
      type: Signal,
      description: 'A persisted signal by id, as the last run that listed it saw it (its state now); null when none was ever surfaced',
      args: { id: { type: new GraphQLNonNull(GraphQLString), description: SignalIdArgs.properties.id.description } },
      resolve: async (_root, raw: { id: string }, ctx) => {
        try {
          const { id } = checkedArgs(SignalIdArgs, raw);
          return (await ctx.services.scans.findSignal(id))?.signal ?? null;
        } catch (error) {
          throw graphQLError(error);
        }
      },
    },
  };
  for (const [name, op] of Object.entries(QUERIES)) {
    queryFields[name] = { type: types.output(op.result, name[0]!.toUpperCase() + name.slice(1)), description: describe(op), args: argsOf(types, op.args), resolve: (_root, raw, ctx) => run(op, ctx, raw) };
  }
  const mutationFields: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  for (const [name, op] of Object.entries(MUTATIONS)) {
    mutationFields[name] = { type: types.output(op.result, name[0]!.toUpperCase() + name.slice(1) + 'Result'), description: describe(op), args: argsOf(types, op.args), resolve: (_root, raw, ctx) => run(op, ctx, raw) };
  }

  const subscription = <C extends Channel>(channel: C, filter: (payload: BusEvents[C], ctx: GraphQLContext) => unknown | undefined) => ({
    subscribe: (_root: unknown, _args: unknown, ctx: GraphQLContext) =>
      new Repeater<unknown>(async (push, stop) => {
        await ctx.services.bus.open(1, 1);
        const off = ctx.services.bus.subscribe(channel, (payload) => {
          const shown = filter(payload, ctx);
          if (shown !== undefined) void push(JSON.parse(JSON.stringify(shown)));
        });
        await stop;
        off();
      }),
    resolve: (payload: unknown) => payload,
  });
  const subscriptionFields: GraphQLFieldConfigMap<unknown, GraphQLContext> = {
    breakoutNew: { type: types.output(BreakoutNewEvent, 'BreakoutNewEvent'), description: 'breakouts.new, as GET /api/stream sends it', ...subscription('breakouts.new', (p) => p) },
    breakoutStateChange: { type: types.output(StateChangeEvent, 'StateChangeEvent'), description: 'breakouts.state_change, as GET /api/stream sends it', ...subscription('breakouts.state_change', (p) => p) },
    alertDispatched: {
      type: types.output(AlertDispatchedEvent, 'AlertDispatchedEvent'),
      description: "alerts.dispatched of the caller's own rules (with the rule), as its owner's /api/stream sends them; needs a credential",
      ...subscription('alerts.dispatched', (p, ctx) => (p.userId !== undefined && p.userId === ctx.caller?.userId ? ownerAlert(p) : undefined)),
    },
  };
  const alertSubscribe = subscriptionFields.alertDispatched!.subscribe!;
  subscriptionFields.alertDispatched!.subscribe = async (root, args, ctx, info) => {
    try {
      await ctx.principal(accessOf(ALERT_RULES_ROUTE)!);
    } catch (error) {
      throw graphQLError(error);
    }
    return alertSubscribe(root, args, ctx, info);
  };

  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: queryFields }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutationFields }),
    subscription: new GraphQLObjectType({ name: 'Subscription', fields: subscriptionFields }),
  });
}

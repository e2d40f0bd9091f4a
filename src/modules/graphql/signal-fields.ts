/**
 * @module modules/graphql/signal-fields
 * The GraphQL fields of signals beyond their REST answers: a `Signal`'s
 * `snapshot` and `earnings` (through the request's DataLoaders), `signals` as
 * a Relay connection over /api/breakouts' ranking (filtered by pattern, band
 * and state; offset cursors, opaque to the client) and `signal(id)`.
 */
import { Type } from '@sinclair/typebox';
import { GraphQLBoolean, GraphQLError, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import type { Signal } from '../../domain/signal';
import { SIGNAL_ID_PATTERN } from '../../domain/signal-id';
import { EarningsResponse } from '../fundamentals/model';
import { SnapshotResponse } from '../market/model';
import { BreakoutsQuery } from '../signals/model';
import { rankedSignals } from '../signals/service';
import type { GraphQLContext } from './context';
import { graphQLError } from './errors';
import { checkedArgs } from './operation';
import type { GraphQLTypes } from './types';

const SIGNAL_FIRST_MAX = 100;
const SIGNAL_FIRST_DEFAULT = 20;

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

/** A signal's own REST value through a loader, as its JSON. */
const loaded = (load: Promise<unknown>) => load.then((v) => JSON.parse(JSON.stringify(v)), (e: unknown) => Promise.reject(graphQLError(e)));

/** The fields a `Signal` gets besides its REST ones. */
export function signalExtraFields(types: GraphQLTypes): GraphQLFieldConfigMap<Signal, GraphQLContext> {
  return {
    snapshot: {
      type: types.output(SnapshotResponse, 'Snapshot'),
      description: "GET /api/snapshot of the signal's symbol (batched per request)",
      resolve: (signal, _args, ctx) => loaded(ctx.loaders.snapshot.load(signal.symbol)),
    },
    earnings: {
      type: types.output(EarningsResponse, 'Earnings'),
      description: "GET /api/earnings of the signal's symbol, first page (batched per request)",
      resolve: (signal, _args, ctx) => loaded(ctx.loaders.earnings.load(signal.symbol)),
    },
  };
}

/** The `signals` connection's arguments as GraphQL hands them over. */
interface SignalsArgs {
  symbols?: string[];
  timeframe?: string;
  asOf?: string;
  pattern?: string;
  band?: string;
  state?: string;
  first?: number;
  after?: string;
}

/** One page of the connection: /api/breakouts' ranking, filtered, from the cursor. */
async function signalPage(ctx: GraphQLContext, args: SignalsArgs) {
  const query = checkedArgs(BreakoutsQuery, { symbols: args.symbols?.join(','), timeframe: args.timeframe, asOf: args.asOf });
  const first = args.first ?? SIGNAL_FIRST_DEFAULT;
  if (first < 0 || first > SIGNAL_FIRST_MAX) throw new GraphQLError(`Argument 'first' must be an integer from 0 to ${SIGNAL_FIRST_MAX}`, { extensions: { code: 'BAD_USER_INPUT', status: 400 } });
  const start = args.after ? offsetOf(args.after) : 0;
  const all = (await rankedSignals(ctx.services, query)).filter((s) => (!args.pattern || s.patternType === args.pattern) && (!args.band || s.scoreBand === args.band) && (!args.state || s.breakoutState === args.state));
  const edges = all.slice(start, start + first).map((node, i) => ({ cursor: cursorOf(start + i), node }));
  return {
    edges,
    totalCount: all.length,
    pageInfo: { hasNextPage: start + first < all.length, hasPreviousPage: start > 0, startCursor: edges[0]?.cursor ?? null, endCursor: edges.at(-1)?.cursor ?? null },
  };
}

/** The Relay types of the connection over `Signal`. */
function connectionOf(Signal: GraphQLObjectType): GraphQLObjectType {
  const PageInfo = new GraphQLObjectType({
    name: 'PageInfo',
    fields: { hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) }, hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean) }, startCursor: { type: GraphQLString }, endCursor: { type: GraphQLString } },
  });
  const SignalEdge = new GraphQLObjectType({ name: 'SignalEdge', fields: { cursor: { type: new GraphQLNonNull(GraphQLString) }, node: { type: new GraphQLNonNull(Signal) } } });
  return new GraphQLObjectType({
    name: 'SignalConnection',
    fields: { edges: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(SignalEdge))) }, pageInfo: { type: new GraphQLNonNull(PageInfo) }, totalCount: { type: new GraphQLNonNull(GraphQLInt) } },
  });
}

/** The root fields `signals` and `signal(id)`. */
export function signalQueryFields(types: GraphQLTypes, Signal: GraphQLObjectType): GraphQLFieldConfigMap<unknown, GraphQLContext> {
  return {
    signals: {
      type: new GraphQLNonNull(connectionOf(Signal)),
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
      resolve: (_root, args: SignalsArgs, ctx) => signalPage(ctx, args).catch((error: unknown) => Promise.reject(graphQLError(error))),
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
}

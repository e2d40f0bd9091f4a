/**
 * @module domain/replay
 * The point-in-time replay's shared types, as TypeBox schemas (the schema is
 * the type; a replay run's stored JSON is read back through them): what a
 * replay is asked for, the universe it scanned and what that means for
 * survivorship bias, and the per-symbol book a replay carries from one chunk
 * of sessions to the next (and that an interrupted replay resumes from).
 */
import { Type, type Static } from '@sinclair/typebox';
import { BREAKOUT_STATES, DIRECTIONS, SignalRecordSchema, TIMEFRAMES, literalUnion } from './signal';

/** Which symbols a replay scans at each session. */
export const UniverseSpecSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('default') }, { description: "today's S&P 500 and Nasdaq-100 members the provider serves, at every date" }),
    Type.Object({ kind: Type.Literal('sp500') }, { description: 'the S&P 500 as it was at each date (point-in-time membership)' }),
    Type.Object({ kind: Type.Literal('symbols'), symbols: Type.Array(Type.String(), { minItems: 1 }) }, { description: 'a fixed list' }),
  ],
  { title: 'ReplayUniverseSpec' },
);
export type UniverseSpec = Static<typeof UniverseSpecSchema>;

/** What a replay is asked for. */
export const ReplayParamsSchema = Type.Object(
  {
    timeframe: literalUnion(TIMEFRAMES),
    /** First and last session date (YYYY-MM-DD), inclusive. */
    from: Type.String(),
    to: Type.String(),
    universe: UniverseSpecSchema,
    benchmark: Type.String(),
  },
  { title: 'ReplayParams' },
);
export type ReplayParams = Static<typeof ReplayParamsSchema>;

/** The universe a replay scanned, and whether its results carry survivorship bias, in words. */
export const UniverseDescriptionSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('default'), Type.Literal('sp500'), Type.Literal('symbols')]),
    /** Where the membership came from (point-in-time), or how the list was chosen. */
    membership: Type.String(),
    /** Symbols scanned at some session. */
    symbols: Type.Integer(),
    /** Index members over the range that the data source has no bars for (point-in-time only). */
    membersWithoutData: Type.Integer(),
    /** Smallest share of a session's members that had bars (1 when every member did). */
    minCoverage: Type.Number(),
    survivorshipBias: Type.Boolean(),
    /** What the bias (or its absence) means for the figures, for a reader. */
    survivorshipNote: Type.String(),
  },
  { title: 'ReplayUniverse' },
);
export type UniverseDescription = Static<typeof UniverseDescriptionSchema>;

const StateEventSchema = Type.Object({ to: literalUnion(BREAKOUT_STATES), price: Type.Number(), at: Type.String() });

const LifecycleSnapshotSchema = Type.Object({
  state: literalUnion(BREAKOUT_STATES),
  direction: literalUnion(DIRECTIONS),
  trigger: Type.Number(),
  target1: Type.Number(),
  stopLoss: Type.Number(),
  /** kernels/lifecycle `failLevel`: absent on books stored before failure rules existed. */
  failLevel: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  barsSinceDetection: Type.Integer(),
  holdBars: Type.Integer(),
  holdVolumeRatioSum: Type.Number(),
});

const TransitionSchema = Type.Object({ from: literalUnion(BREAKOUT_STATES), to: literalUnion(BREAKOUT_STATES), ts: Type.Number(), price: Type.Number() });

/** A signal a replay surfaced and still follows (its state, its changes, its tracked lifecycle, whether its outcome is settled). */
export const BookSignalSchema = Type.Object({
  record: SignalRecordSchema,
  state: literalUnion(BREAKOUT_STATES),
  events: Type.Array(StateEventSchema),
  patternEndTs: Type.Number(),
  /** The failure level it was surfaced with (kernels/lifecycle); absent on books stored before failure rules existed. */
  failLevel: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  detectedTs: Type.Number(),
  track: Type.Optional(Type.Object({ snapshot: LifecycleSnapshotSchema, transitions: Type.Array(TransitionSchema), through: Type.Number() })),
  outcome: Type.Union([Type.Literal('pending'), Type.Literal('resolved'), Type.Literal('unresolvable')]),
});
export type BookSignal = Static<typeof BookSignalSchema>;

/** What a symbol's earlier sessions left behind: the signals still followed, and its alert log within the cooldown. */
export const SymbolBookSchema = Type.Object({ signals: Type.Array(BookSignalSchema), alerts: Type.Array(Type.Object({ id: Type.String(), ts: Type.Number() })) });
export type SymbolBook = Static<typeof SymbolBookSchema>;

/** Every symbol's book, by symbol. */
export const BooksSchema = Type.Record(Type.String(), SymbolBookSchema);
export type Books = Static<typeof BooksSchema>;

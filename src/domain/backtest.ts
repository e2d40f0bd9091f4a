/**
 * @module domain/backtest
 * The shapes of a walk-forward backtest every layer shares: the effective
 * inputs, the spec's WalkForwardResponse (single symbol or universe) and the
 * universe job resource. TypeBox schemas whose static types are the types;
 * jobs/backtest fills them, modules/backtest documents and serves them, and
 * the job table's JSON comes back through them (domain/check).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { literalUnion, PATTERN_TYPES, SCORE_BANDS } from './signal';

export const BACKTEST_MONTHS = [1, 3, 6] as const;
export const BACKTEST_UNIVERSES = ['sp500', 'nasdaq100'] as const;
export type BacktestUniverse = (typeof BACKTEST_UNIVERSES)[number];
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const Num = (description?: string) => Type.Number({ description });
const Int = (description?: string) => Type.Integer({ description });
const Nullable = (description?: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Day = (description?: string) => Type.String({ format: 'date', description });
const Band = literalUnion(SCORE_BANDS);
const BandFloor = literalUnion(['watchlist', 'strong', 'elite'] as const);
/** An object with a member per pattern type that has data (every member optional). */
const PatternKeyed = <S extends TSchema>(schema: S, description: string) => Type.Partial(Type.Record(literalUnion(PATTERN_TYPES), schema), { description });

/** The effective inputs of a run: the request after defaults, with units. */
export const BacktestConfigSchema = Type.Object(
  {
    timeframe: Type.Literal('daily'),
    months: literalUnion(BACKTEST_MONTHS, { description: 'Length of the evaluated period (the test windows), in calendar months up to the last bar' }),
    train: Int('Bars in each training window'),
    test: Int('Bars in each test window'),
    purge: Int('Bars left out between a training window and its test window'),
    embargo: Int('Bars skipped after each test window before the next one'),
    hold: Int('Time stop: bars after the entry bar'),
    commission: Num('US dollars per share, charged on the entry and again on the exit'),
    slippage: Num('Basis points of the price, charged on every fill against the trade'),
    capital: Num('Starting equity in US dollars'),
    maxPositions: Int('Positions open at once; each gets equity ÷ maxPositions at entry'),
    minTrainTrades: Int('Training trades needed to judge a band floor or a pattern'),
    trials: Type.Union([Type.Integer(), Type.Null()], { description: 'Trials the deflated Sharpe ratio was told of (null: the configurations this run traded)' }),
  },
  { title: 'BacktestConfig' },
);
export type BacktestConfig = Static<typeof BacktestConfigSchema>;

export const MetricsSchema = Type.Object(
  {
    totalReturn: Nullable('Π(1 + r) − 1 over the test bars'),
    annualizedReturn: Nullable('(1 + totalReturn)^(252 / bars) − 1'),
    sharpe: Nullable('Annualised: mean / sd of daily returns × √252'),
    sortino: Nullable('Annualised, downside deviation below 0 (Sortino & Price 1994)'),
    maxDrawdown: Nullable('Largest fall from a peak of equity, a fraction'),
    winRate: Nullable('Trades with net P&L > 0 ÷ trades'),
    profitFactor: Nullable('Σ winning ÷ |Σ losing| net P&L; null without losers'),
    expectancyR: Nullable('Mean net R per trade'),
    exposure: Nullable('Share of test bars with a position held'),
    tradeCount: Int(),
    bars: Int('Test bars evaluated'),
    psr: Nullable('Probabilistic Sharpe ratio PSR(0): probability that the true Sharpe ratio is above 0 (Bailey & López de Prado 2012)'),
  },
  { title: 'BacktestMetrics' },
);
export type BacktestMetrics = Static<typeof MetricsSchema>;

export const DeflatedSharpeSchema = Type.Object(
  {
    value: Nullable('DSR = PSR(SR₀) (Bailey & López de Prado 2014)'),
    trials: Int('N, the number of trials deflated for'),
    trialsSource: literalUnion(['variants', 'request'] as const, { description: '`variants`: the learned strategy and the three fixed band floors this run traded; `request`: the `trials` parameter' }),
    trialSharpeVariance: Num('V, the variance of the trials’ daily Sharpe ratios'),
    expectedMaxSharpe: Num('SR₀, the expected maximum daily Sharpe ratio of N unskilled trials'),
    dailySharpe: Num('The strategy’s daily Sharpe ratio'),
  },
  { title: 'DeflatedSharpe' },
);

export const TradeSchema = Type.Object(
  {
    symbol: Type.String(),
    patternType: Type.String(),
    patternFamily: Type.String(),
    direction: literalUnion(['long', 'short'] as const),
    band: Band,
    finalScore: Num('The score at the signal bar'),
    signalDate: Day('The bar whose scan listed the setup'),
    entryDate: Day(),
    entryKind: literalUnion(['stop', 'open'] as const, { description: '`stop`: a stop order at the trigger; `open`: a market order at the open (setup first seen on its breakout bar)' }),
    entryPrice: Num('After slippage'),
    trigger: Num(),
    stopLoss: Num(),
    target1: Num(),
    exitDate: Day(),
    exitPrice: Num('After slippage'),
    exitReason: literalUnion(['target', 'stop', 'time', 'window_end', 'end_of_data'] as const),
    barsHeld: Int(),
    shares: Int(),
    pnl: Num('Net US dollars after slippage and commission both ways'),
    r: Num('Net R: net dollars per share ÷ (entry − stop)'),
  },
  { title: 'BacktestTrade' },
);
export type BacktestTrade = Static<typeof TradeSchema>;

const Window = Type.Object({ from: Day(), to: Day(), bars: Int() });

export const FoldSchema = Type.Object(
  {
    index: Int(),
    train: Window,
    purge: Type.Union([Window, Type.Null()]),
    test: Type.Composite([Window, Type.Object({ partial: Type.Boolean({ description: 'Shorter than `test`: the data ends' }) })]),
    embargo: Type.Union([Window, Type.Null()]),
    model: Type.Object(
      {
        minBand: Type.Union([BandFloor, Type.Null()], { description: 'Lowest band traded; null: stood aside' }),
        minBandReason: Type.String(),
        thresholds: Type.Array(Type.Object({ band: BandFloor, trades: Int(), meanR: Nullable() })),
        patterns: PatternKeyed(
          Type.Object({ trades: Int(), wins: Int(), hitRate: Num(), breakEvenHitRate: Nullable(), traded: Type.Boolean() }),
          'Per pattern in training: hit rate, break-even hit rate L / (W + L), and whether it is traded',
        ),
        trainingTrades: Int('Candidates that entered in the train window and exited before the test window'),
        purgedTrades: Int('Candidates that entered in the train window but were dropped: their exit reached the test window'),
      },
      { description: 'What this fold learned from its training window only' },
    ),
    candidates: Int('Test-window candidates'),
    picked: Int('Of them, those the model took (before the position limit)'),
    tradeCount: Int(),
    trades: Type.Array(TradeSchema),
    metrics: MetricsSchema,
  },
  { title: 'BacktestFold' },
);

export const GroupStatsSchema = Type.Object({
  candidates: Int('Test-window candidates (taken or not)'),
  taken: Int(),
  wins: Int(),
  winRate: Nullable(),
  expectancyR: Nullable(),
  totalR: Num(),
  profitFactorR: Nullable(),
});

const BuyAndHoldSchema = Type.Object({
  symbol: Type.String(),
  totalReturn: Nullable(),
  annualizedReturn: Nullable(),
  sharpe: Nullable(),
  maxDrawdown: Nullable(),
});

export const UniverseSummarySchema = Type.Object(
  {
    name: Type.String({ description: '`sp500`, `nasdaq100` or `symbols` (a list)' }),
    requested: Int(),
    tested: Int(),
    skipped: Type.Array(Type.Object({ symbol: Type.String(), reason: Type.String() })),
    perSymbol: Type.Array(
      Type.Object({ symbol: Type.String(), candidates: Int(), taken: Int(), totalR: Num(), pnl: Num() }),
      { description: 'Every tested symbol with a candidate, by taken trades then candidates' },
    ),
  },
  { title: 'BacktestUniverse' },
);

export const WalkForwardResponseSchema = Type.Object(
  {
    symbol: Type.String({ description: 'The symbol, or the universe’s name for a universe run' }),
    benchmark: Type.String(),
    range: literalUnion(['1mo', '3mo', '6mo'] as const),
    period: Type.Object({ from: Day(), to: Day(), bars: Int('Test bars') }, { description: 'The evaluated period: first and last test bar' }),
    config: BacktestConfigSchema,
    folds: Type.Array(FoldSchema),
    metrics: Type.Composite([MetricsSchema, Type.Object({ deflatedSharpe: Type.Union([DeflatedSharpeSchema, Type.Null()]) })]),
    tradeCount: Int(),
    refused: Type.Object(
      { position_limit: Int(), symbol_held: Type.Integer(), too_small: Type.Integer() },
      { description: 'Picked trades the account could not take: the position limit, the symbol already held, or under one share' },
    ),
    equity: Type.Array(Type.Object({ date: Day(), equity: Num() }), { description: 'Equity at the close of every test bar' }),
    benchmarks: Type.Object(
      { symbol: Type.Optional(BuyAndHoldSchema), benchmark: BuyAndHoldSchema, universeEqualWeight: Type.Optional(BuyAndHoldSchema) },
      { description: 'Buy-and-hold over the same test bars (close to close, flat between windows, no costs)' },
    ),
    scoreBands: Type.Record(Band, GroupStatsSchema, { description: 'Every test-window candidate by its band, out of sample: do higher bands do better?' }),
    bandMonotonicity: Type.Object({ verdict: Type.String(), meanRRho: Nullable(), sentence: Type.String() }),
    patterns: PatternKeyed(Type.Composite([GroupStatsSchema, Type.Object({ foldsExcluded: Int() })]), 'Every test-window candidate by pattern, and the folds whose training excluded it'),
    variants: Type.Array(Type.Object({ name: Type.String(), trades: Int(), sharpe: Nullable(), totalReturn: Nullable() }), { description: 'The trials of the deflated Sharpe ratio' }),
    universe: Type.Optional(UniverseSummarySchema),
    method: Type.Record(Type.String(), Type.String()),
    data: Type.Object({ source: Type.String(), symbols: Int(), firstBar: Day(), lastBar: Day() }),
    dataFingerprint: Type.String({ description: 'SHA-256 over the bars read (each series’ six columns up to the last bar) and the effective inputs: the same fingerprint gives the same numbers' }),
    disclaimer: Type.String(),
  },
  { title: 'WalkForwardResponse' },
);
export type WalkForwardResponse = Static<typeof WalkForwardResponseSchema>;

export const JobProgressSchema = Type.Object({
  phase: Type.String({ description: '`queued`, `loading`, `cross-section`, `scanning`, `evaluating`, `done`' }),
  done: Int(),
  total: Int(),
});
export type JobProgress = Static<typeof JobProgressSchema>;

export const BacktestJobSchema = Type.Object(
  {
    id: Type.String(),
    status: literalUnion(JOB_STATUSES),
    progress: JobProgressSchema,
    request: Type.Object({ symbols: Type.Array(Type.String()), universe: Type.Union([Type.String(), Type.Null()]), benchmark: Type.String(), config: BacktestConfigSchema }),
    result: Type.Union([WalkForwardResponseSchema, Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'BacktestJob' },
);
export type BacktestJob = Static<typeof BacktestJobSchema>;

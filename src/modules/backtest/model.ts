/**
 * @module modules/backtest/model
 * Schemas of the Backtest tag: the walk-forward inputs (query parameters on
 * GET and POST; the same fields in an optional JSON body on POST), the
 * answers (domain/backtest) and the OpenAPI text.
 */
import { t, type Static } from 'elysia';
import { BACKTEST_UNIVERSES, BacktestJobSchema, WalkForwardResponseSchema } from '../../domain/backtest';
import { DEFAULT_BENCHMARK } from '../../providers/universe';
import { intParam, numberParam, oneOf, SYMBOL_PATTERN, symbolParam } from '../shared/params';

/** The spec's "fixed example ticker". */
export const DEFAULT_SYMBOL = 'AAPL';
/** Largest POST body: a 600-symbol list is about 8 KB. */
export const BODY_LIMIT_BYTES = 65_536;
/** Most symbols a `symbols` list may hold. */
export const MAX_SYMBOLS = 600;
/** maxPositions when not given: one position for a single symbol, ten for a universe. */
export const DEFAULT_POSITIONS = { single: 1, universe: 10 } as const;

const SYMBOL_LIST_PATTERN = `^${SYMBOL_PATTERN.slice(1, -1)}(,${SYMBOL_PATTERN.slice(1, -1)}){0,${MAX_SYMBOLS - 1}}$`;

/** The numeric inputs: [name, min, max, default, description]; one table for the query and the body. */
const LIMITS = {
  train: [10, 2000, 60, 'Bars in each training window'],
  test: [1, 500, 20, 'Bars in each test window'],
  purge: [0, 250, 2, 'Bars left out between a training window and its test window (López de Prado’s purge)'],
  embargo: [0, 250, 2, 'Bars skipped after each test window before the next one (López de Prado’s embargo)'],
  hold: [1, 250, 20, 'Time stop: a trade still open this many bars after its entry bar exits at that close'],
} as const;
const MONEY = {
  commission: [0, 1, 0.005, 'Commission in US dollars per share, charged on the entry and again on the exit'],
  slippage: [0, 500, 5, 'Slippage in basis points of the price, charged on every fill against the trade'],
  capital: [1000, 1e10, 100_000, 'Starting equity in US dollars'],
} as const;

/**
 * The evaluated periods (the spec's `months` enum 1, 3, 6): one type, an
 * integer, in the query and in the body (issue 31: it was a string enum in
 * the query and an integer one in the body). On the wire a query's `months=6`
 * is the same either way, so every request sent before still reads the same.
 */
export const MONTHS = [1, 3, 6] as const;
export const MONTHS_ERROR = "Query parameter 'months' must be 1, 3 or 6";
const MONTHS_DOCS = 'Length of the evaluated period (the test windows), in calendar months up to the last bar: 1, 3 or 6 (an integer); default 6';

export const WalkForwardQuery = t.Object({
  symbol: symbolParam('symbol', DEFAULT_SYMBOL, 'The symbol to backtest (ignored by a universe run)'),
  benchmark: symbolParam('benchmark', DEFAULT_BENCHMARK, 'The broad-market benchmark: the market regime of the scores and a buy-and-hold comparison'),
  // An integer with its enum (TypeBox checks no `enum` on an integer: service's requestOf refuses another value, with this error);
  // a union of literals would check it here, but Elysia's document generator drops a union's default and description.
  months: t.Integer({ enum: [...MONTHS], default: 6, description: MONTHS_DOCS, error: MONTHS_ERROR }),
  train: intParam('train', ...LIMITS.train),
  test: intParam('test', ...LIMITS.test),
  purge: intParam('purge', ...LIMITS.purge),
  embargo: intParam('embargo', ...LIMITS.embargo),
  hold: intParam('hold', ...LIMITS.hold),
  commission: numberParam('commission', { minimum: MONEY.commission[0], maximum: MONEY.commission[1] }, MONEY.commission[2], MONEY.commission[3]),
  slippage: numberParam('slippage', { minimum: MONEY.slippage[0], maximum: MONEY.slippage[1] }, MONEY.slippage[2], MONEY.slippage[3]),
  capital: numberParam('capital', { minimum: MONEY.capital[0], maximum: MONEY.capital[1] }, MONEY.capital[2], MONEY.capital[3]),
  maxPositions: t.Optional(
    t.Integer({ minimum: 1, maximum: 100, description: `Positions open at once (1–100; default ${DEFAULT_POSITIONS.single} for a symbol, ${DEFAULT_POSITIONS.universe} for a universe)`, error: "Query parameter 'maxPositions' must be an integer from 1 to 100" }),
  ),
  trials: t.Optional(
    t.Integer({ minimum: 1, maximum: 1_000_000, description: 'Configurations you have tried, this one included, for the deflated Sharpe ratio (default: the four this run trades)', error: "Query parameter 'trials' must be an integer from 1 to 1000000" }),
  ),
  symbols: t.Optional(
    t.String({
      pattern: SYMBOL_LIST_PATTERN,
      description: `Universe run (POST only: a job): comma-separated symbols, at most ${MAX_SYMBOLS}`,
      examples: ['AAPL,MSFT,NVDA'],
      error: `Query parameter 'symbols' must be up to ${MAX_SYMBOLS} comma-separated symbols matching ${SYMBOL_PATTERN}`,
    }),
  ),
  universe: t.Optional(oneOf('universe', BACKTEST_UNIVERSES, 'Universe run (POST only: a job) over the index members the data provider serves')),
});
export type WalkForwardQuery = Static<typeof WalkForwardQuery>;

const bodyInt = (name: keyof typeof LIMITS) => {
  const [minimum, maximum, , description] = LIMITS[name];
  return t.Optional(t.Integer({ minimum, maximum, description, error: `Invalid body parameter '${name}': must be an integer from ${minimum} to ${maximum}` }));
};
const bodyNumber = (name: keyof typeof MONEY) => {
  const [minimum, maximum, , description] = MONEY[name];
  return t.Optional(t.Number({ minimum, maximum, description, error: `Invalid body parameter '${name}': must be a number from ${minimum} to ${maximum}` }));
};
const bodySymbol = (name: string) => t.String({ pattern: SYMBOL_PATTERN, error: `Invalid body parameter '${name}': must match ${SYMBOL_PATTERN}` });

/** The POST body: the query's fields as JSON values, all optional; unknown fields are refused. */
export const WalkForwardBody = t.Object(
  {
    symbol: t.Optional(bodySymbol('symbol')),
    benchmark: t.Optional(bodySymbol('benchmark')),
    months: t.Optional(t.Union(MONTHS.map((m) => t.Literal(m)), { description: MONTHS_DOCS, error: "Invalid body parameter 'months': must be 1, 3 or 6" })),
    train: bodyInt('train'),
    test: bodyInt('test'),
    purge: bodyInt('purge'),
    embargo: bodyInt('embargo'),
    hold: bodyInt('hold'),
    commission: bodyNumber('commission'),
    slippage: bodyNumber('slippage'),
    capital: bodyNumber('capital'),
    maxPositions: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: "Invalid body parameter 'maxPositions': must be an integer from 1 to 100" })),
    trials: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000, error: "Invalid body parameter 'trials': must be an integer from 1 to 1000000" })),
    symbols: t.Optional(t.Array(bodySymbol('symbols'), { minItems: 1, maxItems: MAX_SYMBOLS, error: `Invalid body parameter 'symbols': must be 1–${MAX_SYMBOLS} symbols matching ${SYMBOL_PATTERN}` })),
    universe: t.Optional(t.Union(BACKTEST_UNIVERSES.map((u) => t.Literal(u)), { error: `Invalid body parameter 'universe': must be one of ${BACKTEST_UNIVERSES.join(', ')}` })),
  },
  { additionalProperties: false, title: 'WalkForwardBody', description: 'The query parameters’ fields as JSON (numbers as numbers, `symbols` as an array). A field given both ways must agree.' },
);
export type WalkForwardBody = Static<typeof WalkForwardBody>;

export const JobParams = t.Object({
  id: t.String({ pattern: '^btj_[0-9a-z]{20}$', description: 'A backtest job id', error: "Path parameter 'id' must be a backtest job id (btj_…)" }),
});

export { BacktestJobSchema as BacktestJob, WalkForwardResponseSchema as WalkForwardResponse };

const INPUTS =
  'Inputs: `symbol`, `benchmark`, `months` (1, 3, 6: the evaluated period), `train`, `test`, `purge`, `embargo`, `hold` (bars), `commission` (US dollars per share, each way), `slippage` (basis points, every fill), `capital`, `maxPositions`, `trials`. ';
const METHOD =
  'Rolling walk-forward folds with purging and embargo (López de Prado, Advances in Financial Machine Learning, 2018, ch. 7): each fold learns its band floor and pattern filter from its training trades only, then trades the live detectors’ point-in-time signals in its test window (entry at the trigger plus slippage, exit at target1, the stop — first when one bar touches both — or the time stop, commission both ways). Metrics include the probabilistic and deflated Sharpe ratios (Bailey & López de Prado 2012, 2014) with the number of trials. `dataFingerprint` identifies the data and inputs: the same fingerprint gives the same numbers. `method` in the answer says it all in words.';

/** OpenAPI text of the Backtest routes. */
export const BACKTEST_DOCS = {
  get: {
    tags: ['Backtest'],
    summary: 'Walk-forward backtest of one symbol',
    description: `${INPUTS}${METHOD} 400 when there are not enough bars for one train + purge + test window (or \`symbols\`/\`universe\` are given: a universe run is a job, POST only); 404 for an unknown symbol or benchmark; 500 \`backtest_failed\` when the run fails.`,
  },
  post: {
    tags: ['Backtest'],
    summary: 'Walk-forward backtest of one symbol, or start a universe job',
    description: `${INPUTS}The same fields may come in a JSON body (\`WalkForwardBody\`; a field given both ways must agree). Without \`symbols\` or \`universe\`: the symbol's backtest, 200. With them: 202 and a job (\`Location: /api/backtest/jobs/{id}\`) that runs the same walk-forward over every symbol in the worker pool and trades them through one account under \`maxPositions\`; its progress is also published on the caller's event stream (\`backtest.progress\`). At most 2 queued or running jobs per user (429). ${METHOD}`,
  },
  job: {
    tags: ['Backtest'],
    summary: 'A universe backtest job',
    description: 'Status (`queued`, `running`, `succeeded`, `failed`), progress (`phase`, `done`, `total`) and, once succeeded, the WalkForwardResponse of the universe (`universe` lists the symbols tested and skipped). Only the user who started it can read it (404 otherwise).',
  },
};

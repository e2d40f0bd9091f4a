/** @module modules/ai/model — schemas of the AI tag: GET/POST /api/explain. */
import { t, type Static } from 'elysia';
import { ExplainFactsSchema } from '../../ai/fact-schema';
import { BulletGroundingSchema, ExplainableSignalSchema } from '../../domain/explanation';
import { SIGNAL_ID_PATTERN } from '../../domain/signal-id';
import { BREAKOUT_STATES, DIRECTIONS, PATTERN_FAMILIES, PATTERN_TYPES, SCORE_BANDS, TIMEFRAMES, TREND_REGIMES } from '../../domain/signal';
import { SYMBOL_PATTERN, SymbolParam } from '../shared/params';


export const ExplainQuery = t.Object({
  symbol: SymbolParam,
  signalId: t.Optional(
    t.String({
      pattern: SIGNAL_ID_PATTERN,
      maxLength: 120,
      description: 'The signal to explain, `SYMBOL-pattern-detectedAt` as in /api/breakouts (an intraday signal’s ends `/PT4H` or `/PT1H`; without it, the daily signal, else the 4h, else the 1h one of that bar); default the symbol’s best current signal',
      examples: ['AAPL-flat_base-2026-11-18T00:00:00.000Z', 'ARM-range_breakdown-2025-06-02T13:30:00.000Z/PT4H'],
      error: "Query parameter 'signalId' must be a signal id SYMBOL-pattern-detectedAt (e.g. AAPL-flat_base-2026-11-18T21:00:00.000Z)",
    }),
  ),
});
export type ExplainQuery = Static<typeof ExplainQuery>;

const MAX_NEWS = 20;

/** A closed set of values of a posted signal's field, with the sentence a caller sees when it fails. */
const choice = <const V extends string>(field: string, values: readonly V[]) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    { error: `Invalid body parameter 'signal.${field}': must be one of ${values.join(', ')}` },
  );

/** An open JSON object (not an array, not null). */
const OpenObject = (description: string) => t.Object({}, { additionalProperties: true, description });

/** A client's level: a price, whose distances the facts state in percent (so neither ~0 nor astronomical). */
export const MIN_PRICE = 0.0001;
export const MAX_PRICE = 10_000_000;
const PRICES = ['price', 'triggerPrice', 'target1', 'stopLoss'] as const;
const price = (field: string, description: string) =>
  t.Number({ minimum: MIN_PRICE, maximum: MAX_PRICE, description, error: `Invalid body parameter 'signal.${field}': a price between ${MIN_PRICE} and ${MAX_PRICE}` });

const CHOICES = ['timeframe', 'patternType', 'direction', 'patternFamily', 'trendRegime', 'breakoutState', 'scoreBand'] as const;

export const ExplainRequestBody = t.Object(
  {
    signal: t.Composite(
      [
        t.Object({
          symbol: t.String({ pattern: SYMBOL_PATTERN, description: 'Ticker, case-insensitive', error: `Invalid body parameter 'signal.symbol': must match ${SYMBOL_PATTERN}` }),
          timeframe: choice('timeframe', TIMEFRAMES),
          patternType: choice('patternType', PATTERN_TYPES),
          direction: choice('direction', DIRECTIONS),
          patternFamily: t.Optional(choice('patternFamily', PATTERN_FAMILIES)),
          trendRegime: t.Optional(choice('trendRegime', TREND_REGIMES)),
          breakoutState: t.Optional(choice('breakoutState', BREAKOUT_STATES)),
          scoreBand: t.Optional(choice('scoreBand', SCORE_BANDS)),
          price: t.Optional(price('price', 'The last close')),
          triggerPrice: t.Optional(price('triggerPrice', 'The breakout level')),
          target1: t.Optional(price('target1', 'The first target')),
          stopLoss: t.Optional(t.Union([price('stopLoss', 'The invalidation level'), t.Null()])),
        }),
        t.Omit(ExplainableSignalSchema, ['symbol', ...CHOICES, ...PRICES]),
      ],
      { title: 'ExplainSignal', description: 'A BreakoutSignal: symbol, timeframe, patternType, direction and finalScore are required; every other field of /api/breakouts signals is optional and used when given' },
    ),
    news: t.Optional(
      t.Array(OpenObject('headline|title, source|publisher, publishedAt|date, summary|description'), {
        maxItems: MAX_NEWS,
        description: `News items to mention (at most ${MAX_NEWS}; the first 10 are used)`,
      }),
    ),
    sectorCtx: t.Optional(OpenObject('Sector context to mention; its string, number and boolean members are given to the model')),
  },
  { title: 'ExplainRequestBody' },
);
export type ExplainRequestBody = Static<typeof ExplainRequestBody>;

export const ExplainResponse = t.Object(
  {
    symbol: t.String(),
    patternType: t.String(),
    bullets: t.Array(t.String(), { minItems: 3, maxItems: 6, description: '3–6 plain-language bullets; every number in them matches a number in `facts`' }),
    modelUsed: t.String({ description: 'The model as its API named itself' }),
    cacheHitRatio: t.Optional(t.Number({ minimum: 0, maximum: 1, description: 'Prompt-cache share of the input tokens of the model calls that wrote it (cached input ÷ input, as the API reported them); absent when the API reported no usage' })),
    signalId: t.String({ description: 'The id explained (a posted signal without id: SYMBOL-pattern-detectedAt from its fields)' }),
    facts: ExplainFactsSchema,
    grounding: t.Array(BulletGroundingSchema, { description: 'Per bullet, every number it states and the fact it matched' }),
    cached: t.Boolean({ description: 'Served from the explanation cache (same signal, facts and prompt) without a model call' }),
    generatedAt: t.String({ format: 'date-time', description: 'When the model wrote it' }),
  },
  { title: 'ExplainResponse' },
);
export type ExplainResponse = Static<typeof ExplainResponse>;

const ERRORS =
  '503 `ai_unavailable` when no model is configured, the circuit breaker is open (with `Retry-After`: seconds until the next probe) or the model call failed or timed out; 502 `ai_refused` when the model’s answer failed validation or the grounding check twice (it is never passed through); 429 when the explain quota (stricter than the general limit; `EXPLAIN_RATE_LIMIT_*`) is spent.';

/** OpenAPI text of the AI routes. */
export const AI_DOCS = {
  get: {
    tags: ['AI'],
    summary: 'Explain a signal in plain language',
    description: `Explains the signal \`signalId\` of \`symbol\`, or the symbol's best current signal (highest finalScore in the latest runs) without it: 3–6 bullets on the pattern and its geometry, trigger, target and stop, volume and relative strength, regime and sector, earnings proximity and the pattern's record in the ledger. \`facts\` holds the structured facts the model was given; every number in a bullet matches one of them within rounding (\`grounding\` says which). Answers are cached by signal, facts and prompt version. 404 for an unknown symbol or signal. ${ERRORS}`,
  },
  post: {
    tags: ['AI'],
    summary: 'Explain a client-supplied signal',
    description: `Explains the posted \`signal\` (with \`news\` and \`sectorCtx\` when given) the same way, adding what the service knows of the symbol (sector, earnings, market regime of the latest run, the ledger's record of the pattern). 400 names the invalid field; 413 when the body exceeds \`EXPLAIN_BODY_LIMIT_BYTES\`. ${ERRORS}`,
  },
};

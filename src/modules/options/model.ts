/** @module modules/options/model — schemas of the Options tag. */
import { t, type Static } from 'elysia';
import { intParam, numberParam, oneOf, SymbolParam } from '../shared/params';

/** IV rank at or above which premium counts as dear (a debit spread is preferred). */
export const IV_RANK_DEAR = 50;

const Open = t.Record(t.String(), t.Any());

function price(name: string, description: string, example: number) {
  return t.Number({ exclusiveMinimum: 0, description, examples: [example], error: `Query parameter '${name}' must be a positive number` });
}

export const AnalyzeQuery = t.Object({
  symbol: SymbolParam,
  direction: oneOf('direction', ['long', 'short'] as const, 'long (calls; default) or short (puts; additive)', 'long'),
  trigger: price('trigger', 'Entry: the breakout trigger price', 100),
  target: price('target', 'Target price (above the trigger for a long, below for a short)', 120),
  stop: t.Optional(price('stop', 'Stop price (below the trigger for a long, above for a short); default half the target distance on the other side', 90)),
  iv: t.Number({ exclusiveMinimum: 0, maximum: 5, default: 0.3, description: 'Implied volatility as a decimal, (0, 5]; default 0.3', error: "Query parameter 'iv' must be a number in (0, 5] (0.3 = 30%)" }),
  ivRank: t.Optional(t.Number({ minimum: 0, maximum: 100, description: 'IV rank 0–100 (where today’s IV sits in its 52-week range)', error: "Query parameter 'ivRank' must be a number from 0 to 100" })),
  expiryDays: intParam('expiryDays', 1, 1095, 30, 'Calendar days to the main expiry'),
  r: numberParam('r', { minimum: -0.1, maximum: 0.5 }, 0.05, 'Risk-free rate as a decimal'),
});
export type AnalyzeQuery = Static<typeof AnalyzeQuery>;

const Nullable = (description?: string) => t.Union([t.Number(), t.Null()], description ? { description } : {});

/** A position's value at the target and at the stop, per share (kernels/options/analyze PositionOutcome). */
const outcomeFields = {
  valueAtTarget: t.Number(),
  valueAtStop: t.Number(),
  reward: t.Number(),
  risk: t.Number(),
  rewardRisk: Nullable('null when the risk is 0'),
  breakeven: t.Number(),
  evaluatedAtDays: t.Number({ description: 'Days from now the values at target and stop are taken at (the expected time to target, within the expiry)' }),
};

/** A long call or put at one strike and expiry, per share (options/service `leg`). */
const OptionLeg = t.Object(
  {
    type: t.Union([t.Literal('call'), t.Literal('put')]),
    strike: t.Number(),
    expiryDays: t.Number(),
    price: t.Number(),
    delta: t.Number(),
    gamma: t.Number(),
    vega: t.Number(),
    thetaPerDay: t.Number(),
    rho: t.Number(),
    ...outcomeFields,
    probabilityBeyondBreakeven: t.Number(),
  },
  { title: 'OptionLeg' },
);

/** The vertical debit spread from the trigger strike to the target strike (options/service `spreadOf`). */
const OptionSpread = t.Object(
  {
    type: t.Union([t.Literal('call_debit_spread'), t.Literal('put_debit_spread')]),
    longStrike: t.Number(),
    shortStrike: t.Number(),
    expiryDays: t.Number(),
    cost: t.Number(),
    maxValue: t.Number(),
    ...outcomeFields,
  },
  { title: 'OptionSpread' },
);

/** The effective inputs: the query with its defaults, the quote and the grid of strikes and expiries. */
const AnalyzeInputs = t.Object(
  {
    trigger: t.Number(),
    target: t.Number(),
    stop: t.Number(),
    stopDefaulted: t.Boolean({ description: 'The stop was not given: half the target distance on the other side of the trigger' }),
    iv: t.Number(),
    ivRank: Nullable(),
    expiryDays: t.Number(),
    r: t.Number(),
    price: t.Number({ description: 'The quote the analysis used' }),
    priceAt: t.String({ description: "The quote's time" }),
    strikes: t.Array(t.Number()),
    expiries: t.Array(t.Number(), { description: 'Calendar days: expiryDays, half and twice it' }),
    perContractMultiplier: t.Number(),
  },
  { title: 'OptionsAnalyzeInputs' },
);

export const AnalyzeResponse = t.Object(
  {
    symbol: t.String(),
    direction: t.String(),
    recommendation: Open,
    inputs: AnalyzeInputs,
    expectedTimeToTarget: t.Object({ days: t.Number(), method: t.String() }),
    probabilities: t.Object(
      {
        touchTarget: t.Number({ description: 'Chance of touching the target before the expiry' }),
        touchStop: t.Number({ description: 'Chance of touching the stop before the expiry' }),
        targetBeforeStop: t.Number({ description: 'Chance of reaching the target first' }),
      },
      { description: 'Driftless log-price touch and order probabilities of the plan over expiryDays' },
    ),
    stock: t.Object({ reward: t.Number(), risk: t.Number(), rewardRisk: t.Number() }, { description: 'The plan in the stock itself, per share' }),
    candidates: t.Array(OptionLeg),
    spreads: t.Array(OptionSpread),
    ivCrush: t.Union([
      t.Object({ earningsDate: t.String(), daysAway: t.Number(), affectsExpiries: t.Array(t.Number()), warning: t.String() }, { description: 'The next report falls before an expiry considered' }),
      t.Null(),
    ]),
  },
  { title: 'OptionsAnalyzeResponse' },
);

/** OpenAPI text of the Options route. */
export const OPTIONS_DOCS = {
  analyze: {
    tags: ['Options'],
    summary: 'Options for a breakout plan',
    description: `Black–Scholes prices and greeks (per share; × 100 a contract) of calls (direction=long) or puts (direction=short, additive) at the listed strikes around the trigger and at the target, for \`expiryDays\`, half and twice it; each one's value at the target and at the stop at the expected time to target (the median driftless first-passage time), reward/risk, breakeven and the chance of finishing beyond it; the debit spread from the trigger strike to the target strike; the stock's reward/risk; the chances of touching target and stop before expiry and of reaching the target first. \`recommendation\`: stock when the target is unlikely to be reached before the longest expiry; a vertical debit spread when premium is dear (IV rank ≥ ${IV_RANK_DEAR} or earnings before expiry) and it returns at least its risk; else the best long call/put when it beats 1 and the stock; else the spread or the stock — with the reasoning. \`ivCrush\` warns when a report falls before expiry. \`inputs\` echoes the effective inputs (stop defaults to half the target distance on the other side of the trigger). 400 for a non-numeric or inconsistent trigger/target/stop, a bad direction, iv outside (0, 5], ivRank outside 0–100, expiryDays outside 1–1095; 404 for an unknown symbol.`,
  },
};

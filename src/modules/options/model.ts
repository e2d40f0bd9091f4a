/** @module modules/options/model — schemas of the Options tag. */
import { t } from 'elysia';
import { oneOf, SymbolParam } from '../params';

const Open = t.Record(t.String(), t.Any());

function price(name: string, description: string) {
  return t.Number({ exclusiveMinimum: 0, description, error: `Query parameter '${name}' must be a positive number` });
}

export const AnalyzeQuery = t.Object({
  symbol: SymbolParam,
  direction: t.Optional(oneOf('direction', ['long', 'short'] as const, 'long (calls; default) or short (puts; additive)')),
  trigger: price('trigger', 'Entry: the breakout trigger price'),
  target: price('target', 'Target price (above the trigger for a long, below for a short)'),
  stop: t.Optional(price('stop', 'Stop price (below the trigger for a long, above for a short); default half the target distance on the other side')),
  iv: t.Optional(t.Number({ exclusiveMinimum: 0, maximum: 5, description: 'Implied volatility as a decimal, (0, 5]; default 0.3', error: "Query parameter 'iv' must be a number in (0, 5] (0.3 = 30%)" })),
  ivRank: t.Optional(t.Number({ minimum: 0, maximum: 100, description: 'IV rank 0–100 (where today’s IV sits in its 52-week range)', error: "Query parameter 'ivRank' must be a number from 0 to 100" })),
  expiryDays: t.Optional(t.Integer({ minimum: 1, maximum: 1095, description: 'Calendar days to the main expiry (1–1095, default 30)', error: "Query parameter 'expiryDays' must be an integer from 1 to 1095" })),
  r: t.Optional(t.Number({ minimum: -0.1, maximum: 0.5, description: 'Risk-free rate as a decimal, default 0.05', error: "Query parameter 'r' must be a number from -0.1 to 0.5" })),
});

export const AnalyzeResponse = t.Object(
  {
    symbol: t.String(),
    direction: t.String(),
    recommendation: Open,
    inputs: Open,
    expectedTimeToTarget: Open,
    probabilities: Open,
    stock: Open,
    candidates: t.Array(Open),
    spreads: t.Array(Open),
    ivCrush: t.Union([Open, t.Null()]),
  },
  { title: 'OptionsAnalyzeResponse' },
);

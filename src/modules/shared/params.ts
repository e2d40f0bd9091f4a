/**
 * @module modules/shared/params
 * Schemas shared by every module: query parameters, each with the sentence a
 * caller sees when it fails (rendered by plugins/errors as a 400), error
 * responses (plugins/errors' Error shape), and the track-record figures of
 * ledger/performance.
 */
import { JsonResponse } from '../../plugins/representation';
import { Kind, Type, TypeRegistry } from '@sinclair/typebox';
import { t, type TSchema } from 'elysia';
import { ErrorSchema } from '../../plugins/errors';
import { TIMEFRAMES } from '../../domain/signal';

/** The Error shape of every error response (declared with plugins/errors, which renders it). */
export { ErrorSchema };

export const SYMBOL_PATTERN = '^[A-Za-z][A-Za-z0-9.-]{0,9}$';

/** A ticker as the spec defines it: case-insensitive, normalised to upper case. */
export const SymbolParam = t
  .Transform(
    t.String({
      pattern: SYMBOL_PATTERN,
      description: 'Ticker symbol, case-insensitive (normalised to upper case)',
      examples: ['AAPL', 'MSFT', 'NVDA'],
      error: `Query parameter 'symbol' is required: 1–10 characters matching ${SYMBOL_PATTERN}`,
    }),
  )
  .Decode((value) => value.toUpperCase())
  .Encode((value) => value);

/**
 * The calendar every date parameter lives in: 1900-01-01 to 2199-12-31. Wide
 * enough for any market history, and every day of it is a valid PostgreSQL
 * date and timestamp and a JavaScript Date (year 0000 is neither).
 */
export const DATE_PARAM_RANGE = { from: '1900-01-01', to: '2199-12-31' } as const;
/** Years 1900–2199: the range above, as the pattern the published schema carries beside `format: date`. */
const DATE_PARAM_PATTERN = '^(19|20|21)\\d{2}-\\d{2}-\\d{2}$';
const MONTH_PARAM_PATTERN = '^(19|20|21)\\d{2}-(0[1-9]|1[0-2])$';

/**
 * A calendar date `YYYY-MM-DD` query parameter: a real day (the strict checker
 * of domain/formats) within DATE_PARAM_RANGE, with the sentence a caller sees
 * when it fails. Every date parameter is declared with it.
 */
export const DateParam = (name: string, description: string) =>
  t.String({
    format: 'date',
    pattern: DATE_PARAM_PATTERN,
    description: `${description} (YYYY-MM-DD, ${DATE_PARAM_RANGE.from} to ${DATE_PARAM_RANGE.to})`,
    error: `Query parameter '${name}' must be a calendar date YYYY-MM-DD from ${DATE_PARAM_RANGE.from} to ${DATE_PARAM_RANGE.to}`,
  });

/** A month `YYYY-MM` query parameter (01–12, years as DATE_PARAM_RANGE). */
export const MonthParam = (name: string, description: string) =>
  t.String({ pattern: MONTH_PARAM_PATTERN, description: `${description} (YYYY-MM, 1900-01 to 2199-12)`, error: `Query parameter '${name}' is required: a month YYYY-MM (01–12) from 1900-01 to 2199-12` });

/** A bounded integer query parameter with its default (TypeBox `default`: the handler always sees a value). */
export function intParam(name: string, min: number, max: number, fallback: number, description: string) {
  return t.Integer({ minimum: min, maximum: max, default: fallback, description: `${description} (${min}–${max}, default ${fallback})`, error: `Query parameter '${name}' must be an integer from ${min} to ${max}` });
}

/** A bounded number query parameter with its default. */
export function numberParam(name: string, range: { minimum?: number; maximum?: number }, fallback: number, description: string) {
  const bounds = range.maximum === undefined ? `≥ ${range.minimum}` : `from ${range.minimum} to ${range.maximum}`;
  return t.Number({ ...range, default: fallback, description: `${description}; default ${fallback}`, error: `Query parameter '${name}' must be a number ${bounds}` });
}

/**
 * The kind of `oneOf`: a string from a closed list, checked by `enum`
 * (TypeBox's documented custom-kind pattern). A union of literals would check
 * the same, but Elysia's document generator rewrites such a union to a bare
 * enum and drops its description and default; this kind is published as
 * declared.
 */
const STRING_ENUM = 'StringEnum';
if (!TypeRegistry.Has(STRING_ENUM)) {
  TypeRegistry.Set<{ enum: readonly string[] }>(STRING_ENUM, (schema, value) => typeof value === 'string' && schema.enum.includes(value));
}

/**
 * A closed set of string values; with `fallback`, the value the handler sees
 * when the parameter is absent (published as its default). `extensions` are
 * `x-…` facts the OpenAPI document puts on the parameter.
 */
export function oneOf<const V extends string>(name: string, values: readonly V[], description?: string, fallback?: NoInfer<V>, extensions: Record<`x-${string}`, string> = {}) {
  return Type.Unsafe<V>({
    [Kind]: STRING_ENUM,
    type: 'string',
    enum: [...values],
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    error: `Query parameter '${name}' must be one of: ${values.join(', ')}`,
    ...extensions,
  });
}

/** The timeframe parameter: one of the spec's three, `daily` when absent. */
export const timeframeParam = (description: string) => oneOf('timeframe', TIMEFRAMES, description, 'daily');

/** A symbol query parameter other than `symbol` (a benchmark, say), upper-cased, with its default. */
export function symbolParam(name: string, fallback: string, description: string) {
  return t
    .Transform(t.String({ pattern: SYMBOL_PATTERN, default: fallback, description: `${description}; default ${fallback}`, error: `Query parameter '${name}' must be a symbol matching ${SYMBOL_PATTERN}` }))
    .Decode((value) => value.toUpperCase())
    .Encode((value) => value);
}

const Interval = (description: string) => t.Object({ lower: t.Union([t.Number(), t.Null()]), upper: t.Union([t.Number(), t.Null()]) }, { description });
/** ledger/performance: trades of one week move together, so the intervals cluster them (kernels/stats/clustered). */
const CLUSTERED = '95%, trades detected in the same Monday-based week taken as one cluster; null below 2 weeks';
const Nullable = (description?: string) => t.Union([t.Number(), t.Null()], { description });
/** ledger/performance's `Performance`. */
export const PerformanceSchema = t.Object(
  {
    signals: t.Integer(),
    open: t.Integer(),
    closed: t.Integer({ description: 'Entered signals with a final outcome' }),
    wins: t.Integer(),
    losses: t.Integer(),
    scratches: t.Integer(),
    neverEntered: t.Integer({ description: 'Failed or expired before crossing the trigger' }),
    hitRate: Nullable('wins ÷ closed'),
    hitRateInterval: Interval(CLUSTERED),
    avgR: Nullable('Mean R of closed trades'),
    avgRInterval: Interval(CLUSTERED),
    totalR: t.Number(),
    expectancyR: Nullable(),
    profitFactor: Nullable('null without losses'),
    avgDaysHeld: Nullable(),
  },
  { title: 'Performance' },
);
/** Documents the error statuses of a route next to its 200 schema. */
export function withErrors<S extends TSchema>(ok: S, ...statuses: number[]) {
  const response: Record<number, TSchema> = { 200: ok };
  for (const status of statuses) response[status] = ErrorSchema;
  return response as { 200: S } & Record<number, TSchema>;
}

/**
 * A 200 JSON response from an already serialised body (the hot read paths
 * cache their JSON); the route's `response` schema still documents its shape.
 * plugins/representation gives it its ETag and compression without re-reading it.
 * `held: false` for a body serialised for this request only (not cached).
 */
export function jsonResponse(body: string, held = true): Response {
  return new JsonResponse(body, held);
}

/**
 * @module modules/params
 * Schemas shared by every module: query parameters, each with the sentence a
 * caller sees when it fails (rendered by plugins/errors as a 400), the Error
 * shape, and the track-record figures of ledger/performance.
 */
import { t, type TSchema } from 'elysia';

export const SYMBOL_PATTERN = '^[A-Za-z][A-Za-z0-9.-]{0,9}$';

/** A ticker as the spec defines it: case-insensitive, normalised to upper case. */
export const SymbolParam = t
  .Transform(
    t.String({
      pattern: SYMBOL_PATTERN,
      description: 'Ticker symbol, case-insensitive (normalised to upper case)',
      examples: ['AAPL'],
      error: `Query parameter 'symbol' is required: 1–10 characters matching ${SYMBOL_PATTERN}`,
    }),
  )
  .Decode((value) => value.toUpperCase())
  .Encode((value) => value);

/** A calendar date `YYYY-MM-DD` query parameter with the sentence a caller sees when it fails. */
export const DateParam = (name: string, description: string) =>
  t.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description, error: `Query parameter '${name}' must be a date YYYY-MM-DD` });

/** An optional bounded integer query parameter; its default is stated in the description and applied by the handler. */
export function intParam(name: string, min: number, max: number, fallback: number, description: string) {
  return t.Optional(
    t.Integer({ minimum: min, maximum: max, description: `${description} (${min}–${max}, default ${fallback})`, error: `Query parameter '${name}' must be an integer from ${min} to ${max}` }),
  );
}

/** A closed set of string values (TypeBox literals; Elysia's UnionEnum fills in a default we do not want). */
export function oneOf<const V extends string>(name: string, values: readonly V[], description?: string) {
  return t.Union(
    values.map((v) => t.Literal(v)),
    { description, error: `Query parameter '${name}' must be one of: ${values.join(', ')}` },
  ) as unknown as ReturnType<typeof t.Union<ReturnType<typeof t.Literal<V>>[]>>;
}

/** The spec's Error shape (with our stable machine `code`), for response documentation. */
export const ErrorSchema = t.Object(
  {
    error: t.String({ description: 'Human-readable message' }),
    requestId: t.Optional(t.String()),
    code: t.Optional(t.String({ description: 'Stable snake_case machine code, e.g. invalid_parameter' })),
  },
  { title: 'Error' },
);

const Interval = t.Object({ lower: t.Union([t.Number(), t.Null()]), upper: t.Union([t.Number(), t.Null()]) });
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
    hitRateInterval: Interval,
    avgR: Nullable('Mean R of closed trades'),
    avgRInterval: Interval,
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

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/**
 * A 200 JSON response from an already serialised body (the hot read paths
 * cache their JSON); the route's `response` schema still documents its shape.
 */
export function jsonResponse(body: string): Response {
  return new Response(body, { headers: JSON_HEADERS });
}

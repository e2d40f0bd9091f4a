/**
 * @module errors
 * The closed set of error codes Breakline answers with, and the one table that
 * maps each to an HTTP status. Domain code throws `AppError`; the HTTP edge
 * (plugins/errors) renders `{ error, requestId, code }` once.
 *
 * @example
 * throw new AppError('invalid_parameter', "range is required under API-Version 1.1.0");
 */

export const ERROR_STATUS = {
  invalid_parameter: 400,
  invalid_body: 400,
  /** No credential on a route that needs one. */
  unauthorized: 401,
  /** A credential presented and refused (issue 31: public routes too), by what was wrong with it (auth/principal `Refusal`). */
  invalid_authorization: 401,
  invalid_key: 401,
  revoked_key: 401,
  expired_session: 401,
  invalid_session: 401,
  forbidden: 403,
  /** An API key without the scope the route needs (auth/route-access). */
  insufficient_scope: 403,
  not_found: 404,
  /** The request conflicts with the resource's state: an Idempotency-Key reused with another body, a watchlist a rule still watches, an export not yet done. */
  conflict: 409,
  /** The resource existed and is gone for good (an expired export). */
  gone: 410,
  /** No representation the request's Accept takes is served (plugins/media). */
  not_acceptable: 406,
  payload_too_large: 413,
  /** The request's URL and header fields together are too large. */
  headers_too_large: 431,
  rate_limited: 429,
  internal: 500,
  scan_failed: 500,
  /** A walk-forward backtest could not be run (the spec's 500 "backtest execution failed"). */
  backtest_failed: 500,
  upstream_error: 502,
  /** The language model's answer failed validation or the grounding check twice (src/ai); it is never passed through. */
  ai_refused: 502,
  unavailable: 503,
  ai_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. `Retry-After` on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** How much of a caller's own input an error message repeats. */
export const ECHO_MAX = 64;

/**
 * A caller's input as an error message may repeat it: at most `ECHO_MAX`
 * characters, then `…` and the full length, so a 5,000-character header is
 * never sent back whole.
 *
 * @example
 * echoed('x'.repeat(5000)); // => 'xxx…xxx… (5000 characters)'
 */
export function echoed(input: string, max = ECHO_MAX): string {
  return input.length <= max ? input : `${input.slice(0, max)}… (${input.length} characters)`;
}

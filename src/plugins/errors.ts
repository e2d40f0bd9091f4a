/**
 * @module plugins/errors
 * The one place failures become HTTP responses: `{ error, requestId, code }`
 * with the status from `ERROR_STATUS`. Validation failures are 400 (the spec's
 * status, not Elysia's default 422) and name the parameter; a value the
 * database refuses (db/data-errors) is 400 too; unknown routes are
 * 404 in the same shape; a database that cannot be reached is 503
 * `unavailable` with `Retry-After`; unexpected errors are logged with the request id and
 * answered 500 without a stack trace.
 */
import { Elysia, t, ValidationError, type Static } from 'elysia';
import { AppError, echoed, ERROR_STATUS, type ErrorCode } from '../errors';
import type { Logger } from '../log';
import { databaseUnreachable } from '../db/client';
import { isDataException } from '../db/data-errors';
import { ProviderError } from '../providers/types';
import { REQUEST_ID_HEADER } from './step';
import { requestPath } from './request-path';

/** The spec's Error shape with our stable machine `code` (one of errors.ts's closed set): every error body, and its OpenAPI schema. */
export const ErrorSchema = t.Object(
  {
    error: t.String({ description: 'Human-readable message' }),
    requestId: t.Optional(t.String({ description: 'The request id (also in X-Request-Id)' })),
    code: t.String({ enum: Object.keys(ERROR_STATUS), description: 'Stable snake_case machine code' }),
  },
  // Closed, as Elysia's response normalisation makes it anyway when it compiles a route: said here, the shared
  // schema is never changed under the document generator (which, mid-compilation, saw two shapes and failed).
  { title: 'Error', additionalProperties: false },
);

export type ErrorBody = Static<typeof ErrorSchema> & { code: ErrorCode };

/** What a caller is told when its input passed the schema but not the database (db/data-errors). */
export const DATA_EXCEPTION_MESSAGE = 'A value in the request cannot be used (a control character, or a number or date out of range)';

/**
 * @param onDatabaseUnreachable told when a request found the database unreachable (the health monitor runs a
 *   round at once, so readiness says 503 without waiting for its interval)
 */
export function errors(log: Logger, onDatabaseUnreachable?: () => void) {
  return new Elysia({ name: 'breakline/errors' }).onError({ as: 'global' }, ({ code, error, set, request }) => {
    const requestId = set.headers[REQUEST_ID_HEADER] as string | undefined;
    let appError: AppError;
    if (error instanceof AppError) appError = error;
    // A body parser's own refusal (plugins/body-limit) arrives wrapped in Elysia's ParseError.
    else if (code === 'PARSE' && error.cause instanceof AppError) appError = error.cause;
    else if (error instanceof ProviderError) appError = fromProvider(error);
    else if (databaseUnreachable(error)) {
      log.warn('database unreachable; answered 503', { requestId, path: echoed(requestPath(request.url), 256), error: String(error) });
      onDatabaseUnreachable?.();
      appError = new AppError('unavailable', 'The database cannot be reached right now; retry shortly', { 'retry-after': '5' });
    }
    else if (isDataException(error)) {
      log.warn('a value of the request was refused by the database; answered 400', { requestId, path: echoed(requestPath(request.url), 256), error: String(error) });
      appError = new AppError(request.method === 'GET' || request.method === 'HEAD' ? 'invalid_parameter' : 'invalid_body', DATA_EXCEPTION_MESSAGE);
    }
    else if (code === 'VALIDATION') appError = fromValidation(error as ValidationError);
    else if (code === 'NOT_FOUND') {
      appError = new AppError('not_found', `No route ${echoed(request.method, 16)} ${echoed(requestPath(request.url), 256)}`);
    } else if (code === 'PARSE') {
      // A route's own parser (e.g. plugins/json-body) throws its AppError; Elysia wraps it as the cause.
      const cause = (error as Error).cause;
      appError = cause instanceof AppError ? cause : new AppError('invalid_body', 'The request body is not valid JSON');
    }
    else {
      log.error('unhandled error', { requestId, path: echoed(requestPath(request.url), 256), error: String(error), stack: (error as Error)?.stack });
      appError = new AppError('internal', 'Internal server error');
    }
    set.status = appError.status;
    return errorBody(appError, set.headers as Record<string, unknown>, requestId);
  });
}

/** An AppError's body, with its headers (and the JSON type, and nosniff) added to `headers`. */
export function errorBody(appError: AppError, headers: Record<string, unknown>, requestId: string | undefined): ErrorBody {
  Object.assign(headers, appError.headers);
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['x-content-type-options'] = 'nosniff'; // also when a plugin before plugins/security refused the request
  return { error: appError.message, requestId, code: appError.code };
}

/** A provider failure, still naming the provider and the symbol. */
export function fromProvider(error: ProviderError): AppError {
  switch (error.code) {
    case 'unknown_symbol':
      return new AppError('not_found', `Unknown symbol: ${error.message}`);
    case 'unsupported':
      return new AppError('not_found', `Not available in this deployment: ${error.message}`);
    case 'bad_payload':
      return new AppError('upstream_error', `Market data could not be read: ${error.message}`);
    default:
      return new AppError('unavailable', `Market data unavailable: ${error.message}`);
  }
}

/** Turns TypeBox's first failure into one sentence that names the parameter. */
function fromValidation(error: ValidationError): AppError {
  const where = error.type === 'body' ? 'body' : error.type;
  const code: ErrorCode = error.type === 'body' ? 'invalid_body' : 'invalid_parameter';
  if (typeof error.customError === 'string' && error.customError !== '') return new AppError(code, error.customError);
  const first = error.all[0] as { path?: string; message?: string; summary?: string } | undefined;
  const path = first?.path?.replace(/^\//, '').replaceAll('/', '.') || '';
  const detail = first?.summary ?? first?.message ?? 'is invalid';
  return new AppError(code, path ? `Invalid ${where} parameter '${path}': ${detail}` : `Invalid ${where}: ${detail}`);
}

export { ERROR_STATUS };

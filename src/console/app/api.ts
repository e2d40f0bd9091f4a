/**
 * @module console/app/api
 * The console's one way to call the public API: `api(path)` fetches JSON from
 * this origin (the session cookie goes along), and every failure becomes an
 * `ApiError` that says what a person should know: offline, not ready yet
 * (the warm-up's 503), rate-limited (with the wait from `Retry-After`),
 * signed out, or the server's own message from the Error shape
 * (`{ error, requestId, code }`).
 *
 * @example
 * const page = await api<BreakoutsPage>('/api/breakouts?limit=50');
 */

export type ProblemKind = 'offline' | 'not_ready' | 'rate_limited' | 'unauthorized' | 'forbidden' | 'not_found' | 'invalid' | 'unavailable' | 'server';

export class ApiError extends Error {
  constructor(
    readonly kind: ProblemKind,
    message: string,
    readonly status = 0,
    /** Seconds to wait before asking again (Retry-After), when the server said. */
    readonly retryAfter?: number,
    readonly code?: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

const KIND_BY_STATUS: Record<number, ProblemKind> = { 400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'invalid', 413: 'invalid', 422: 'invalid', 429: 'rate_limited' };

async function problemOf(response: Response): Promise<ApiError> {
  let body: { error?: string; code?: string; requestId?: string } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not the Error shape (a proxy's page): the status says enough
  }
  const retry = Number(response.headers.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  const message = body.error ?? `${response.status} ${response.statusText}`;
  let kind = KIND_BY_STATUS[response.status] ?? (response.status >= 500 ? 'server' : 'invalid');
  // The warm-up answers 503 `unavailable`; a dependency that is down answers 503 too (a model, the database).
  if (response.status === 503) kind = body.code === 'unavailable' ? 'not_ready' : 'unavailable';
  return new ApiError(kind, message, response.status, retryAfter, body.code, body.requestId);
}

/** Fetches `path` on this origin; JSON out (a body given as an object goes as JSON), `ApiError` on any failure. */
export async function api<T>(path: string, init: Omit<RequestInit, 'body'> & { body?: unknown } = {}): Promise<T> {
  const { body, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set('accept', 'application/json');
  if (body !== undefined) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, { ...rest, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new ApiError('offline', offline ? 'You are offline.' : 'The server cannot be reached.');
  }
  if (!response.ok) throw await problemOf(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A query string from the defined entries of `params` (`?a=1&b=x`, or '' when none). */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** What a person reads about a problem: a sentence, and whether trying again can help. */
export function describe(error: unknown): { title: string; detail: string; retryable: boolean; retryAfter?: number } {
  if (!(error instanceof ApiError)) return { title: 'Something went wrong', detail: String((error as Error)?.message ?? error), retryable: true };
  switch (error.kind) {
    case 'offline':
      return { title: 'Offline', detail: `${error.message} The console tries again when the connection is back.`, retryable: true, retryAfter: 5 };
    case 'not_ready':
      return { title: 'Not ready yet', detail: `The server is still starting (${error.message}).`, retryable: true, retryAfter: error.retryAfter ?? 2 };
    case 'rate_limited':
      return { title: 'Slow down', detail: `Too many requests for now: ${error.message}`, retryable: true, retryAfter: error.retryAfter ?? 10 };
    case 'unauthorized':
      return { title: 'Signed out', detail: `${error.message} Sign in on the Account page.`, retryable: false };
    case 'forbidden':
      return { title: 'Not allowed', detail: error.message, retryable: false };
    case 'not_found':
      return { title: 'Not found', detail: error.message, retryable: false };
    case 'invalid':
      return { title: 'Check the input', detail: error.message, retryable: false };
    case 'unavailable':
      return { title: 'Unavailable', detail: error.message, retryable: true, retryAfter: error.retryAfter };
    default:
      return { title: 'Server error', detail: `${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`, retryable: true };
  }
}

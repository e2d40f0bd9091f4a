/**
 * @module plugins/step
 * One per-request step of the pipeline before routing, as a plain function:
 * it reads the request, sets response headers in `set`, and refuses by
 * throwing an AppError. Each cross-cutting plugin exports its step, its
 * Elysia plugin registers that very function as its `onRequest` hook, and
 * plugins/fast-path runs the same list (plugins/pipeline declares the order
 * once), so each step has one implementation whichever way a request comes.
 *
 * A step is synchronous unless it has to wait (a credential check, a remote
 * rate-limit store): then it returns a promise and the steps after it wait.
 *
 * It is also the one leaf of the layer that the steps and plugins/fast-path
 * share their names through (the socket's shape, the `X-Request-Id` and
 * `API-Version` header names, how a request's version is read), so neither
 * imports another plugin for a name (issue 29: the same-layer tangle).
 *
 * @example
 * const nosniff: RequestStep = (_request, _server, set) => void (set.headers['x-content-type-options'] = 'nosniff');
 * runSteps([requestIdStep, nosniff], request, server, { headers: {} });
 */
import { API_VERSIONS, type ApiVersion } from '../config';

/** What the server tells of a request's socket (Bun's `server.requestIP`). */
export type SocketInfo = { requestIP?(request: Request): { address: string } | null } | null;

/** The request id's header (plugins/request-id sets it; the error renderer, the access log and the fast path read it). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** The contract version's header (plugins/versioning). */
export const API_VERSION_HEADER = 'api-version';

/** The version a request asks for (its header, else the default), or null when the header names none we serve. */
export function versionOf(request: Request, defaultVersion: ApiVersion): ApiVersion | null {
  const asked = request.headers.get(API_VERSION_HEADER)?.trim();
  if (asked === undefined || asked === '') return asked === '' ? null : defaultVersion;
  return (API_VERSIONS as readonly string[]).includes(asked) ? (asked as ApiVersion) : null;
}

/** The response headers a step writes (Elysia's `set`, or the fast path's record). */
export type HeaderSet = { headers: Record<string, unknown> };

export type RequestStep = (request: Request, server: SocketInfo, set: HeaderSet) => void | Promise<void>;

/** Runs `steps` from `from` in order; synchronous until a step returns a promise, then the rest wait for it (a thrown refusal rejects). */
export function runSteps(steps: readonly RequestStep[], request: Request, server: SocketInfo, set: HeaderSet, from = 0): void | Promise<void> {
  for (let i = from; i < steps.length; i++) {
    const waiting = steps[i]!(request, server, set);
    if (waiting instanceof Promise) return waiting.then(() => runSteps(steps, request, server, set, i + 1));
  }
}

/** A step as an Elysia `onRequest` hook (Elysia's context carries the request, the server and `set`). */
export const asHook =
  (step: RequestStep) =>
  ({ request, server, set }: { request: Request; server: unknown; set: HeaderSet }): void | Promise<void> =>
    step(request, server as SocketInfo, set);

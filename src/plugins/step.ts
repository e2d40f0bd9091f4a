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
 * @example
 * const nosniff: RequestStep = (_request, _server, set) => void (set.headers['x-content-type-options'] = 'nosniff');
 * runSteps([requestIdStep, nosniff], request, server, { headers: {} });
 */
import type { SocketInfo } from './client-address';

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

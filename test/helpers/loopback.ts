/**
 * Proof that a test talks to loopback only: `guardLoopback()` wraps the global
 * `fetch` (what the model providers call) so a request to any other host is
 * refused and recorded; `restore()` puts the real one back.
 *
 * @example
 * const guard = guardLoopback();
 * // … the test …
 * expect(guard.offLoopback).toEqual([]);
 * guard.restore();
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function guardLoopback(): { offLoopback: string[]; loopbackCalls: () => number; restore: () => void } {
  const real = globalThis.fetch;
  const offLoopback: string[] = [];
  let loopback = 0;
  const guarded = (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!LOOPBACK.has(url.hostname)) {
      offLoopback.push(url.origin);
      return Promise.reject(new Error(`test tried to leave loopback: ${url.origin}`));
    }
    loopback++;
    return real(input, init);
  };
  globalThis.fetch = Object.assign(guarded, { preconnect: real.preconnect }) as typeof fetch;
  return { offLoopback, loopbackCalls: () => loopback, restore: () => void (globalThis.fetch = real) };
}

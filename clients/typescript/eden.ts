/**
 * @module clients/typescript/eden
 * The typed TypeScript client: Elysia's Eden Treaty over the app's own type, so
 * every path, query parameter and response body is checked by the compiler
 * against the server's schemas (no generated code). `App` is the type of the
 * whole application (src/app.ts).
 *
 * @example
 * import { createClient } from 'breakline/clients/typescript/eden';
 * const api = createClient('http://127.0.0.1:3000');
 * const { data, error } = await api.api.bars.get({ query: { symbol: 'AAPL', range: '1mo' } });
 * data?.bars.at(-1)?.close; // a number, typed
 */
import { treaty } from '@elysiajs/eden';
import type { App } from '../../src/app';

export type { App };

/** A Treaty client of a running server at `baseUrl` (e.g. `http://127.0.0.1:3000`). */
export function createClient(baseUrl: string, options: Parameters<typeof treaty<App>>[1] = {}) {
  return treaty<App>(baseUrl, options);
}

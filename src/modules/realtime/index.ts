/**
 * @module modules/realtime — the Realtime tag: GET /api/stream (Server-Sent Events).
 * The response is exempt from the server's idle timeout (`server.timeout(request, 0)`):
 * a quiet stream is not a dead one. A client the hub drops for not reading gets
 * a one-second timeout instead, which closes its socket.
 */
import { Elysia } from 'elysia';
import { clientAddressOf } from '../../plugins/client-address';
import type { Services } from '../../services';
import { REALTIME_DOCS, StreamHeaders, StreamQuery } from './model';
import { openStream } from './service';

type ServerLike = { timeout?(request: Request, seconds: number): void; requestIP?(request: Request): { address: string } | null } | null;

export function realtimeModule(services: Services) {
  const { hub, marketData, config } = services;
  const deps = { hub, marketData, maxSymbols: config.stream.maxSymbols };
  const clientAddress = clientAddressOf(config.trustProxy);
  return new Elysia({ name: 'breakline/realtime' }).get(
    '/api/stream',
    async ({ query, headers, request, server }) => {
      const socket = server as ServerLike;
      socket?.timeout?.(request, 0);
      // Public stream; a valid session or key (resolved once per request, as the rate limiter did)
      // makes it the user's: their own alerts carry the rule details, and the connection cap counts per user.
      const signedIn = await services.auth.authenticator.principalOf(request);
      return openStream(deps, {
        query,
        lastEventIdHeader: headers['last-event-id'],
        principal: signedIn ? { userId: signedIn.userId } : null,
        ip: clientAddress(request, socket),
        onDrop: () => socket?.timeout?.(request, 1),
      });
    },
    { query: StreamQuery, headers: StreamHeaders, detail: REALTIME_DOCS.stream },
  );
}

/** @module modules/watchlists — /api/watchlists: a user's watchlists (reads: session or API key; writes: session). */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { idempotency } from '../../plugins/idempotency';
import type { Services } from '../../services';
import { createdWithErrors, jsonBody } from '../shared/account';
import { withErrors } from '../shared/params';
import { AddSymbolsBody, CreateWatchlistBody, RenameWatchlistBody, WATCHLIST_DOCS, WatchlistPage, WatchlistParams, WatchlistQuery, WatchlistSchema, WatchlistSymbolParams } from './model';
import { addSymbols, createWatchlist, deleteWatchlist, getWatchlist, listWatchlists, removeSymbol, renameWatchlist } from './service';
import { bodyLimit } from '../../plugins/body-limit';

export function watchlistsModule(services: Services) {
  const limit = services.config.account.bodyLimitBytes;
  return new Elysia({ name: 'breakline/watchlists' })
    .use(bodyLimit)
    .use(auth(services.auth.authenticator))
    .use(idempotency(services))
    .get('/api/watchlists', ({ principal, query }) => listWatchlists(services, principal, query), {
      auth: 'GET /api/watchlists',
      query: WatchlistQuery,
      response: withErrors(WatchlistPage, 400, 401, 429),
      detail: { ...WATCHLIST_DOCS.list },
    })
    .post(
      '/api/watchlists',
      async ({ principal, body, set }) => {
        set.status = 201;
        return createWatchlist(services, principal, body);
      },
      { auth: 'POST /api/watchlists', idempotent: true, ...jsonBody(limit, CreateWatchlistBody), response: createdWithErrors(WatchlistSchema, 400, 401, 403, 409, 413, 429), detail: { ...WATCHLIST_DOCS.create } },
    )
    .get('/api/watchlists/:id', ({ principal, params }) => getWatchlist(services, principal, params.id), {
      auth: 'GET /api/watchlists/:id',
      params: WatchlistParams,
      response: withErrors(WatchlistSchema, 400, 401, 404, 429),
      detail: { ...WATCHLIST_DOCS.get },
    })
    .patch('/api/watchlists/:id', ({ principal, params, body }) => renameWatchlist(services, principal, params.id, body), {
      auth: 'PATCH /api/watchlists/:id',
      params: WatchlistParams,
      ...jsonBody(limit, RenameWatchlistBody),
      response: withErrors(WatchlistSchema, 400, 401, 403, 404, 413, 429),
      detail: { ...WATCHLIST_DOCS.rename },
    })
    .delete('/api/watchlists/:id', ({ principal, params }) => deleteWatchlist(services, principal, params.id), {
      auth: 'DELETE /api/watchlists/:id',
      params: WatchlistParams,
      response: withErrors(WatchlistSchema, 400, 401, 403, 404, 409, 429),
      detail: { ...WATCHLIST_DOCS.delete },
    })
    .post('/api/watchlists/:id/symbols', ({ principal, params, body }) => addSymbols(services, principal, params.id, body), {
      auth: 'POST /api/watchlists/:id/symbols',
      idempotent: true,
      params: WatchlistParams,
      ...jsonBody(limit, AddSymbolsBody),
      response: withErrors(WatchlistSchema, 400, 401, 403, 404, 409, 413, 429),
      detail: { ...WATCHLIST_DOCS.addSymbols },
    })
    .delete('/api/watchlists/:id/symbols/:symbol', ({ principal, params }) => removeSymbol(services, principal, params.id, params.symbol), {
      auth: 'DELETE /api/watchlists/:id/symbols/:symbol',
      params: WatchlistSymbolParams,
      response: withErrors(WatchlistSchema, 400, 401, 403, 404, 429),
      detail: { ...WATCHLIST_DOCS.removeSymbol },
    });
}

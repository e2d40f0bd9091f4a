/** @module modules/market — the Market Data tag: bars, snapshots, sector rotation, macro calendar. */
import { Elysia, t } from 'elysia';
import { versioning } from '../../plugins/versioning';
import type { FastBody, FastRoute } from '../../plugins/fast-path';
import type { HeldRef } from '../../market-data';
import type { Services } from '../../services';
import { PageMetaSchema, PageQuery, readPage } from '../../pagination';
import { ErrorSchema, jsonResponse, withErrors } from '../shared/params';
import { BarsQuery, BarsResponse, BarsRouteQuery, MacroCalendarQuery, MacroCalendarResponse, MARKET_DOCS, SectorRotationResponse, SectorRotationRow, SnapshotQuery, SnapshotResponse } from './model';
import { macroCalendar } from './macro';
import { sectorRotation, sectorRotationPage } from './rotation';
import { barsAnswer } from './bulk';
import { barsJson, barsRef, heldBarsJson, snapshotBody } from './service';

const SectorRotationPage = t.Composite([SectorRotationResponse, t.Object({ items: t.Array(SectorRotationRow), pagination: PageMetaSchema })], { title: 'SectorRotationPage' });

export function marketModule(services: Services) {
  const { marketData } = services;
  return new Elysia({ name: 'breakline/market' })
    .use(versioning(services.config.apiDefaultVersion))
    .get('/api/bars', ({ query, apiVersion, request, set }) => barsAnswer(marketData, query, apiVersion, request, set.headers as Record<string, string>), {
      query: BarsRouteQuery,
      // Spelled out per status (withErrors' record type would hide it): the app's type, and the Eden client over it, carry the answer's shape.
      response: { 200: BarsResponse, 400: ErrorSchema, 404: ErrorSchema, 406: ErrorSchema, 429: ErrorSchema },
      detail: MARKET_DOCS.bars,
    })
    // Serialised here, not by Elysia: a plain object would be checked and encoded against the response schema per request.
    .get('/api/snapshot', async ({ query }) => jsonResponse((await snapshotBody(marketData, query.symbol)).text, false), {
      query: SnapshotQuery,
      response: { 200: SnapshotResponse, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
      detail: MARKET_DOCS.snapshot,
    })
    .get('/api/sector-rotation', () => sectorRotation(marketData), {
      response: withErrors(SectorRotationResponse, 429),
      detail: MARKET_DOCS.sectorRotation,
    })
    .get('/api/sector-rotation/v2', ({ query }) => sectorRotationPage(marketData, readPage(query)), {
      query: t.Object(PageQuery),
      response: withErrors(SectorRotationPage, 400, 429),
      detail: MARKET_DOCS.sectorRotationPage,
    })
    .get('/api/macro/calendar', ({ query }) => macroCalendar(services.config.macroCalendar, query), {
      query: MacroCalendarQuery,
      response: withErrors(MacroCalendarResponse, 400, 404, 429),
      detail: MARKET_DOCS.macroCalendar,
    });
}

/** /api/bars and /api/snapshot on the fast path (plugins/fast-path): the same schemas and service functions. */
export function marketFastRoutes({ marketData }: Services): FastRoute<never>[] {
  // The last held answer's FastBody, given again while the text is the same (nothing made per request).
  let last: FastBody = { text: '', held: true };
  const bars: FastRoute<typeof BarsQuery.static, HeldRef> = {
    path: '/api/bars',
    keys: ['symbol', 'range', 'timeframe', 'from', 'to'],
    prepare: (query) => barsRef(marketData, query),
    answer: (query, apiVersion, ref) => {
      // A bulk read (every session, paged, with its Link header) is the route's (modules/market/bulk).
      if (query.range === 'max') return null;
      const held = heldBarsJson(marketData, query, apiVersion, ref);
      if (held === undefined) return barsJson(marketData, query, apiVersion).then((text) => ({ text, held: true }));
      if (held !== last.text) last = { text: held, held: true };
      return last;
    },
  };
  const quote: FastRoute<typeof SnapshotQuery.static> = {
    path: '/api/snapshot',
    keys: ['symbol'],
    // A SnapshotBody is a held FastBody with its ETag (nothing made per request).
    answer: (query) => snapshotBody(marketData, query.symbol),
  };
  return [bars, quote] as FastRoute<never>[];
}

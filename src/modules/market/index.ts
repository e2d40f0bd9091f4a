/** @module modules/market — the Market Data tag: bars, snapshots, sector rotation, macro calendar. */
import { Elysia, t } from 'elysia';
import { AppError } from '../../errors';
import { versioning } from '../../plugins/versioning';
import type { Services } from '../../services';
import { PageMetaSchema, PageQuery, paginateList, readPage } from '../../pagination';
import { jsonResponse, withErrors } from '../params';
import { BarsQuery, BarsResponse, MacroCalendarQuery, MacroCalendarResponse, SectorRotationResponse, SectorRotationRow, SnapshotQuery, SnapshotResponse } from './model';
import { macroCalendar } from './macro';
import { sectorRotation } from './rotation';
import { dailyBarsJson, snapshot } from './service';

export function marketModule(services: Services) {
  const { marketData } = services;
  return new Elysia({ name: 'breakline/market' })
    .use(versioning(services.config.apiDefaultVersion))
    .get(
      '/api/bars',
      async ({ query, apiVersion }) => {
        if (query.range === undefined && apiVersion !== '1.0.0') {
          throw new AppError('invalid_parameter', `Query parameter 'range' is required from API-Version 1.1.0 (one of: 1mo, 3mo, 6mo)`);
        }
        // Served pre-serialised (see dailyBarsJson); BarsResponse still documents and types it.
        return jsonResponse(await dailyBarsJson(marketData, query.symbol, query.range ?? '6mo'));
      },
      {
        query: BarsQuery,
        response: withErrors(BarsResponse, 400, 404, 429),
        detail: {
          tags: ['Market Data'],
          summary: 'Daily OHLCV bars',
          description:
            'Daily bars of a symbol, newest last: 1mo ≈ 21, 3mo ≈ 63, 6mo ≈ 126 bars. `range` defaults to 6mo under API-Version 1.0.0 and is required from 1.1.0. 404 for a well-formed symbol the provider does not know.',
        },
      },
    )
    .get('/api/snapshot', ({ query }) => snapshot(marketData, query.symbol), {
      query: SnapshotQuery,
      response: withErrors(SnapshotResponse, 400, 404, 429),
      detail: {
        tags: ['Market Data'],
        summary: 'Latest quote',
        description: 'Price, session volume, change against the previous close, day range, quote time and data source. Ticks while the market is open.',
      },
    })
    .get('/api/sector-rotation', () => sectorRotation(marketData), {
      response: withErrors(SectorRotationResponse, 429),
      detail: {
        tags: ['Market Data'],
        summary: 'Sector rotation (RRG)',
        description:
          'The 11 SPDR sector funds against SPY on a Relative Rotation Graph: RS-Ratio, RS-Momentum, quadrant, a weekly tail, and 1w/1m/3m performance relative to the benchmark. `method` states the formulas.',
      },
    })
    .get(
      '/api/sector-rotation/v2',
      async ({ query }) => {
        const rotation = await sectorRotation(marketData);
        const ascending = [...rotation.sectors].reverse(); // ascending RS-Ratio; desc = strongest first
        return { ...rotation, ...paginateList(ascending, readPage(query)) };
      },
      {
        query: t.Object(PageQuery),
        response: withErrors(
          t.Composite([SectorRotationResponse, t.Object({ items: t.Array(SectorRotationRow), pagination: PageMetaSchema })], { title: 'SectorRotationPage' }),
          400,
          429,
        ),
        detail: {
          tags: ['Market Data'],
          summary: 'Sector rotation, paginated',
          description:
            'The sector-rotation answer with the `{ items, pagination }` envelope added; items are ordered by RS-Ratio (`order=desc`, the default, puts the strongest first). The legacy keys stay.',
        },
      },
    )
    .get(
      '/api/macro/calendar',
      ({ query }) => {
        if (!services.config.macroCalendar) throw new AppError('not_found', 'The macro calendar is not available in this deployment (MACRO_CALENDAR=off)');
        if (query.from && query.to && query.from > query.to) throw new AppError('invalid_parameter', `Query parameter 'from' (${query.from}) is after 'to' (${query.to})`);
        return macroCalendar(query);
      },
      {
        query: MacroCalendarQuery,
        response: withErrors(MacroCalendarResponse, 400, 404, 429),
        detail: {
          tags: ['Market Data'],
          summary: 'Macro calendar',
          description:
            'Scheduled FOMC decisions (14:00 ET), CPI, Employment Situation and GDP releases (08:30 ET) from the agencies\' published schedules, the next release of each kind with its proximity, and how far each schedule reaches. 404 when the deployment runs with MACRO_CALENDAR=off.',
        },
      },
    );
}

/** @module modules/fundamentals — the Fundamentals tag: the earnings calendar and the share float. */
import { Elysia } from 'elysia';
import { readPage } from '../../pagination';
import type { Services } from '../../services';
import { withErrors } from '../shared/params';
import { EarningsQuery, EarningsResponse, FloatQuery, FloatResponse, FUNDAMENTALS_DOCS } from './model';
import { earnings, floatOf } from './service';

export function fundamentalsModule(services: Services) {
  const { marketData } = services;
  return new Elysia({ name: 'breakline/fundamentals' })
    .get('/api/earnings', ({ query }) => earnings(marketData, query.symbol, readPage(query)), {
      query: EarningsQuery,
      response: withErrors(EarningsResponse, 400, 404, 429),
      detail: FUNDAMENTALS_DOCS.earnings,
    })
    .get('/api/float', ({ query }) => floatOf(marketData, query.symbol), {
      query: FloatQuery,
      response: withErrors(FloatResponse, 400, 404, 429),
      detail: FUNDAMENTALS_DOCS.float,
    });
}

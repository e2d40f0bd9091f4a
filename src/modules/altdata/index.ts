/** @module modules/altdata — the AltData tag: insider transactions, short interest, options flow, filings, social mentions. */
import { Elysia } from 'elysia';
import { readPage } from '../../pagination';
import type { Services } from '../../services';
import { withErrors } from '../shared/params';
import { insiderActivity, insiderPage } from './insider';
import {
  ALTDATA_DOCS,
  FilingsPage,
  FilingsQuery,
  FlowQuery,
  InsiderPage,
  InsiderPageQuery,
  InsiderQuery,
  InsiderResponse,
  OptionsFlowResponse,
  ShortInterestPage,
  ShortInterestPageQuery,
  ShortInterestResponse,
  SocialPage,
  SocialQuery,
  SymbolPath,
} from './model';
import { filingsPage, optionsFlowOf, socialPage } from './service';
import { latestShortInterest, shortInterestPage } from './short-interest';

export function altdataModule(services: Services) {
  const { marketData } = services;
  return new Elysia({ name: 'breakline/altdata' })
    .get('/api/altdata/insider', ({ query }) => insiderActivity(marketData, query.symbol, query.windowDays), {
      query: InsiderQuery,
      response: withErrors(InsiderResponse, 400, 404, 429),
      detail: ALTDATA_DOCS.insider,
    })
    .get('/api/insider', ({ query }) => insiderPage(marketData, query.symbol, query.windowDays, readPage(query)), {
      query: InsiderPageQuery,
      response: withErrors(InsiderPage, 400, 404, 429),
      detail: ALTDATA_DOCS.insiderPage,
    })
    .get('/api/altdata/short-interest', ({ query }) => latestShortInterest(marketData, query.symbol), {
      query: FlowQuery,
      response: withErrors(ShortInterestResponse, 400, 404, 429),
      detail: ALTDATA_DOCS.shortInterest,
    })
    .get('/api/short-interest', ({ query }) => shortInterestPage(marketData, query.symbol, readPage(query)), {
      query: ShortInterestPageQuery,
      response: withErrors(ShortInterestPage, 400, 404, 429),
      detail: ALTDATA_DOCS.shortInterestPage,
    })
    .get('/api/altdata/options-flow', ({ query }) => optionsFlowOf(marketData, query.symbol), {
      query: FlowQuery,
      response: withErrors(OptionsFlowResponse, 400, 404, 429),
      detail: ALTDATA_DOCS.optionsFlow,
    })
    .get('/api/filings/:symbol', ({ params, query }) => filingsPage(marketData, params.symbol, query.form, readPage(query)), {
      params: SymbolPath,
      query: FilingsQuery,
      response: withErrors(FilingsPage, 400, 404, 429),
      detail: ALTDATA_DOCS.filings,
    })
    .get('/api/social/:symbol', ({ params, query }) => socialPage(marketData, params.symbol, query.days, readPage(query)), {
      params: SymbolPath,
      query: SocialQuery,
      response: withErrors(SocialPage, 400, 404, 429),
      detail: ALTDATA_DOCS.social,
    });
}

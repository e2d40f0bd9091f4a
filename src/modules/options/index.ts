/** @module modules/options — the Options tag: options strategy analysis for a breakout plan. */
import { Elysia } from 'elysia';
import type { Services } from '../../services';
import { withErrors } from '../shared/params';
import { AnalyzeQuery, AnalyzeResponse, OPTIONS_DOCS } from './model';
import { analyzeOptions } from './service';

export function optionsModule(services: Services) {
  return new Elysia({ name: 'breakline/options' }).get('/api/options/analyze', ({ query }) => analyzeOptions(services.marketData, services.pool, query), {
    query: AnalyzeQuery,
    response: withErrors(AnalyzeResponse, 400, 404, 429),
    detail: OPTIONS_DOCS.analyze,
  });
}

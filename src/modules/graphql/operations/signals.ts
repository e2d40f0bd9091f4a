/**
 * @module modules/graphql/operations/signals
 * The GraphQL fields over the signal reads: /api/breakouts (its answer as
 * REST gives it; `signals` in graphql/schema is the cursor connection over
 * the same ranking), the history, confluence, forecast and universe scan.
 */
import { confluenceOf } from '../../signals/confluence';
import { forecastOf } from '../../signals/forecast';
import { signalHistory } from '../../signals/history';
import { BreakoutsQuery, BreakoutsResponse, ConfluenceQuery, ConfluenceResponse, ForecastQuery, ForecastResponse, HistoryQuery, HistoryResponse, UniverseScanQuery, UniverseScanResponse } from '../../signals/model';
import { breakouts } from '../../signals/service';
import { scanUniverse } from '../../signals/universe';
import { operation, type Operation } from '../operation';

export const SIGNAL_QUERIES: Record<string, Operation> = {
  breakouts: operation({
    route: 'GET /api/breakouts', description: 'the ranked signals, alert lists, run history (same answer, same paging); `signals` is the cursor connection over them',
    args: BreakoutsQuery,
    result: BreakoutsResponse,
    run: ({ services }, q) => breakouts(services, q),
    plain: true,
  }),
  signalHistory: operation({ route: 'GET /api/breakouts/history', args: HistoryQuery, result: HistoryResponse, run: ({ services }, q) => signalHistory(services.scans, q) }),
  confluence: operation({ route: 'GET /api/confluence', args: ConfluenceQuery, result: ConfluenceResponse, run: ({ services }, q) => confluenceOf(services, q) }),
  forecast: operation({ route: 'GET /api/forecast', args: ForecastQuery, result: ForecastResponse, run: ({ services }, q) => forecastOf(services, q) }),
  universeScan: operation({ route: 'GET /api/universe/scan', args: UniverseScanQuery, result: UniverseScanResponse, run: ({ services }, q) => scanUniverse(services, q) }),};

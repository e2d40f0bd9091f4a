/**
 * @module modules/graphql/operations/market
 * The GraphQL fields over the market-data reads: bars, snapshot, sector
 * rotation, macro calendar, fundamentals, alternative data and the options
 * analysis.
 */
import { readPage } from '../../../pagination';
import { insiderActivity } from '../../altdata/insider';
import { FlowQuery, InsiderQuery, InsiderResponse, OptionsFlowResponse, ShortInterestResponse } from '../../altdata/model';
import { optionsFlowOf } from '../../altdata/service';
import { latestShortInterest } from '../../altdata/short-interest';
import { EarningsQuery, EarningsResponse, FloatQuery, FloatResponse } from '../../fundamentals/model';
import { earnings, floatOf } from '../../fundamentals/service';
import { macroCalendar } from '../../market/macro';
import { BarsQuery, BarsResponse, MacroCalendarQuery, MacroCalendarResponse, SectorRotationResponse, SnapshotQuery, SnapshotResponse } from '../../market/model';
import { sectorRotation } from '../../market/rotation';
import { barsJson, snapshot } from '../../market/service';
import { AnalyzeQuery, AnalyzeResponse } from '../../options/model';
import { analyzeOptions } from '../../options/service';
import { NONE, operation, parsed, type Operation } from '../operation';

export const MARKET_QUERIES: Record<string, Operation> = {
  bars: operation({ route: 'GET /api/bars', description: 'API-Version applies as in REST', args: BarsQuery, result: BarsResponse, run: ({ services, apiVersion }, q) => parsed(barsJson(services.marketData, q, apiVersion)), plain: true }),
  snapshot: operation({ route: 'GET /api/snapshot', args: SnapshotQuery, result: SnapshotResponse, run: ({ services }, q) => snapshot(services.marketData, q.symbol) }),
  sectorRotation: operation({ route: 'GET /api/sector-rotation', args: NONE, result: SectorRotationResponse, run: ({ services }) => sectorRotation(services.marketData) }),
  macroCalendar: operation({ route: 'GET /api/macro/calendar', args: MacroCalendarQuery, result: MacroCalendarResponse, run: ({ services }, q) => macroCalendar(services.config.macroCalendar, q) }),
  earnings: operation({ route: 'GET /api/earnings', args: EarningsQuery, result: EarningsResponse, run: ({ services }, q) => earnings(services.marketData, q.symbol, readPage(q)) }),
  float: operation({ route: 'GET /api/float', args: FloatQuery, result: FloatResponse, run: ({ services }, q) => floatOf(services.marketData, q.symbol) }),
  insider: operation({ route: 'GET /api/altdata/insider', args: InsiderQuery, result: InsiderResponse, run: ({ services }, q) => insiderActivity(services.marketData, q.symbol, q.windowDays) }),
  optionsFlow: operation({ route: 'GET /api/altdata/options-flow', args: FlowQuery, result: OptionsFlowResponse, run: ({ services }, q) => optionsFlowOf(services.marketData, q.symbol) }),
  shortInterest: operation({ route: 'GET /api/altdata/short-interest', args: FlowQuery, result: ShortInterestResponse, run: ({ services }, q) => latestShortInterest(services.marketData, q.symbol) }),
  optionsAnalysis: operation({ route: 'GET /api/options/analyze', args: AnalyzeQuery, result: AnalyzeResponse, run: ({ services }, q) => analyzeOptions(services.marketData, services.pool, q) }),};

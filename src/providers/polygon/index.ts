/** @module providers/polygon — Polygon (Massive): REST history, summaries and snapshots (rest.ts, parse.ts), the provider (provider.ts). */
import { PolygonProvider, type PolygonProviderOptions } from './provider';

export { DAILY_SUMMARIES_KEPT, HISTORY_START, INTRADAY_DAYS, PolygonProvider, SUMMARY_SESSIONS, type PolygonProviderOptions } from './provider';
export { PolygonRest, type PolygonTimespan } from './rest';

export function createPolygonProvider(options: PolygonProviderOptions): PolygonProvider {
  return new PolygonProvider(options);
}

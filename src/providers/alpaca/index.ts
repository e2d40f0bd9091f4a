/** @module providers/alpaca — Alpaca Market Data v2: REST history and snapshots (rest.ts, parse.ts), the provider (provider.ts). */
import { AlpacaProvider, type AlpacaProviderOptions } from './provider';

export { AlpacaProvider, HISTORY_START, INTRADAY_DAYS, type AlpacaProviderOptions } from './provider';
export { AlpacaRest, PAGE_LIMIT, type AlpacaAdjustment, type AlpacaFeed } from './rest';

export function createAlpacaProvider(options: AlpacaProviderOptions): AlpacaProvider {
  return new AlpacaProvider(options);
}

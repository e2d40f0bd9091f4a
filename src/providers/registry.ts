/**
 * @module providers/registry
 * Maps `MARKET_DATA_PROVIDER` to a provider factory. Adding a provider means a
 * folder under providers/ and one line here.
 */
import type { Config } from '../config';
import { createCsvProvider } from './csv';
import { createSyntheticProvider } from './synthetic';
import type { MarketDataProvider } from './types';

const factories: Record<Config['marketDataProvider'], (config: Config) => MarketDataProvider> = {
  synthetic: (config) => createSyntheticProvider({ seed: config.syntheticSeed }),
  csv: (config) => createCsvProvider({ dir: config.csvDir! }),
};

export function createProvider(config: Config): MarketDataProvider {
  return factories[config.marketDataProvider](config);
}

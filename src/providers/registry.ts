/**
 * @module providers/registry
 * Maps `MARKET_DATA_PROVIDER` to a bar provider and composes it with the
 * configured capability sources: SEC EDGAR (`EDGAR_USER_AGENT`) for insiders,
 * filings and shares outstanding, FINRA (`FINRA_SHORT_INTEREST=on`) for short
 * interest. Each capability is answered by the first source that has it, then
 * by the bar provider (providers/compose). Adding a provider means a folder
 * under providers/ and one line here.
 */
import type { Config } from '../config';
import { composeProvider } from './compose';
import { createCsvProvider } from './csv';
import { createEdgarSource } from './edgar';
import { createFinraSource } from './finra';
import { createSyntheticProvider } from './synthetic';
import type { CapabilitySource, MarketDataProvider } from './types';
import { createYahooProvider } from './yahoo';

const factories: Record<Config['marketDataProvider'], (config: Config) => MarketDataProvider> = {
  synthetic: (config) => createSyntheticProvider({ seed: config.syntheticSeed }),
  csv: (config) => createCsvProvider({ dir: config.csvDir! }),
  yahoo: (config) => createYahooProvider(config.yahoo),
};

/** The capability sources the configuration turns on, in the order they are asked. */
export function capabilitySources(config: Config): CapabilitySource[] {
  const sources: CapabilitySource[] = [];
  if (config.edgar) sources.push(createEdgarSource(config.edgar));
  if (config.finra) sources.push(createFinraSource(config.finra));
  return sources;
}

export function createProvider(config: Config): MarketDataProvider {
  const base = factories[config.marketDataProvider](config);
  const sources = capabilitySources(config);
  return sources.length ? composeProvider(base, sources) : base;
}

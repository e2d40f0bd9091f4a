/**
 * @module providers/registry
 * Maps `MARKET_DATA_PROVIDER` to a bar provider and composes it with the
 * configured capability sources: SEC EDGAR (`EDGAR_USER_AGENT`) for insiders,
 * filings and shares outstanding, FINRA (`FINRA_SHORT_INTEREST=on`) for short
 * interest. Each capability is answered by the first source that has it, then
 * by the bar provider (providers/compose). Adding a provider means a folder
 * under providers/ and one line here.
 *
 * `alpaca` and `polygon` carry their live feed (providers/live) unless
 * `LIVE_STREAM=off`; the server starts it.
 */
import type { Config } from '../config';
import { createLogger, type Logger } from '../log';
import { createAlpacaProvider } from './alpaca';
import { createPolygonProvider } from './polygon';
import { composeProvider } from './compose';
import { createCsvProvider } from './csv';
import { createEdgarSource } from './edgar';
import { createFinraSource } from './finra';
import { createSyntheticProvider } from './synthetic';
import type { CapabilitySource, MarketDataProvider } from './types';
import { createYahooProvider } from './yahoo';

/** How the live feed of a streaming provider runs (config `LIVE_*`). */
function liveOptions(config: Config, log: Logger) {
  const { live } = config;
  return { log, silentMs: live.silentSeconds * 1000, tradeLimit: live.tradeSymbols ?? undefined };
}

const factories: Record<Config['marketDataProvider'], (config: Config, log: Logger) => MarketDataProvider> = {
  synthetic: (config) => createSyntheticProvider({ seed: config.syntheticSeed }),
  csv: (config) => createCsvProvider({ dir: config.csvDir! }),
  yahoo: (config) => createYahooProvider(config.yahoo),
  alpaca: (config, log) => {
    const { streamUrl, barsFrom, ...alpaca } = config.alpaca!;
    const live = config.live.stream ? { ...liveOptions(config, log), streamUrl, barsFromTrades: barsFrom === 'trades' } : undefined;
    return createAlpacaProvider({ ...alpaca, extendedHours: config.live.extendedHours, live });
  },
  polygon: (config, log) => {
    const { streamUrl, barsFrom, ...polygon } = config.polygon!;
    const live = config.live.stream ? { ...liveOptions(config, log), streamUrl, barsFromTrades: barsFrom === 'trades' } : undefined;
    return createPolygonProvider({ ...polygon, extendedHours: config.live.extendedHours, live });
  },
};

/** The capability sources the configuration turns on, in the order they are asked. */
export function capabilitySources(config: Config): CapabilitySource[] {
  const sources: CapabilitySource[] = [];
  if (config.edgar) sources.push(createEdgarSource(config.edgar));
  if (config.finra) sources.push(createFinraSource(config.finra));
  return sources;
}

export function createProvider(config: Config, options: { log?: Logger } = {}): MarketDataProvider {
  const base = factories[config.marketDataProvider](config, options.log ?? createLogger(config.logLevel));
  const sources = capabilitySources(config);
  return sources.length ? composeProvider(base, sources) : base;
}

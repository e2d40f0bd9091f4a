/**
 * The synthetic market over a small universe (the benchmarks and sector funds
 * plus the first `stocks` S&P 500 members), so a test can persist a real scan
 * run in seconds rather than scanning 500+ symbols.
 */
import type { MarketDataProvider } from '../../src/providers/types';
import { syntheticMarket } from './app';

export async function smallMarket(stocks = 60): Promise<MarketDataProvider> {
  const real = syntheticMarket();
  const all = await real.universe();
  const members = all.filter((i) => i.indices.includes('sp500')).slice(0, stocks);
  const keep = new Set([...all.filter((i) => !i.indices.includes('sp500') && !i.indices.includes('nasdaq100')), ...members].map((i) => i.symbol));
  const universe = all.filter((i) => keep.has(i.symbol));
  return Object.assign(Object.create(Object.getPrototypeOf(real)), real, { universe: async () => universe });
}

/**
 * @module providers/synthetic
 * The `synthetic` provider (`MARKET_DATA_PROVIDER=synthetic`, the default): a
 * deterministic, seeded market simulator over the real index membership.
 * Regime-switching, volatility-clustering, fat-tailed returns on market and
 * sector factors; gaps, earnings jumps and realistic volume; chart patterns
 * steered into the path that break out or fail; quotes that tick during
 * simulated New York sessions. Every payload says `source: "synthetic"`.
 *
 * Layout: `rng.ts` (randomness), `garch.ts` and `market.ts` (factors and
 * regimes), `profile.ts` (each symbol's character), `earnings.ts` (report
 * schedule), `patterns.ts` and `episodes.ts` (pattern shapes and steering),
 * `paths.ts` (daily bars), `intraday.ts` and `ticks.ts` (1h/4h bars and
 * quotes), `quote.ts` and `provider.ts` (the provider).
 *
 * @example
 * const market = createSyntheticProvider({ seed: 42, now: () => Date.UTC(2026, 10, 20, 18) });
 * const spy = await market.bars({ symbol: 'SPY', timeframe: 'daily' });
 * spy.ts.length; // => every session from 2019-01-02, today's partial bar last
 */
import { loadInstruments } from '../universe';
import { earningsDatesOf } from './earnings';
import type { PatternRecord } from './records';
import { DEFAULT_SEED, SyntheticProvider, type SyntheticProviderOptions } from './provider';
import { symbolProfile } from './profile';

export { DEFAULT_SEED, INTRADAY_SESSIONS, SyntheticProvider, type SyntheticProviderOptions } from './provider';
export { type PatternOutcome, type PatternRecord } from './records';
export { PATTERN_TYPES, type PatternDirection, type PatternType } from './patterns';
export { HISTORY_START, REGIMES, type Regime } from './market';

/** A synthetic provider; constructing it does no simulation (that happens on first use). */
export function createSyntheticProvider(options: SyntheticProviderOptions = {}): SyntheticProvider {
  return new SyntheticProvider(options);
}

/**
 * Earnings report dates of `symbol` under `seed`, from 2019 to the calendar's
 * end; empty for funds and unknown symbols. The reaction shows in that
 * session's opening gap and volume.
 * @example
 * earningsDates('AAPL').slice(0, 2); // => ['2019-01-23', '2019-04-24']
 */
export function earningsDates(symbol: string, options: { seed?: number } = {}): string[] {
  const instrument = loadInstruments().find((i) => i.symbol === symbol.toUpperCase());
  return instrument ? earningsDatesOf(symbolProfile(options.seed ?? DEFAULT_SEED, instrument)) : [];
}

/**
 * The chart patterns injected into `symbol`'s path under `seed`, as known at
 * the last session closed by `now` (see `SyntheticProvider.injectedPatterns`).
 * @throws {ProviderError} `unknown_symbol` for a symbol outside the universe.
 */
export function injectedPatterns(symbol: string, options: SyntheticProviderOptions = {}): PatternRecord[] {
  return new SyntheticProvider(options).injectedPatterns(symbol);
}

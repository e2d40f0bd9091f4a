/**
 * @module test/helpers/cluster/market
 * The cluster's market: a directory of CSV files (`MARKET_DATA_PROVIDER=csv`)
 * cut from the synthetic market (seed 42, up to now) for 16 symbols (6 in
 * CI's run, ./profile), daily, 1h and 4h. Realistic series with patterns that form and break, but a
 * universe small enough that a scan takes a fraction of a second and the
 * boot replay of the last two years (`REPLAY_ON_BOOT=on`) seconds to tens of
 * seconds on two busy cores — the full synthetic universe (500+ symbols) replays for
 * minutes. The files do not change while the suite runs, so after the first
 * scans new events come from alert rules the traffic creates.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIMEFRAMES } from '../../../src/domain/signal';
import { createSyntheticProvider } from '../../../src/providers/synthetic';
import { PROFILE } from './profile';

/** The benchmark (SPY), QQQ, and large caps across sectors. */
const SYMBOLS = ['SPY', 'QQQ', 'AAPL', 'MSFT', 'NVDA', 'AMZN', 'META', 'TSLA', 'AVGO', 'JPM', 'LLY', 'UNH', 'COST', 'KO', 'NFLX', 'ORCL'] as const;
/** The market's symbols in this run (the profile's count of them). */
export const CLUSTER_SYMBOLS: readonly string[] = SYMBOLS.slice(0, PROFILE.symbols);

/** Writes `<SYMBOL>.csv`, `<SYMBOL>_1h.csv` and `<SYMBOL>_4h.csv` (providers/csv/files names) into `dir`. */
export async function writeClusterMarket(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const market = createSyntheticProvider({ seed: 42 });
  for (const symbol of CLUSTER_SYMBOLS) {
    for (const timeframe of TIMEFRAMES) {
      const bars = await market.bars({ symbol, timeframe });
      const when = (ts: number) => (timeframe === 'daily' ? new Date(ts).toISOString().slice(0, 10) : new Date(ts).toISOString());
      const lines = ['date,open,high,low,close,volume'];
      for (let i = 0; i < bars.ts.length; i++) lines.push(`${when(bars.ts[i]!)},${bars.open[i]},${bars.high[i]},${bars.low[i]},${bars.close[i]},${bars.volume[i]}`);
      writeFileSync(join(dir, `${symbol}${timeframe === 'daily' ? '' : `_${timeframe}`}.csv`), `${lines.join('\n')}\n`);
    }
  }
}

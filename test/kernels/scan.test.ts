import { describe, expect, it } from 'bun:test';
import { scanBars } from '../../src/kernels/scan';
import { createCsvProvider } from '../../src/providers/csv';
import { fixture } from '../helpers/fixtures';

const provider = createCsvProvider({ dir: fixture('daily_yf_dieperdev') });
const at = (ts: Float64Array, date: string) => ts.indexOf(Date.parse(`${date}T00:00:00Z`));

describe('symbol scan on real history', () => {
  it('reads no bar after asOf: the same findings with or without the later history', async () => {
    const bars = await provider.bars({ symbol: 'NVDA', timeframe: 'daily' });
    let found = 0;
    for (const date of ['2023-05-25', '2023-06-15', '2023-10-31', '2024-01-08']) {
      const asOf = at(bars.ts, date);
      expect(asOf).toBeGreaterThan(0);
      const full = scanBars(bars, { asOf, rsRank: 90, regime: null });
      const cut = await provider.bars({ symbol: 'NVDA', timeframe: 'daily', to: bars.ts[asOf] });
      const truncated = scanBars(cut, { asOf, rsRank: 90, regime: null });
      expect(JSON.stringify(truncated)).toBe(JSON.stringify(full));
      found += full.length;
    }
    expect(found).toBeGreaterThan(0); // 2023-10-31 finds nothing; the other days do
  });
});

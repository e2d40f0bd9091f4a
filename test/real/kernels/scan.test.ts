/** The symbol scan over a year of NVDA with SPY's market regime (daily_marketlab) beside it: the real-data run. */
import { describe, expect, it } from 'bun:test';
import { computeIndicators } from '../../../src/kernels/indicators';
import { TRANSITIONS } from '../../../src/kernels/lifecycle';
import { marketRegime } from '../../../src/kernels/regime';
import { scanBars } from '../../../src/kernels/scan';
import { createCsvProvider } from '../../../src/providers/csv';
import { sharedData } from '../../helpers/shared-data';

const provider = createCsvProvider({ dir: sharedData('daily_yf_dieperdev') });
const at = (ts: Float64Array, date: string) => ts.indexOf(Date.parse(`${date}T00:00:00Z`));

describe('symbol scan on real history (full history in shared/data)', () => {
  it('finds live setups across a year of one leader with scores in range, states allowed by DESIGN §4', async () => {
    const bars = await provider.bars({ symbol: 'NVDA', timeframe: 'daily' });
    const spy = await createCsvProvider({ dir: sharedData('daily_marketlab') }).bars({ symbol: 'SPY', timeframe: 'daily' });
    const spyInd = computeIndicators(spy);
    let total = 0;
    const states = new Set<string>();
    for (let asOf = at(bars.ts, '2023-01-03'); asOf <= at(bars.ts, '2023-12-29'); asOf++) {
      const regime = marketRegime(spy, spyInd, at(spy.ts, new Date(bars.ts[asOf]!).toISOString().slice(0, 10)), null);
      for (const f of scanBars(bars, { asOf, rsRank: 95, regime })) {
        total++;
        states.add(f.state);
        expect(f.score.finalScore).toBeGreaterThanOrEqual(0);
        expect(f.score.finalScore).toBeLessThanOrEqual(100);
        expect(f.score.confidence).toBeGreaterThanOrEqual(0);
        expect(f.score.confidence).toBeLessThanOrEqual(1);
        expect(f.detectedIndex).toBeLessThanOrEqual(asOf);
        expect(f.reasons.length).toBeGreaterThan(0);
        expect(Object.keys(TRANSITIONS)).toContain(f.state);
      }
    }
    expect(total).toBeGreaterThan(10); // NVDA's 2023 run produced many breakouts
    expect(total).toBeLessThan(250 * 6); // but not every detector every day
    expect([...states].every((s) => ['forming', 'triggered', 'confirmed'].includes(s))).toBe(true);
  });
});

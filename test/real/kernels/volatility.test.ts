/** Cone coverage of the volatility models on real history 2005–2026 (daily_marketlab): the real-data run. */
import { describe, expect, it } from 'bun:test';
import { coneCoverage, ewmaModel, fitGarch11, logReturns, varianceFilter } from '../../../src/kernels/volatility';
import { sharedData } from '../../helpers/shared-data';
import { history } from '../../kernels/patterns/builders';

const MARKETLAB = sharedData('daily_marketlab');

describe('cone coverage (full history in shared/data)', () => {
  it('on real history (2005–2026) the 20-day bands of both models hold close to their nominal share of moves', async () => {
    // Measured: 90% band 0.89–0.95 (GARCH), 0.86–0.91 (EWMA); 50% band 0.44–0.52.
    for (const symbol of ['SPY', 'AAPL', 'NVDA', 'XLE']) {
      const h = await history(MARKETLAB, symbol);
      const close = h.bars.close.subarray(h.at('2005-01-03'));
      const r = logReturns(close);
      const fit = fitGarch11(r);
      expect(fit.persistence).toBeGreaterThan(0.95);
      expect(fit.alpha).toBeGreaterThan(0.04);
      for (const model of [fit, ewmaModel()]) {
        const c = coneCoverage(close, varianceFilter(model, r), model, 20, 250, [[0.05, 0.95], [0.25, 0.75]]);
        expect(c.windows).toBeGreaterThan(5000);
        expect(c.inside[0]!.share!).toBeGreaterThan(0.84);
        expect(c.inside[0]!.share!).toBeLessThan(0.97);
        expect(c.inside[1]!.share!).toBeGreaterThan(0.42);
        expect(c.inside[1]!.share!).toBeLessThan(0.6);
      }
    }
    const spy = await history(MARKETLAB, 'SPY');
    const fit = fitGarch11(logReturns(spy.bars.close.subarray(spy.at('2005-01-03'))));
    expect(Math.sqrt(252 * fit.longRunVariance)).toBeGreaterThan(0.14);
    expect(Math.sqrt(252 * fit.longRunVariance)).toBeLessThan(0.24);
  });
});

/** GET /api/forecast on real history (daily_marketlab through the csv provider): the real-data run. */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { ForecastResponse } from '../../../src/modules/signals/model';
import { createCsvProvider } from '../../../src/providers/csv';
import { sliceSeries, type MarketDataProvider } from '../../../src/providers/types';
import { createTestContext, type TestContext } from '../../helpers/app';
import { sharedData } from '../../helpers/shared-data';

describe('GET /api/forecast on real history (csv provider)', () => {
  let full: TestContext;
  let cut: TestContext;
  const asOf = '2020-02-14';
  beforeAll(async () => {
    const csv = createCsvProvider({ dir: sharedData('daily_marketlab') });
    const end = Date.parse(`${asOf}T00:00:00Z`);
    // The same provider with nothing after asOf: what a forecast on that day could have seen.
    const truncated: MarketDataProvider = Object.assign(Object.create(csv), { bars: async (q: Parameters<MarketDataProvider['bars']>[0]) => sliceSeries(await csv.bars(q), -Infinity, end) });
    full = await createTestContext({ provider: csv });
    cut = await createTestContext({ provider: truncated });
  });
  afterAll(async () => {
    await full.close();
    await cut.close();
  });

  it('never reads a later bar: asOf on the full history equals the forecast on history that ends there', async () => {
    const a = (await full.json<ForecastResponse>(`/api/forecast?symbol=NVDA&asOf=${asOf}&horizon=30`)).body;
    const b = (await cut.json<ForecastResponse>(`/api/forecast?symbol=NVDA&asOf=${asOf}&horizon=30`)).body;
    expect(a.asOf).toBe(asOf);
    expect(a.cone).toEqual(b.cone);
    expect(a.volatility).toEqual(b.volatility);
    expect(a.calibration).toEqual(b.calibration);
    expect(a.activePattern).toEqual(b.activePattern);
  });

  it('gives SPY sensible numbers before the 2020 crash: ~13–20% vol, and the crash far outside the 20-day cone', async () => {
    const body = (await full.json<ForecastResponse>(`/api/forecast?symbol=SPY&asOf=${asOf}&horizon=20`)).body;
    expect(body.model).toBe('garch');
    expect(body.volatility.horizonAnnualized).toBeGreaterThan(0.08);
    expect(body.volatility.horizonAnnualized).toBeLessThan(0.2);
    expect(body.volatility.params.persistence).toBeGreaterThan(0.9);
    expect(body.calibration.band90).toBeGreaterThan(0.85);
    // 20 sessions later (2020-03-16) SPY closed about 25% lower: below the 5% quantile.
    const { bars } = await full.services.marketData.completeDaily('SPY');
    const i = bars.ts.indexOf(Date.parse('2020-03-16T00:00:00Z'));
    expect(body.cone[19]!.date).toBe('2020-03-16');
    expect(bars.close[i]!).toBeLessThan(body.quantiles.p5);
    const e = (await full.json<ForecastResponse>(`/api/forecast?symbol=SPY&asOf=${asOf}&horizon=20&model=ewma`)).body;
    expect(e.volatility.params).toMatchObject({ lambda: 0.94, persistence: 1 });
    expect(e.calibration.outOfSample).toBe(true);
  });
});

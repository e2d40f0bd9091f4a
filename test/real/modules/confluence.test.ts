/** GET /api/confluence on real history (daily_marketlab through the csv provider): the real-data run. */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { confluence } from '../../../src/kernels/confluence';
import { alignByTime, weeklyBars } from '../../../src/kernels/resample';
import type { ConfluenceResponse } from '../../../src/modules/signals/model';
import { createCsvProvider } from '../../../src/providers/csv';
import { createTestContext, type TestContext } from '../../helpers/app';
import { sharedData } from '../../helpers/shared-data';

describe('GET /api/confluence on real history (csv provider)', () => {
  let ctx: TestContext;
  const provider = createCsvProvider({ dir: sharedData('daily_marketlab') });
  beforeAll(async () => {
    ctx = await createTestContext({ provider });
  });
  afterAll(() => ctx.close());

  it('reads NVDA on 2023-06-30 as bullish, exactly as the kernel does on the same bars', async () => {
    const { status, body } = await ctx.json<ConfluenceResponse>('/api/confluence?symbol=NVDA&asOf=2023-06-30&lookback=50');
    expect(status).toBe(200);
    expect(body.asOf).toBe('2023-06-30T00:00:00.000Z');
    expect(body.direction).toBe('bullish');

    const nvda = await provider.bars({ symbol: 'NVDA', timeframe: 'daily' });
    const spy = await provider.bars({ symbol: 'SPY', timeframe: 'daily' });
    const asOf = nvda.ts.indexOf(Date.parse('2023-06-30T00:00:00Z'));
    const direct = confluence({ bars: nvda, benchmarkClose: alignByTime(nvda.ts, spy.ts, spy.close), higherTimeframe: weeklyBars(nvda), asOf, lookback: 50, rsRank: null });
    expect(body.score).toBe(direct.score);
    expect(body.factors).toEqual(direct.factors);
  });

  it('gives the same answer for a date whatever the provider holds after it', async () => {
    const a = (await ctx.json<ConfluenceResponse>('/api/confluence?symbol=META&asOf=2022-10-27&lookback=50')).body;
    expect(a.direction).toBe('bearish');
    expect(a.factors.find((f) => f.name === 'relativeStrength')!.vote).toBe(-1);
  });
});

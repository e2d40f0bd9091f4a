/**
 * Flat base on the full real history in shared/data (the real-data run, `npm run
 * test:real`): the examples in daily_marketlab and the firing rate across the
 * large caps of daily_yf_dieperdev, 2010–2024. The examples the committed
 * excerpts hold are in test/kernels/patterns/flat-base.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { flatBase } from '../../../../src/kernels/patterns/flat-base';
import { history } from '../../../kernels/patterns/builders';
import { expectNoMatchBetween, firingRate, LARGE_CAPS, matchOn } from '../../../kernels/patterns/real-data';
import { sharedData } from '../../../helpers/shared-data';

const MARKETLAB = sharedData('daily_marketlab');
const DIEPERDEV = sharedData('daily_yf_dieperdev');

describe('flat base on real daily history (full history in shared/data)', () => {
  // CAT (daily_marketlab, dividend-adjusted): up 66% from the April 2025 low to
  // 438.03 on 2025-07-31, then seven weeks between 402.59 and 438 (8.1%), and a
  // close of 447.47 on 2025-09-17 on 1.6× average volume.
  it('CAT broke out of a 7-week, 8.1% flat base on 2025-09-17 (marketlab)', async () => {
    const { match, dates } = await matchOn(flatBase, MARKETLAB, 'CAT', '2025-09-17');
    expect(dates).toEqual({ start: '2025-07-31', end: '2025-09-16', breakout: '2025-09-17' });
    expect(match!.pivot).toBeCloseTo(438.03, 2);
    expect(match!.geometry.depthPct).toBeCloseTo(8.09, 1);
    expect(match!.breakout.volumeRatio!).toBeCloseTo(1.62, 1);
  });

  // SPY spent February 2009 in a range after a 25% bounce off the November 2008
  // low — but 35% under its 52-week high, in a bear market: a pause, not a base.
  it('never fires inside the 2008–2009 bear market (SPY, marketlab)', async () => {
    expectNoMatchBetween(flatBase, await history(MARKETLAB, 'SPY'), '2008-06-02', '2009-03-09');
  });

  // Firing rate on the 18 large caps dieperdev keeps as plain CSV, 2010 to
  // 2024-03-08: a base is a few-times-a-year event, not a daily one.
  it('fires at a realistic rate across large caps (breakouts per symbol-year, share of days with a base)', async () => {
    const { breakoutsPerYear, shareOfDays } = await firingRate(flatBase, LARGE_CAPS, { dir: DIEPERDEV });
    expect(breakoutsPerYear).toBeGreaterThan(0.2);
    expect(breakoutsPerYear).toBeLessThan(2);
    expect(shareOfDays).toBeGreaterThan(0.03);
    expect(shareOfDays).toBeLessThan(0.3);
  });
});

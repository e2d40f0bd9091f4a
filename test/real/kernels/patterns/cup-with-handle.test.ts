/**
 * Cup with handle on the full real history in shared/data (the real-data run, `npm run
 * test:real`): the examples in daily_marketlab and the firing rate across the
 * large caps of daily_yf_dieperdev, 2010–2024. The examples the committed
 * excerpts hold are in test/kernels/patterns/cup-with-handle.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { cupWithHandle } from '../../../../src/kernels/patterns/cup-with-handle';
import { firingRate, LARGE_CAPS, matchOn } from '../../../kernels/patterns/real-data';
import { sharedData } from '../../../helpers/shared-data';

const MARKETLAB = sharedData('daily_marketlab');
const DIEPERDEV = sharedData('daily_yf_dieperdev');

describe('cup with handle on real daily history (full history in shared/data)', () => {
  // RTX (daily_marketlab, dividend-adjusted): a sharp drop from 204.51
  // (2026-04-09) to 170, six weeks of basing between 170 and 181 (the U), a
  // climb back to 203.26 on 2026-07-01, a 3-week handle down to 189.39, and a
  // close of 212.09 on 2026-07-23 on 1.9× volume.
  it('RTX broke out of a 12-week U-shaped cup on 2026-07-23 (marketlab)', async () => {
    const { match, dates } = await matchOn(cupWithHandle, MARKETLAB, 'RTX', '2026-07-23');
    expect(dates).toEqual({ start: '2026-04-09', end: '2026-07-22', breakout: '2026-07-23' });
    expect(match!.pivot).toBeCloseTo(203.26, 2);
    expect(match!.stopLoss).toBeCloseTo(189.39, 2);
    expect(match!.breakout.volumeRatio!).toBeCloseTo(1.91, 1);
  });

  // Firing rate on the 18 large caps dieperdev keeps as plain CSV, 2010 to
  // 2024-03-08: a proper cup with handle is an event of every few years.
  it('fires at a realistic rate across large caps', async () => {
    const { breakoutsPerYear, shareOfDays } = await firingRate(cupWithHandle, LARGE_CAPS, { dir: DIEPERDEV });
    expect(breakoutsPerYear).toBeGreaterThan(0.05);
    expect(breakoutsPerYear).toBeLessThan(1);
    expect(shareOfDays).toBeGreaterThan(0.005);
    expect(shareOfDays).toBeLessThan(0.1);
  });
});

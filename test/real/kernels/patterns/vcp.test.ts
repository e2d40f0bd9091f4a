/**
 * Vcp on the full real history in shared/data (the real-data run, `npm run
 * test:real`): the examples in daily_marketlab and the firing rate across the
 * large caps of daily_yf_dieperdev, 2010–2024. The examples the committed
 * excerpts hold are in test/kernels/patterns/vcp.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { vcp } from '../../../../src/kernels/patterns/vcp';
import { history } from '../../../kernels/patterns/builders';
import { expectNoMatchBetween, firingRate, LARGE_CAPS, matchOn } from '../../../kernels/patterns/real-data';
import { sharedData } from '../../../helpers/shared-data';

const MARKETLAB = sharedData('daily_marketlab');
const DIEPERDEV = sharedData('daily_yf_dieperdev');

describe('vcp on real daily history (full history in shared/data)', () => {
  // ORCL (daily_marketlab, dividend-adjusted): after the March 2024 earnings
  // gap, 14.8%, 4.7% and 2.7% pullbacks with the last high 116.64 (2024-05-07)
  // and low 113.49 (2024-05-10), then a close of 118.35 on 2024-05-14 on 2.1× volume.
  it('ORCL broke out of a 3-contraction VCP on 2024-05-14 (marketlab)', async () => {
    const { match, dates } = await matchOn(vcp, MARKETLAB, 'ORCL', '2024-05-14');
    expect(dates!.breakout).toBe('2024-05-14');
    expect(dates!.end).toBe('2024-05-13');
    expect(match!.reasons[0]).toBe('3 contractions: 14.8% → 4.7% → 2.7%');
    expect(match!.pivot).toBeCloseTo(116.64, 2);
    expect(match!.stopLoss).toBeCloseTo(113.49, 2);
    expect(match!.breakout.volumeRatio!).toBeCloseTo(2.14, 1);
  });

  // No Stage 2, no VCP: INTC through 2022 and Citigroup through 2008 traded
  // under falling 200-day averages the whole time.
  it('never fires while Citigroup collapses in 2008 (marketlab)', async () => {
    expectNoMatchBetween(vcp, await history(MARKETLAB, 'C'), '2008-06-02', '2009-03-09');
  });

  // Firing rate on the 18 large caps dieperdev keeps as plain CSV, 2010 to
  // 2024-03-08 — leaders that spent much of the period in Stage 2, where
  // Minervini finds his setups.
  it('fires at a realistic rate across large caps', async () => {
    const { breakoutsPerYear, shareOfDays } = await firingRate(vcp, LARGE_CAPS, { dir: DIEPERDEV });
    expect(breakoutsPerYear).toBeGreaterThan(0.2);
    expect(breakoutsPerYear).toBeLessThan(3);
    expect(shareOfDays).toBeGreaterThan(0.02);
    expect(shareOfDays).toBeLessThan(0.2);
  });
});

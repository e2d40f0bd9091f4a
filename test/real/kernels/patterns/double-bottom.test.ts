/**
 * Double bottom on the full real history in shared/data (the real-data run, `npm run
 * test:real`): the examples in daily_marketlab and the firing rate across the
 * large caps of daily_yf_dieperdev, 2010–2024. The examples the committed
 * excerpts hold are in test/kernels/patterns/double-bottom.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { doubleBottom } from '../../../../src/kernels/patterns/double-bottom';
import { history } from '../../../kernels/patterns/builders';
import { expectNoMatchBetween, firingRate, LARGE_CAPS, matchOn } from '../../../kernels/patterns/real-data';
import { sharedData } from '../../../helpers/shared-data';

const MARKETLAB = sharedData('daily_marketlab');
const DIEPERDEV = sharedData('daily_yf_dieperdev');

describe('double bottom on real daily history (full history in shared/data)', () => {
  // AVGO (daily_marketlab, dividend-adjusted): left high 359.91 (2026-01-02),
  // first low 294.68 (2026-02-04), middle peak 352.40 (2026-03-10), second low
  // 289.50 (2026-03-30, 1.8% under the first), close above 352.40 on 2026-04-09.
  it('AVGO broke out of a 13-week W on 2026-04-09 (marketlab)', async () => {
    const { match, dates } = await matchOn(doubleBottom, MARKETLAB, 'AVGO', '2026-04-09');
    expect(dates).toEqual({ start: '2026-01-02', end: '2026-04-08', breakout: '2026-04-09' });
    expect(match!.pivot).toBeCloseTo(352.4, 2);
    expect(match!.reasons[1]).toBe('second low 289.50 undercuts the first (294.68) by 1.8%');
  });

  it('never fires while Citigroup collapses in 2008 (marketlab)', async () => {
    expectNoMatchBetween(doubleBottom, await history(MARKETLAB, 'C'), '2008-06-02', '2009-03-09');
  });

  // Firing rate on the 18 large caps dieperdev keeps as plain CSV, 2010 to 2024-03-08.
  it('fires at a realistic rate across large caps', async () => {
    const { breakoutsPerYear, shareOfDays } = await firingRate(doubleBottom, LARGE_CAPS, { dir: DIEPERDEV });
    expect(breakoutsPerYear).toBeGreaterThan(0.05);
    expect(breakoutsPerYear).toBeLessThan(1.5);
    expect(shareOfDays).toBeGreaterThan(0.01);
    expect(shareOfDays).toBeLessThan(0.2);
  });
});

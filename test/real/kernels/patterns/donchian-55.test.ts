/**
 * Donchian 55 on the full real history in shared/data (the real-data run, `npm run
 * test:real`): the examples in daily_marketlab and the firing rate across the
 * large caps of daily_yf_dieperdev, 2010–2024. The examples the committed
 * excerpts hold are in test/kernels/patterns/donchian-55.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { donchian55 } from '../../../../src/kernels/patterns/donchian-55';
import { detectOn, expectNoLookAhead, history } from '../../../kernels/patterns/builders';
import { sharedData } from '../../../helpers/shared-data';

const MARKETLAB = sharedData('daily_marketlab');

describe('donchian 55 on real daily history (full history in shared/data)', () => {
  // GLD, 2024-03-04: gold's breakout to record highs — the close of 196.01
  // cleared 193.40, the highest high of the previous 55 sessions (2024-03-01's
  // intraday high; that day closed back under the December 2023 peak), on
  // 2.0× the 50-day volume.
  it('GLD goes long on 2024-03-04', async () => {
    const gld = await history(MARKETLAB, 'GLD');
    const b = gld.at('2024-03-04');
    const match = detectOn(donchian55, gld, '2024-03-04')!;
    expect(match.direction).toBe('long');
    expect(match.breakout.barIndex).toBe(b);
    expect(match.pivot).toBe(Math.max(...gld.bars.high.subarray(b - 55, b)));
    expect(match.pivot).toBeCloseTo(193.4, 2);
    expect(match.stopLoss).toBeCloseTo(match.pivot - 2 * gld.ind.atr14[b]!, 8);
    for (const day of ['2024-03-01', '2024-03-04', '2024-03-05']) expectNoLookAhead(donchian55, gld.bars, gld.at(day));
  });

  // GLD kept closing above its 55-day channel after 2024-03-04; System 2 was
  // already long, so none of those closes is a new entry.
  it('GLD: no new entry on 2024-03-11, a week into the same trade', async () => {
    const gld = await history(MARKETLAB, 'GLD');
    expect(detectOn(donchian55, gld, '2024-03-11')).toBeNull();
  });

  // SPY, 2022-05-09: the 2022 bear market's leg down — the close of 376.78
  // (dividend-adjusted) fell under 383.26, the lowest low of the previous 55
  // sessions (2022-05-02's).
  it('SPY goes short on 2022-05-09', async () => {
    const spy = await history(MARKETLAB, 'SPY');
    const b = spy.at('2022-05-09');
    const match = detectOn(donchian55, spy, '2022-05-09')!;
    expect(match.direction).toBe('short');
    expect(match.breakout.barIndex).toBe(b);
    expect(match.pivot).toBe(Math.min(...spy.bars.low.subarray(b - 55, b)));
    expect(match.target1).toBeCloseTo(match.pivot - 4 * spy.ind.atr14[b]!, 8);
  });
});

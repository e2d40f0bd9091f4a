import { describe, expect, it } from 'bun:test';
import { highTightFlag } from '../../../src/kernels/patterns/high-tight-flag';
import { BarBuilder, detectAt, detectOn, expectNoLookAhead, history } from './builders';
import { DIEPERDEV } from './real-data';

/**
 * 60 quiet bars around 20, the pole's low 19.00 (bar 60), 29 bars up on 2M
 * volume and the top bar (bar 90, high `top`), then flag closes at
 * `top − offset` on 0.8M volume (bars 91 on).
 */
function htfBars({ top = 40, offsets = [2, 3.5, 4.5, 3.5, 2.5, 3.2, 2.4, 1.8, 2.1, 1.2] } = {}): BarBuilder {
  return new BarBuilder()
    .quiet(60, 20, 0.2)
    .bar(19.8, 19.9, 19.0, 19.4)
    .ramp(29, top - 0.5, { volume: 2_000_000 })
    .bar(top - 0.5, top, top - 0.8, top - 0.4, 2_000_000)
    .closes(offsets.map((x) => top - x), { volume: 800_000 });
}

describe('high tight flag on hand-built bars', () => {
  it('measures a doubling in 30 bars and an 11-bar flag 11.75% under the top', () => {
    const match = detectAt(highTightFlag, htfBars().build(), 100)!;
    expect(match.patternType).toBe('high_tight_flag');
    expect(match.pivot).toBe(40);
    expect(match.stopLoss).toBeCloseTo(35.3, 10); // bar 93: open 36.5, close 35.5, low 0.2 under
    expect(match.target1).toBeCloseTo(40 + (40 - 19), 10); // the 21.00 pole added to the top
    expect(match.geometry).toEqual({ start: 90, end: 100, depthPct: expect.closeTo(11.75, 10), lengthBars: 11, contractions: 0 });
    expect(match.breakout.triggered).toBe(false);
    expect(match.reasons.slice(0, 2)).toEqual(['pole +110.5% in 30 bars (19.00 → 40.00)', 'flag 11 bars, 11.8% deep under the 40.00 top']);
  });

  it('triggers on the close above the top', () => {
    const bars = htfBars().bar(38.8, 41.5, 38.7, 41.2, 4_000_000).build();
    const match = detectAt(highTightFlag, bars, 101)!;
    // avgVolume50 at bar 100 = (10 × 1M + 30 × 2M + 10 × 0.8M) / 50 over bars 51–100
    expect(match.breakout).toEqual({ triggered: true, barIndex: 101, volumeRatio: expect.closeTo(4e6 / 1.56e6, 10) });
    expect(match.geometry.end).toBe(100);
  });

  it('needs at least a week of flag', () => {
    expect(detectAt(highTightFlag, htfBars().build(), 93)).toBeNull(); // bars 90–93
    expect(detectAt(highTightFlag, htfBars().build(), 94)?.geometry.lengthBars).toBe(5);
  });

  it('does not fire on a pole under 90%', () => {
    expect(detectAt(highTightFlag, htfBars({ top: 33 }).build(), 100)).toBeNull(); // 19 → 33 is +73.7%
  });

  it('does not fire on a flag more than 25% deep', () => {
    expect(detectAt(highTightFlag, htfBars({ offsets: [2, 3.5, 12, 3.5, 2.5, 3.2] }).build(), 96)).toBeNull(); // low 27.80: 30.5%
  });

  it('does not fire on a flag longer than 4 weeks', () => {
    const bars = htfBars({ offsets: Array.from({ length: 24 }, (_, i) => 2 + (i % 3)) }).build();
    expect(detectAt(highTightFlag, bars, 109)?.geometry.lengthBars).toBe(20);
    expect(detectAt(highTightFlag, bars, 110)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = htfBars().bar(38.8, 41.5, 38.7, 41.2, 4_000_000).ramp(8, 45).build();
    for (let asOf = 85; asOf < bars.close.length; asOf++) expectNoLookAhead(highTightFlag, bars, asOf);
  });
});

describe('high tight flag on real daily history', () => {
  // SMCI, July–August 2022: from the 37.01 low of 2022-07-05 to the 72.57
  // high of 2022-08-18 (+96.1% in 32 bars, under two months); a one-week
  // flag held within 8.4% (low 66.50 on 2022-08-24), and 2022-08-25 closed
  // above the top at 74.37.
  it('SMCI breaks out on 2022-08-25', async () => {
    const smci = await history(DIEPERDEV, 'SMCI');
    const match = detectOn(highTightFlag, smci, '2022-08-25')!;
    const { high, low } = smci.bars;
    expect(match.breakout.barIndex).toBe(smci.at('2022-08-25'));
    expect(match.pivot).toBe(high[smci.at('2022-08-18')]!);
    expect(match.stopLoss).toBe(low[smci.at('2022-08-24')]!);
    expect(match.target1).toBeCloseTo(2 * high[smci.at('2022-08-18')]! - low[smci.at('2022-07-05')]!, 8);
    expect(match.geometry.start).toBe(smci.at('2022-08-18'));
    expect(match.reasons[0]).toBe('pole +96.1% in 32 bars (37.01 → 72.57)');
    for (const day of ['2022-08-24', '2022-08-25', '2022-08-26']) expectNoLookAhead(highTightFlag, smci.bars, smci.at(day));
  });

  // SMCI, early 2024: nearly quadrupled to the 1,077.87 high of 2024-02-16,
  // but fell to 692.50 on 2024-02-20, 35.8% under the top: a correction, not
  // a flag.
  it('SMCI: the February 2024 pause was too deep', async () => {
    const smci = await history(DIEPERDEV, 'SMCI');
    expect(detectOn(highTightFlag, smci, '2024-03-01')).toBeNull();
  });

  // NVDA's May 2023 run (+49.5% into the 2023-05-30 top) was a bull flag's pole, not a doubling.
  it('NVDA: no high tight flag at its 2023-06-13 flag breakout', async () => {
    const nvda = await history(DIEPERDEV, 'NVDA');
    expect(detectOn(highTightFlag, nvda, '2023-06-13')).toBeNull();
  });
});

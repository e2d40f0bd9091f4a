/**
 * Issue 14: every detector's levels must run stop < trigger < target1 for a
 * long and target1 < trigger < stop for a short, or the lifecycle and the
 * outcome kernel work on a trade that cannot exist (a gap-and-go long used to
 * carry its stop above its trigger on every match). Checked on every bar of
 * the committed real windows, which hold the cases that broke it: KR's gap of
 * 2024-03-07 (gap_and_go), VRSN's bull flag of 2022-08-24 and IFF's bear flag
 * of 2023-08-23 (a channel line below the flag's low), AMCR's zero-volume
 * prints of 2015–2017 (a flat base and ranges with no height). The whole
 * history (499 names, 2000–2024) is swept by bench/geometry-sweep.ts.
 */
import { describe, expect, it } from 'bun:test';
import type { PatternType } from '../../../src/domain/signal';
import { DETECTOR_LIST } from '../../../src/kernels/patterns';
import { fixtureHistory, GEOMETRY_STOCKS } from '../../helpers/geometry-fixtures';

describe('levels of every detector on real bars', () => {
  it('run stop < trigger < target1 (longs) and target1 < trigger < stop (shorts) on every match', async () => {
    const matches = new Map<PatternType, number>();
    const outOfOrder: string[] = [];
    for (const symbol of GEOMETRY_STOCKS) {
      const h = await fixtureHistory(symbol);
      for (const detector of DETECTOR_LIST) {
        for (let asOf = detector.lookback; asOf < h.bars.close.length; asOf++) {
          const m = detector.detect({ bars: h.bars, ind: h.ind, asOf });
          if (!m) continue;
          matches.set(m.patternType, (matches.get(m.patternType) ?? 0) + 1);
          const ordered = m.direction === 'long' ? m.stopLoss < m.pivot && m.pivot < m.target1 : m.target1 < m.pivot && m.pivot < m.stopLoss;
          if (!ordered) outOfOrder.push(`${symbol} ${h.date(asOf)} ${m.patternType} ${m.direction}: stop ${m.stopLoss} trigger ${m.pivot} target1 ${m.target1}`);
        }
      }
    }
    // every detector fired somewhere in the windows, or the check proves nothing for it
    expect(DETECTOR_LIST.filter((d) => !matches.has(d.type)).map((d) => d.type)).toEqual([]);
    expect(outOfOrder).toEqual([]);
  });
});

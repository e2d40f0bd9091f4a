/**
 * The fit memo the replay hands the detectors: walking one series session by
 * session with a memo must report, at every session, exactly what each
 * detector reports without one (a fit reads no bar after its end, so a kept
 * fit is the fit a later scan would measure). And a brief match (no reason
 * sentences, what the scan looks at first) is the full match without them.
 */
import { describe, expect, it } from 'bun:test';
import { computeScanIndicators, headIndicators } from '../../../src/kernels/indicators';
import { headBars, type Ohlcv } from '../../../src/kernels/ohlcv';
import { DETECTOR_LIST, FitMemo } from '../../../src/kernels/patterns';
import { createSyntheticProvider } from '../../../src/providers/synthetic';

const provider = createSyntheticProvider({ seed: 3, now: () => Date.UTC(2026, 0, 5, 22) });

describe('detectors with a fit memo', () => {
  for (const symbol of ['AAPL', 'XOM', 'NVDA', 'KO']) {
    it(`report what they report without one at every session (${symbol})`, async () => {
      const bars: Ohlcv = await provider.bars({ symbol, timeframe: 'daily' });
      const ind = computeScanIndicators(bars);
      const memo = new FitMemo();
      let matches = 0;
      for (let asOf = bars.ts.length - 400; asOf < bars.ts.length; asOf++) {
        const input = { bars: headBars(bars, asOf + 1), ind: headIndicators(ind, asOf + 1), asOf };
        for (const detector of DETECTOR_LIST) {
          const plain = detector.detect(input);
          expect(detector.detect({ ...input, memo })).toEqual(plain);
          if (plain) matches++;
        }
      }
      expect(matches).toBeGreaterThan(100);
    });
  }
});

describe('detectors asked for a brief match', () => {
  it('report every field they report without it, with no reasons (AAPL, NVDA)', async () => {
    let matches = 0;
    for (const symbol of ['AAPL', 'NVDA']) {
      const bars: Ohlcv = await provider.bars({ symbol, timeframe: 'daily' });
      const ind = computeScanIndicators(bars);
      for (let asOf = bars.ts.length - 150; asOf < bars.ts.length; asOf++) {
        const input = { bars: headBars(bars, asOf + 1), ind: headIndicators(ind, asOf + 1), asOf };
        for (const detector of DETECTOR_LIST) {
          const full = detector.detect(input);
          expect(detector.detect({ ...input, brief: true })).toEqual(full && { ...full, reasons: [] });
          if (full) {
            matches++;
            expect(full.reasons.length).toBeGreaterThan(0);
          }
        }
      }
    }
    expect(matches).toBeGreaterThan(50);
  });
});

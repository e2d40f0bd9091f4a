/** ledger/performance confidenceCheck: is a signal's confidence a probability of a win? Hand values. */
import { describe, expect, it } from 'bun:test';
import { confidenceCheck, type Trade } from '../../src/ledger/performance';

const trade = (over: Partial<Trade>): Trade => ({
  id: 'X',
  symbol: 'X',
  patternType: 'vcp',
  scoreBand: 'strong',
  timeframe: 'daily',
  direction: 'long',
  regime: 'risk_on',
  detectedAt: '2024-01-02T21:00:00.000Z',
  confidence: 0.5,
  levels: null,
  alert: null,
  outcome: 'win',
  entered: true,
  rMultiple: 1,
  daysHeld: 3,
  ...over,
});

describe('confidenceCheck', () => {
  it('scores the closed, entered trades only: Brier against their own hit rate, and the reliability table', () => {
    const check = confidenceCheck([
      trade({ confidence: 0.8, outcome: 'win' }),
      trade({ confidence: 0.3, outcome: 'loss', rMultiple: -1 }),
      trade({ confidence: 0.6, outcome: 'scratch', rMultiple: 0.1 }),
      trade({ confidence: 0.9, outcome: 'open', entered: false }), // not judged
      trade({ confidence: 0.9, outcome: 'scratch', entered: false, rMultiple: 0 }), // never entered
      trade({ confidence: null, outcome: 'win' }), // no confidence recorded
    ]);
    // (0.2² + 0.3² + 0.6²) / 3 = 0.16333…; base rate 1/3 → reference (1/3)(2/3) = 0.22222…; skill 1 − 0.1633/0.2222 = 0.265
    expect(check).toMatchObject({ trades: 3, brier: 0.1633, baseRate: 0.3333, referenceBrier: 0.2222, skill: 0.265 });
    expect(check.reliability.map((b) => b.trades)).toEqual([1, 1, 1]);
    expect(check.reliability.map((b) => [b.predicted, b.observed])).toEqual([
      [0.3, 0],
      [0.6, 0],
      [0.8, 1],
    ]);
  });

  it('says nothing without closed trades', () => {
    expect(confidenceCheck([trade({ outcome: 'open', entered: false })])).toEqual({ trades: 0, brier: null, baseRate: null, referenceBrier: null, skill: null, reliability: [] });
  });
});

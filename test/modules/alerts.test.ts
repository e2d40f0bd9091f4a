import { describe, expect, it } from 'bun:test';
import type { Signal } from '../../src/jobs/scan';
import { evaluateAlerts } from '../../src/modules/signals/alerts';

const signal = (over: Partial<Signal>): Signal => ({
  id: 'X-flat_base-2026-11-20T00:00:00.000Z',
  symbol: 'X',
  timeframe: 'daily',
  patternFamily: 'base',
  patternType: 'flat_base',
  direction: 'long',
  trendRegime: 'uptrend',
  breakoutState: 'triggered',
  triggerPrice: 100,
  target1: 112,
  stopLoss: 94,
  finalScore: 78,
  confidence: 0.8,
  scoreBand: 'strong',
  reasons: [],
  detectedAt: '2026-11-20T00:00:00.000Z',
  price: 101,
  distancePct: 1,
  breakoutVolumeRatio: 1.8,
  rsRank: 90,
  avgDollarVolume: 500_000_000,
  geometry: { start: '', end: '', depthPct: 10, lengthBars: 30, contractions: 0 },
  components: {},
  ...over,
});

describe('alert policy (DESIGN §4)', () => {
  it('makes a strong triggered signal a candidate', () => {
    const r = evaluateAlerts([signal({})], { regime: 'risk_on' });
    expect(r.candidates).toHaveLength(1);
    expect(r.summary).toEqual({ eligible: 1, candidates: 1, blocked: 0, byReason: {} });
  });

  it('considers forming signals only within 2% of the trigger, and only strong or elite bands', () => {
    const r = evaluateAlerts(
      [
        signal({ breakoutState: 'forming', distancePct: -1.5 }),
        signal({ breakoutState: 'forming', distancePct: -3 }),
        signal({ scoreBand: 'watchlist' }),
        signal({ scoreBand: 'elite', breakoutState: 'confirmed' }),
      ],
      { regime: 'neutral' },
    );
    expect(r.summary.eligible).toBe(2);
    expect(r.candidates).toHaveLength(2);
  });

  it('blocks with every reason that applies', () => {
    const r = evaluateAlerts([signal({ distancePct: 6.2, avgDollarVolume: 5_000_000 })], {
      regime: 'risk_off',
      earningsInTradingDays: () => 3,
      recentlyAlerted: new Set(['X']),
    });
    expect(r.candidates).toHaveLength(0);
    expect(r.blocked[0]!.reasons).toEqual([
      'extended 6.2% past the trigger (max 5%)',
      'average dollar volume $5.0M below the $20M floor',
      'long setup in a risk-off market',
      'earnings in 3 trading days',
      'X already alerted within 72 hours',
    ]);
    expect(r.summary.byReason).toEqual({ extended: 1, illiquid: 1, regime: 1, earnings: 1, cooldown: 1 });
  });

  it('does not block a short in a risk-off market, nor earnings after the window', () => {
    const r = evaluateAlerts([signal({ direction: 'short' })], { regime: 'risk_off', earningsInTradingDays: () => 6 });
    expect(r.candidates).toHaveLength(1);
  });
});

/**
 * @module test/helpers/signal
 * One well-formed breakout `Signal` for tests, so no test writes the whole
 * literal out (a new field of the schema is added here once): a strong,
 * triggered daily flat base on ACME, long in an uptrend, whose id is made
 * from its symbol, pattern, detection time and timeframe as the scans make it
 * (domain/signal-id) unless `over` names one. The levels hold together: entry
 * at the trigger, the first target 12 % above it, the stop 6 % below.
 *
 * @example
 * makeSignal({ symbol: 'AAPL', scoreBand: 'elite' }).id; // => 'AAPL-flat_base-2026-11-18T21:00:00.000Z'
 */
import type { Signal } from '../../src/domain/signal';
import { signalId } from '../../src/domain/signal-id';

export function makeSignal(over: Partial<Signal> = {}): Signal {
  const base: Signal = {
    id: '',
    symbol: 'ACME',
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
    reasons: ['Flat base of 34 bars, 10% deep'],
    detectedAt: '2026-11-18T21:00:00.000Z',
    price: 101,
    distancePct: 1,
    breakoutVolumeRatio: 1.8,
    rsRank: 90,
    avgDollarVolume: 500_000_000,
    geometry: { start: '2026-09-30T20:00:00.000Z', end: '2026-11-17T21:00:00.000Z', depthPct: 10, lengthBars: 34, contractions: 0 },
    components: { patternQuality: 0.7, breakoutVolume: 0.5, rsRank: 0.9, trendTemplate: 1, proximity: 0.8, tightness: 0.6, regime: 1 },
  };
  const signal = { ...base, ...over };
  return { ...signal, id: over.id ?? signalId(signal.symbol, signal.patternType, signal.detectedAt, signal.timeframe) };
}

/**
 * @module kernels/signal
 * A scan finding as the BreakoutSignal readers see (DESIGN §4): its id
 * (`SYMBOL-pattern-detectedAt`, `/PT4H` or `/PT1H` after it intraday: domain/signal-id), levels rounded to 4 decimals, bar times as
 * ISO strings, and the cross-sectional figures the finding itself does not
 * carry (RS rank, average dollar volume). The universe scan and the replay
 * make their signals here, so both publish the same thing.
 */
import type { ScanFinding, Signal, Timeframe } from '../domain/signal';
import { signalId } from '../domain/signal-id';
import { round } from './round';

const iso = (ts: number) => new Date(ts).toISOString();

/** The signal of finding `f` on `timeframe`, with the symbol's RS rank and 50-bar average dollar volume (null when unknown). */
export function toSignal(f: ScanFinding, timeframe: Timeframe, rsRank: number | null, avgDollarVolume: number | null): Signal {
  const detectedAt = iso(f.detectedTs);
  return {
    id: signalId(f.symbol, f.patternType, detectedAt, timeframe),
    symbol: f.symbol,
    timeframe,
    patternFamily: f.patternFamily,
    patternType: f.patternType,
    direction: f.direction,
    trendRegime: f.trendRegime,
    breakoutState: f.state,
    triggerPrice: round(f.pivot, 4),
    target1: round(f.target1, 4),
    stopLoss: Number.isFinite(f.stopLoss) ? round(f.stopLoss, 4) : null,
    finalScore: f.finalScore,
    confidence: f.confidence,
    scoreBand: f.band,
    reasons: f.reasons,
    detectedAt,
    price: f.close,
    distancePct: round(f.distancePct, 2),
    breakoutVolumeRatio: f.breakoutVolumeRatio === null ? null : round(f.breakoutVolumeRatio, 2),
    rsRank,
    avgDollarVolume: avgDollarVolume !== null && Number.isFinite(avgDollarVolume) ? Math.round(avgDollarVolume) : null,
    geometry: {
      start: iso(f.geometry.startTs),
      end: iso(f.geometry.endTs),
      depthPct: round(f.geometry.depthPct, 2),
      lengthBars: f.geometry.lengthBars,
      contractions: f.geometry.contractions,
    },
    components: f.components,
  };
}

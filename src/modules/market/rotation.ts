/**
 * @module modules/market/rotation
 * Sector rotation: each of the 11 SPDR sector funds against the broad-market
 * benchmark on a Relative Rotation Graph (kernels/rotation documents the
 * RS-Ratio / RS-Momentum formulas), with 1w/1m/3m relative performance.
 */
import { yieldToEventLoop } from '../../db/client';
import { round, roundOrNull } from '../../kernels/round';
import { PERFORMANCE_WINDOWS, rotationLookback, rotationSnapshot, type PerformanceWindow } from '../../kernels/rotation';
import { paginateList, type PageRequest } from '../../pagination';
import type { MarketData } from '../../market-data';
import { alignCloses } from '../../market-data/align';
import { DEFAULT_BENCHMARK, SECTOR_ETFS } from '../../providers/universe';
import { inFlight } from '../../in-flight';
import type { SectorRotationResponse, SectorRotationRow } from './model';

const isoDate = (ts: number) => new Date(ts).toISOString().slice(0, 10);

/** Callers at once share one computation (issue 27): each aligns and ranks the 11 funds over the whole daily history, one fund per turn of the loop. */
const sharedRotation = inFlight<MarketData, SectorRotationResponse>();

export function sectorRotation(marketData: MarketData, benchmark = DEFAULT_BENCHMARK): Promise<SectorRotationResponse> {
  return sharedRotation(marketData, benchmark, () => computeRotation(marketData, benchmark));
}

async function computeRotation(marketData: MarketData, benchmark: string): Promise<SectorRotationResponse> {
  // Bars held in memory settle in microtasks: without a turn of the loop, callers that came together would each
  // run the whole computation before the next is even dispatched, none of them sharing it.
  await yieldToEventLoop();
  const benchmarkBars = await marketData.bars(benchmark, 'daily');
  const lookback = rotationLookback();
  let asOf = 0;
  const sectors: SectorRotationRow[] = [];
  for (const [sector, symbol] of Object.entries(SECTOR_ETFS)) {
    await yieldToEventLoop(); // a cold fund's daily path is drawn on demand: one fund per turn
    const aligned = alignCloses(await marketData.bars(symbol, 'daily'), benchmarkBars);
    if (aligned.ts.length <= lookback) continue; // not enough shared history to place it on the graph
    const snap = rotationSnapshot(aligned.asset, aligned.benchmark);
    const latest = snap.latest!;
    asOf = Math.max(asOf, aligned.ts[aligned.ts.length - 1]!);
    const performance = {} as SectorRotationRow['performance'];
    for (const key of Object.keys(PERFORMANCE_WINDOWS) as PerformanceWindow[]) {
      const p = snap.performance[key];
      performance[key] = { asset: roundOrNull(p.asset, 2), benchmark: roundOrNull(p.benchmark, 2), relative: roundOrNull(p.relative, 2) };
    }
    sectors.push({
      sector,
      symbol,
      rsRatio: round(latest.rsRatio, 3),
      rsMomentum: round(latest.rsMomentum, 3),
      quadrant: latest.quadrant,
      performance,
      tail: snap.tail.map((p) => ({ date: isoDate(aligned.ts[p.index]!), rsRatio: round(p.rsRatio, 3), rsMomentum: round(p.rsMomentum, 3), quadrant: p.quadrant })),
    });
  }
  sectors.sort((x, y) => y.rsRatio - x.rsRatio);
  return {
    asOf: new Date(asOf || Date.now()).toISOString(),
    benchmark,
    count: sectors.length,
    method:
      'RRG approximation on daily closes: RS = 100·sector/benchmark; RS-Ratio = 100·SMA5(RS)/SMA50(RS); RS-Momentum = 100·RS-Ratio/RS-Ratio 10 bars earlier. Quadrants: leading (≥100, ≥100), weakening (≥100, <100), lagging (<100, <100), improving (<100, ≥100). Performance in percent over 5/21/63 bars; relative = sector − benchmark.',
    sectors,
  };
}

/** The rotation answer with the envelope added: items by RS-Ratio (`order=desc`, the default, puts the strongest first). */
export async function sectorRotationPage(marketData: MarketData, request: PageRequest) {
  const rotation = await sectorRotation(marketData);
  const ascending = [...rotation.sectors].reverse(); // sectors are strongest first
  return { ...rotation, ...paginateList(ascending, request) };
}

/**
 * @module jobs/backtest-universe
 * A universe walk-forward backtest (the job behind POST with `symbols` or
 * `universe`): every symbol's bars loaded (cache-through, into the shared
 * store), then in the worker pool each symbol's RS score and 50-bar standing
 * at every bar, the RS ranks and breadth of the run's symbols per bar (here)
 * and the benchmark's regime with that breadth, each symbol's signals and
 * candidate trades, and the folds over all of them with one account under
 * the position limit. The event loop only orchestrates and ranks.
 *
 * The calendar is the benchmark's bars up to the last bar any symbol has (and
 * the benchmark's last complete session). A symbol whose data ends more than
 * one bar before that is left out and named, as a live scan does with stale
 * series; so is one the provider does not know or has no bars for.
 */
import type { WalkForwardResponse } from '../domain/backtest';
import { periodFolds, type CandidateTrade } from '../kernels/backtest';
import { percentileRanks } from '../kernels/rs-rank';
import { round } from '../kernels/round';
import { batches } from '../pool';
import { AppError } from '../errors';
import { dataFingerprint, walkForwardReport } from './backtest-report';
import { paramsOf, type BacktestDeps, type BacktestRequest } from './backtest-request';

export type Progress = (phase: string, done: number, total: number) => Promise<void>;

const LOAD_CHUNK = 16;
const SCAN_BATCH = 8;

export async function runUniverse(deps: BacktestDeps, request: BacktestRequest, progress: Progress, aborted: () => boolean): Promise<WalkForwardResponse> {
  const { marketData, barStore, pool } = deps;
  const { benchmark, config } = request;
  const symbols = request.symbols;
  const check = () => {
    if (aborted()) throw new Error('the server is shutting down');
  };
  const skipped: { symbol: string; reason: string }[] = [];
  const lastBar = new Map<string, number>();
  await progress('loading', 0, symbols.length);
  for (let i = 0; i < symbols.length; i += LOAD_CHUNK) {
    check();
    await Promise.all(
      symbols.slice(i, i + LOAD_CHUNK).map(async (symbol) => {
        try {
          const series = await marketData.bars(symbol, 'daily');
          if (series.ts.length === 0) skipped.push({ symbol, reason: 'no daily bars' });
          else lastBar.set(symbol, series.ts[series.ts.length - 1]!);
        } catch (error) {
          skipped.push({ symbol, reason: (error as Error).message });
        }
      }),
    );
    await progress('loading', Math.min(i + LOAD_CHUNK, symbols.length), symbols.length);
  }
  const { bars: bench } = await marketData.completeDaily(benchmark);
  const latest = Math.max(...lastBar.values());
  const endTs = Math.min(latest, bench.ts[bench.ts.length - 1] ?? -Infinity);
  const calendar: number[] = [];
  for (let i = 0; i < bench.ts.length && bench.ts[i]! <= endTs; i++) calendar.push(bench.ts[i]!);
  const folds = periodFolds(calendar, config);
  if (folds.length === 0) throw new AppError('invalid_parameter', `Insufficient bars: ${benchmark} has ${calendar.length} daily bars up to the symbols' last one; one fold needs train + purge + test = ${config.train + config.purge + config.test}`);
  const staleBefore = calendar[calendar.length - 2] ?? -Infinity;
  const tested = symbols.filter((symbol) => {
    const last = lastBar.get(symbol);
    if (last === undefined) return false;
    if (last < staleBefore) {
      skipped.push({ symbol, reason: `data ends ${new Date(last).toISOString().slice(0, 10)}, before the run's last bars` });
      return false;
    }
    return true;
  });
  const firstScan = Math.max(0, folds[0]!.trainStart - 1);
  const scanCalendar = calendar.slice(firstScan);
  const handle = barStore.handle();
  const parts = batches(tested, pool.threads * 4);

  check();
  await progress('cross-section', 0, 1);
  const sections = (await Promise.all(parts.map((part) => pool.run('backtestCrossSection', { handle, symbols: part, calendar: scanCalendar })))).flat();
  const ranks: Record<string, Int8Array> = Object.fromEntries(sections.map((s) => [s.symbol, new Int8Array(scanCalendar.length)]));
  const breadth: (number | null)[] = [];
  for (let k = 0; k < scanCalendar.length; k++) {
    const ranked = percentileRanks(sections.map((s) => s.rsScore[k]!));
    sections.forEach((s, j) => {
      if (Number.isFinite(ranked[j]!)) ranks[s.symbol]![k] = ranked[j]!;
    });
    const known = sections.filter((s) => s.above[k] !== -1);
    breadth.push(known.length ? known.filter((s) => s.above[k] === 1).length / known.length : null);
  }
  const regimes = await pool.run('backtestRegimes', { handle, benchmark, calendar: scanCalendar, breadth });
  await progress('cross-section', 1, 1);

  const { maxHold, costs } = paramsOf(config);
  const scanBatches = batches(tested, Math.ceil(tested.length / SCAN_BATCH));
  let scanned = 0;
  await progress('scanning', 0, tested.length);
  const results = await Promise.all(
    scanBatches.map(async (part) => {
      check();
      const partRanks = Object.fromEntries(part.map((s) => [s, ranks[s]!]));
      const out = await pool.run('backtestCandidates', { handle, symbols: part, calendar: scanCalendar, ranks: partRanks, regimes: regimes.regimes, maxHold, costs });
      scanned += part.length;
      await progress('scanning', scanned, tested.length);
      return out;
    }),
  );
  const perSymbol = results.flat().sort((a, b) => a.symbol.localeCompare(b.symbol));
  const candidates: CandidateTrade[] = perSymbol.flatMap((s) => s.candidates);

  // The equal-weight universe: each bar, the mean close-to-close return of the symbols with both closes.
  const equalWeight = new Float64Array(scanCalendar.length);
  equalWeight[0] = 1;
  for (let k = 1; k < scanCalendar.length; k++) {
    let sum = 0;
    let n = 0;
    for (const s of perSymbol) {
      const r = s.closes[k]! / s.closes[k - 1]! - 1;
      if (Number.isFinite(r)) {
        sum += r;
        n++;
      }
    }
    equalWeight[k] = equalWeight[k - 1]! * (1 + (n ? sum / n : 0));
  }

  check();
  await progress('evaluating', 0, 1);
  const universeKey = `${request.universe ?? 'symbols'} (equal weight)`;
  const params = paramsOf(config);
  const evaluation = await pool.run('backtestEvaluate', { calendar: scanCalendar, params, candidates, buyAndHold: { [benchmark]: regimes.closes, [universeKey]: equalWeight } });
  if (!evaluation) throw new AppError('invalid_parameter', 'Insufficient bars for one train + purge + test window');
  await progress('evaluating', 1, 1);

  const testSpans = evaluation.folds.map((f) => f.windows.test);
  const inTest = (ts: number) => testSpans.some(([from, to]) => ts >= from && ts <= to);
  const rows = perSymbol
    .map((s) => {
      const taken = evaluation.trades.filter((t) => t.symbol === s.symbol);
      return {
        symbol: s.symbol,
        candidates: s.candidates.filter((c) => inTest(c.entryTs)).length,
        taken: taken.length,
        totalR: round(taken.reduce((sum, t) => sum + t.r, 0), 4),
        pnl: round(taken.reduce((sum, t) => sum + t.pnl, 0), 2),
      };
    })
    .filter((row) => row.candidates > 0)
    .sort((a, b) => b.taken - a.taken || b.candidates - a.candidates || a.symbol.localeCompare(b.symbol));
  const fingerprints: Record<string, string> = {};
  for (const s of perSymbol) if (s.fingerprint) fingerprints[s.symbol] = s.fingerprint;
  if (regimes.fingerprint) fingerprints[benchmark] = regimes.fingerprint;
  const source = marketData.provider.name;
  return walkForwardReport({
    mode: 'universe',
    symbol: request.universe ?? 'symbols',
    benchmark,
    config,
    evaluation,
    holds: { universe: universeKey },
    data: { source, symbols: tested.length, firstBar: calendar[0]!, lastBar: calendar[calendar.length - 1]! },
    fingerprint: dataFingerprint(source, fingerprints, config),
    universe: {
      name: request.universe ?? 'symbols',
      requested: symbols.length,
      tested: tested.length,
      skipped: skipped.sort((a, b) => a.symbol.localeCompare(b.symbol)),
      perSymbol: rows,
    },
  });
}

/**
 * bench/geometry-sweep: the issue-14 geometry defects and the track record,
 * measured on the real history. Not part of `npm run bench` (it needs
 * ../shared/data and takes minutes); run by hand:
 *
 *   bun run bench/geometry-sweep.ts [--from 2022-01-03] [--to 2024-03-08] [--every 10]
 *
 * The universe is daily_yf_dieperdev (499 S&P 500 / Nasdaq-100 names, to
 * 2024-03-08) with SPY from daily_marketlab as the regime's benchmark, in one
 * csv directory of links. Every `--every`-th SPY session from `--from` to
 * `--to` runs the live universe scan (jobs/scan `runScan`, RS ranks, regime,
 * worker pool) as of that session, and counts on what it surfaced:
 *
 * - levels out of order: a long without stop < trigger < target1 (a short
 *   without target1 < trigger < stop), by pattern (gap_and_go among them);
 * - `triggered`/`confirmed` signals whose close is already at or beyond target1;
 * - signals whose close is already at or through their stop, and of those the
 *   `forming` range setups;
 *
 * and keeps a ledger as the live service would: a signal is recorded the
 * first time its id is surfaced (state, close, levels, score band), its later
 * transitions come from the lifecycle replayed over the bars after its
 * pattern (what the run's state tracking records), and its outcome follows the
 * outcome job's entry rule (jobs/outcomes) resolved with kernels/outcome as of
 * the last bar. A record whose entry does not lie strictly between its stop and
 * target1 is one the outcome kernel refuses ("unresolvable" before issue 14;
 * the job now resolves it as a scratch at entry, not entered, R 0).
 *
 * Tables: the defect counts, and by score band, direction and both: trades
 * (records entered and closed: win, loss or scratch; a forming record that
 * failed or expired before its trigger is "never entered" and not a trade),
 * hit rate (wins over trades), loss and scratch shares and mean R over trades.
 */
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/config';
import type { Direction, ScoreBand, Signal } from '../src/domain/signal';
import { runScan } from '../src/jobs/scan';
import { computeIndicators } from '../src/kernels/indicators';
import { resolveOutcome, type Outcome } from '../src/kernels/outcome';
import { replayLifecycle } from '../src/kernels/scan';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { printTable } from './lib';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const DATA = process.env.SHARED_DATA_DIR ?? resolve(import.meta.dir, '../../shared/data');
const FROM = Date.parse(`${arg('from', '2022-01-03')}T00:00:00Z`);
const TO = Date.parse(`${arg('to', '2024-03-08')}T00:00:00Z`);
const EVERY = Number(arg('every', '10'));

/** One csv directory: the dieperdev names plus marketlab's SPY. */
function universeDir(): { dir: string; symbols: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'breakline-sweep-'));
  const names = readdirSync(join(DATA, 'daily_yf_dieperdev')).filter((n) => n.endsWith('.csv') || n.endsWith('.csv.gz'));
  for (const n of names) symlinkSync(join(DATA, 'daily_yf_dieperdev', n), join(dir, n));
  symlinkSync(join(DATA, 'daily_marketlab', 'SPY.csv'), join(dir, 'SPY.csv'));
  return { dir, symbols: names.map((n) => n.replace(/\.csv(\.gz)?$/, '').replace(/[_-]/g, '.')) };
}

/** Whether the levels run stop < trigger < target1 (long) or target1 < trigger < stop (short). */
const ordered = (s: Signal) => (s.stopLoss === null ? false : s.direction === 'long' ? s.stopLoss < s.triggerPrice && s.triggerPrice < s.target1 : s.target1 < s.triggerPrice && s.triggerPrice < s.stopLoss);
const beyondTarget = (s: Signal) => (s.direction === 'long' ? s.price >= s.target1 : s.price <= s.target1);
const throughStop = (s: Signal) => s.stopLoss !== null && (s.direction === 'long' ? s.price <= s.stopLoss : s.price >= s.stopLoss);
const between = (direction: Direction, entry: number, target1: number, stop: number) => (direction === 'long' ? stop < entry && entry < target1 : target1 < entry && entry < stop);

interface LedgerRecord {
  signal: Signal;
  surfacedTs: number;
}

interface Tally {
  records: number;
  open: number;
  unresolvable: number;
  win: number;
  loss: number;
  scratch: number;
  neverEntered: number;
  sumR: number;
}
const tally = (): Tally => ({ records: 0, open: 0, unresolvable: 0, win: 0, loss: 0, scratch: 0, neverEntered: 0, sumR: 0 });
function group<K>(map: Map<K, Tally>, key: K): Tally {
  let t = map.get(key);
  if (!t) map.set(key, (t = tally()));
  return t;
}

const { dir, symbols } = universeDir();
const config = loadConfig({ LOG_LEVEL: 'silent', MARKET_DATA_PROVIDER: 'csv', CSV_DIR: dir, POOL_SIZE: '2', STATE_DIR: dir });
const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent'), warmPool: true });
const deps = { marketData: services.marketData, barStore: services.barStore, pool: services.pool };
const universe = symbols.filter((s) => s !== 'SPY');

const spy = await services.marketData.bars('SPY', 'daily');
const dates: number[] = [];
let k = 0;
for (const t of spy.ts) if (t >= FROM && t <= TO && k++ % EVERY === 0) dates.push(t);

const defects = { signals: 0, unordered: new Map<string, number>(), gapAndGo: 0, gapAndGoUnordered: 0, beyondTarget: 0, throughStop: 0, rangeFormingThroughStop: 0 };
const ledger = new Map<string, LedgerRecord>();
const started = performance.now();
for (const asOfTs of dates) {
  const result = await runScan(deps, { timeframe: 'daily', symbols: universe, asOfTs });
  for (const s of result.signals) {
    defects.signals++;
    if (!ordered(s)) defects.unordered.set(s.patternType, (defects.unordered.get(s.patternType) ?? 0) + 1);
    if (s.patternType === 'gap_and_go' && s.direction === 'long') {
      defects.gapAndGo++;
      if (!ordered(s)) defects.gapAndGoUnordered++;
    }
    if ((s.breakoutState === 'triggered' || s.breakoutState === 'confirmed') && beyondTarget(s)) defects.beyondTarget++;
    if (throughStop(s)) {
      defects.throughStop++;
      if (s.patternFamily === 'range' && s.breakoutState === 'forming') defects.rangeFormingThroughStop++;
    }
    if (!ledger.has(s.id)) ledger.set(s.id, { signal: s, surfacedTs: asOfTs });
  }
}
const scanSeconds = (performance.now() - started) / 1000;

// Resolve every record as the outcome job would, as of each series' last bar.
const byBand = new Map<ScoreBand, Tally>();
const byDirection = new Map<Direction, Tally>();
const byBandDirection = new Map<string, Tally>();
const byPattern = new Map<string, Tally>();
let voidSurfacedForming = 0;
const all = tally();
const indicators = new Map<string, ReturnType<typeof computeIndicators>>();
const indexAtOrBefore = (ts: Float64Array, t: number) => {
  let lo = 0, hi = ts.length - 1, at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid]! <= t) (at = mid), (lo = mid + 1);
    else hi = mid - 1;
  }
  return at;
};
for (const { signal: s, surfacedTs } of ledger.values()) {
  const bars = services.barStore.get(s.symbol, 'daily')!;
  let ind = indicators.get(s.symbol);
  if (!ind) indicators.set(s.symbol, (ind = computeIndicators(bars)));
  const asOf = bars.ts.length - 1;
  const stop = s.stopLoss ?? Number.NaN;
  const end = indexAtOrBefore(bars.ts, Date.parse(s.geometry.end));
  const { transitions } = replayLifecycle(bars, ind, { direction: s.direction, trigger: s.triggerPrice, target1: s.target1, stopLoss: stop }, end + 1, asOf);
  const after = transitions.slice(Math.max(0, transitions.findIndex((x) => x.from === s.breakoutState)));
  const terminal = after.find((x) => x.to === 'failed' || x.to === 'expired');
  let outcome: Outcome | 'unresolvable' = 'open';
  let r = 0;
  let neverEntered = false;
  let entry = s.price;
  let entryTs = surfacedTs;
  if (s.breakoutState === 'forming') {
    const triggered = after.find((x) => x.to === 'triggered');
    if (triggered) {
      entry = triggered.price;
      entryTs = triggered.ts;
    } else if (terminal) {
      outcome = 'scratch';
      neverEntered = true;
    } else entryTs = Number.NaN;
  }
  if (!neverEntered && Number.isFinite(entryTs)) {
    if (!between(s.direction, entry, s.target1, stop)) outcome = 'unresolvable';
    else {
      const detectedIndex = indexAtOrBefore(bars.ts, entryTs);
      const stateIndex = terminal ? Math.max(detectedIndex + 1, indexAtOrBefore(bars.ts, terminal.ts)) : undefined;
      const o = resolveOutcome(
        { direction: s.direction, entry, target1: s.target1, stopLoss: stop, detectedIndex, ...(terminal && stateIndex! <= asOf ? { state: terminal.to, stateIndex } : {}) },
        bars,
        asOf,
      );
      outcome = o.outcome;
      r = o.rMultiple;
    }
  }
  if (outcome === 'unresolvable' && s.breakoutState === 'forming') voidSurfacedForming++;
  const groups = [all, group(byBand, s.scoreBand), group(byDirection, s.direction), group(byBandDirection, `${s.scoreBand} ${s.direction}`), group(byPattern, s.patternType)];
  for (const t of groups) {
    t.records++;
    if (outcome === 'open') t.open++;
    else if (outcome === 'unresolvable') t.unresolvable++;
    else {
      t[outcome]++;
      t.sumR += r;
      if (neverEntered) t.neverEntered++;
    }
  }
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}%`);
const row = (name: string, t: Tally) => {
  const trades = t.win + t.loss + t.scratch - t.neverEntered;
  return {
    group: name,
    records: t.records,
    trades,
    'hit rate': pct(t.win, trades),
    loss: pct(t.loss, trades),
    scratch: pct(t.scratch - t.neverEntered, trades),
    'mean R': trades === 0 ? '—' : (t.sumR / trades).toFixed(3),
    'never entered': t.neverEntered,
    open: t.open,
    unresolvable: t.unresolvable,
  };
};

const span = `${new Date(dates[0]!).toISOString().slice(0, 10)}..${new Date(dates.at(-1)!).toISOString().slice(0, 10)}`;
printTable(`bench/geometry-sweep — ${dates.length} scans (every ${EVERY} sessions, ${span}), ${universe.length} symbols, ${scanSeconds.toFixed(0)} s of scans`, [
  { measure: 'signals surfaced (all scans)', count: defects.signals },
  { measure: 'gap_and_go longs', count: defects.gapAndGo },
  { measure: 'gap_and_go longs with levels out of order', count: defects.gapAndGoUnordered },
  { measure: 'signals with levels out of order (any pattern)', count: [...defects.unordered.values()].reduce((a, b) => a + b, 0) },
  ...[...defects.unordered].map(([type, n]) => ({ measure: `  of them ${type}`, count: n })),
  { measure: 'triggered/confirmed with close at or beyond target1', count: defects.beyondTarget },
  { measure: 'signals with close at or through their stop', count: defects.throughStop },
  { measure: '  of them forming range setups', count: defects.rangeFormingThroughStop },
  { measure: 'ledger records (distinct ids)', count: ledger.size },
  { measure: 'records whose entry is not between stop and target1', count: all.unresolvable },
  { measure: '  of them surfaced forming (entered at a trigger close past a level)', count: voidSurfacedForming },
]);
const BANDS: ScoreBand[] = ['elite', 'strong', 'watchlist', 'ignore'];
const title = (by: string) => `bench/geometry-sweep — outcomes by ${by} (trades = entered and closed: win, loss or scratch; hit rate and mean R over trades)`;
printTable(title('score band'), BANDS.filter((b) => byBand.has(b)).map((b) => row(b, byBand.get(b)!)));
printTable(title('direction'), [...byDirection].map(([d, t]) => row(d, t)).concat([row('all', all)]));
printTable(title('pattern'), [...byPattern].sort(([a], [b]) => a.localeCompare(b)).map(([p, t]) => row(p, t)));
printTable(title('score band and direction'), BANDS.flatMap((b) => (['long', 'short'] as const).filter((d) => byBandDirection.has(`${b} ${d}`)).map((d) => row(`${b} ${d}`, byBandDirection.get(`${b} ${d}`)!))));

await services.close();
rmSync(dir, { recursive: true, force: true });

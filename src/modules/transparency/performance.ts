/**
 * @module modules/transparency/performance
 * The monthly rollup and the scorecard, computed from a ledger only — the live
 * one or a replay's (sources.ts; ledger/performance holds the definitions) —
 * over its trade book (ledger/book: the trades kept in memory, extended by
 * the head), in passes that give the event loop back as they go. Both are
 * cached per ledger head: nothing is recomputed until a record is appended.
 * Each says which ledger (and which head) it shows and, for the scorecard,
 * whether its universe carries survivorship bias.
 */
import { AppError } from '../../errors';
import { replayUniverse } from '../../jobs/replay/universe';
import { defaultUniverse } from '../../jobs/scan';
import { round } from '../../kernels/round';
import { differenceInterval, scoreBandMonotonicity } from '../../kernels/stats';
import type { TradeBook } from '../../ledger/book';
import { confidenceColumns, tallyColumns } from '../../ledger/figures';
import { performance, type Performance } from '../../ledger/performance';
import type { TradeColumns } from '../../ledger/trade-columns';
import type { MarketData } from '../../market-data';
import type { LedgerSource } from './model';
import { ledgerView, type LedgerSources, type LedgerView } from './sources';

/** The live ledger's survivorship statement: its signals were recorded as they were surfaced. */
const LIVE_SURVIVORSHIP =
  'No survivorship bias: live signals were recorded when they were surfaced, over the universe of that day, and stay in the ledger whatever became of the company.';

/** Score bands low → high (DESIGN §4). */
const BANDS = ['ignore', 'watchlist', 'strong', 'elite'] as const;
const TRAILING_DAYS = [30, 90, 365] as const;
const DAY_MS = 86_400_000;

/** The scorecard's baseline, in words. */
const BASELINE_METHOD =
  "matched random entries: for each closed daily trade, 5 random entries of the same calendar year and ATR(14)% quintile, from the ledger's universe on that day, with the trade's direction and its stop and target1 distances as fractions of its entry, resolved by prices only (target1 before the stop; a bar touching both counts the stop). hitRate here is the trades' own price-only rate (the ledger's hitRate also counts lifecycle scratches); lift = hitRate − baselineHitRate with Newcombe's hybrid score 95% interval. A rising market lifts both; only the lift is edge.";

export const PERFORMANCE_METHOD = {
  source: 'the public ledger only: each signal as first surfaced, and its appended outcome record',
  closed: 'entered signals with a final outcome (win, loss or scratch); open signals and scratches never entered (failed or expired before crossing the trigger) are counted but in no rate or R figure',
  hitRate: 'wins ÷ closed, with a 95% Wilson score interval',
  avgR: 'mean R-multiple of closed trades, with a 95% Student-t interval (null below 2 trades)',
  expectancyR: 'Tharp expectancy in R per trade (= mean R)',
  profitFactor: 'Σ winning R ÷ |Σ losing R| (null without losses)',
  outcomes: 'win: target1 before the stop; loss: the stop first (a bar touching both counts the stop; a gap through fills at the open); scratch: failed or expired',
  confidence:
    "calibration.confidence: the signals' confidence as a probability of a win, judged on the closed trades: Brier score = mean (confidence − win)², against the reference of the trades' own hit rate for every one (skill = 1 − Brier ÷ reference); reliability = predicted vs observed by decile of confidence, with Wilson 95% intervals",
  entry: 'surfaced triggered/confirmed: the close of the bar it was surfaced on; surfaced forming: the close of the bar it triggered on',
};

const headOf = (book: TradeBook) => ({ seq: book.head.seq, hash: book.head.hash });

/** `YYYY-MM` → its first and last instant (UTC); 400 for a month that does not exist. */
export function monthRange(month: string | undefined): { from: Date; to: Date } {
  const match = month ? /^(\d{4})-(\d{2})$/.exec(month) : null;
  const m = match ? Number(match[2]) : 0;
  if (!match || m < 1 || m > 12) throw new AppError('invalid_parameter', "Query parameter 'month' is required: a month YYYY-MM (01–12)");
  const y = Number(match[1]);
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1) - 1) };
}

export async function monthly(sources: LedgerSources, query: { month?: string; source: LedgerSource; replayId?: string }) {
  const { month } = query;
  const { from, to } = monthRange(month);
  const view = await ledgerView(sources, query);
  const book = await view.book();
  return book.perHead(`monthly:${month}`, async () => {
    const c = book.columns;
    const [lo, hi] = [from.getTime(), to.getTime()];
    const { all, by, kept } = await tallyColumns(c, (i) => c.detectedMs[i]! >= lo && c.detectedMs[i]! <= hi, {
      pattern: c.patternType,
      band: c.scoreBand,
      timeframe: c.timeframe,
      direction: c.direction,
    });
    return {
      month: month!,
      from: from.toISOString(),
      to: to.toISOString(),
      generatedAt: new Date().toISOString(),
      ledgerHead: headOf(book),
      summary: all,
      byPattern: by.pattern,
      byBand: by.band,
      byTimeframe: by.timeframe,
      byDirection: by.direction,
      signals: kept.map((i) => {
        const t = c.trade(i);
        return { id: t.id, symbol: t.symbol, patternType: t.patternType, scoreBand: t.scoreBand, timeframe: t.timeframe, direction: t.direction, detectedAt: t.detectedAt, outcome: t.outcome, entered: t.entered, rMultiple: t.rMultiple };
      }),
      method: PERFORMANCE_METHOD,
      source: view.source,
      replay: view.replay,
    };
  });
}

/** Random entries drawn per trade for the scorecard's baseline. */
export const BASELINE_MATCHES = 5;

/** A group's price-only hit rate beside its matched baseline, and the lift with Newcombe's 95% interval. */
export interface LiftFigures {
  trades: number;
  hitRate: number | null;
  baselineDraws: number;
  baselineHitRate: number | null;
  lift: number | null;
  liftLower: number | null;
  liftUpper: number | null;
}

function liftOf(rows: readonly { priceHit: 0 | 1 | null; baseHits: number; baseN: number }[]): LiftFigures {
  const labelled = rows.filter((r) => r.priceHit !== null);
  const hits = labelled.filter((r) => r.priceHit === 1).length;
  const baseHits = rows.reduce((s, r) => s + r.baseHits, 0);
  const baseN = rows.reduce((s, r) => s + r.baseN, 0);
  const d = labelled.length && baseN ? differenceInterval(hits, labelled.length, baseHits, baseN) : null;
  return {
    trades: labelled.length,
    hitRate: labelled.length ? round(hits / labelled.length, 4) : null,
    baselineDraws: baseN,
    baselineHitRate: baseN ? round(baseHits / baseN, 4) : null,
    lift: d ? round(d.difference, 4) : null,
    liftLower: d ? round(d.lower, 4) : null,
    liftUpper: d ? round(d.upper, 4) : null,
  };
}

/** How long the baseline of a ledger's trades may take (a replay of two years: seconds of a background thread). */
const BASELINE_TIMEOUT_MS = 10 * 60_000;

/**
 * The matched random baseline of the ledger's closed daily trades
 * (workers/baseline, in the pool's background lane over the shared bar
 * store): the universe the ledger was drawn from (a replay's own, the live
 * service's today), by band, direction and pattern.
 */
async function baselineSection(
  sources: LedgerSources,
  view: LedgerView,
  c: TradeColumns,
): Promise<{ all: LiftFigures; byBand: Record<string, LiftFigures>; byDirection: Record<string, LiftFigures>; byPattern: Record<string, LiftFigures> }> {
  const daily = c.codeOf('daily');
  const [long, short] = [c.codeOf('long'), c.codeOf('short')];
  const closed: number[] = [];
  for (let i = 0; i < c.n; i++) if (c.hasLevels[i] === 1 && c.timeframe[i] === daily && (c.direction[i] === long || c.direction[i] === short)) closed.push(i);
  const empty = { all: liftOf([]), byBand: {}, byDirection: {}, byPattern: {} };
  if (closed.length === 0) return empty;
  const { marketData, pool, barStore } = sources;
  const universe = view.params ? await replayUniverse(view.params.universe, marketData, view.params.from, view.params.to) : { symbols: await defaultUniverse(marketData) };
  const names = c.words;
  // The bars the task reads: in the store already after the scans, read through (and kept) otherwise.
  for (const symbol of new Set([...universe.symbols, ...closed.map((i) => names[c.symbol[i]!]!)])) await marketData.bars(symbol, 'daily').catch(() => undefined);
  const pick = <T extends Float64Array | Int32Array | Int8Array>(make: new (n: number) => T, value: (i: number) => number) => {
    const out = new make(closed.length);
    closed.forEach((i, k) => (out[k] = value(i)));
    return out;
  };
  const out = await pool.run(
    'baseline',
    {
      handle: barStore.handle(),
      symbols: universe.symbols,
      membership: view.params?.universe.kind === 'sp500' ? 'sp500' : null,
      names,
      trades: {
        symbol: pick(Int32Array, (i) => c.symbol[i]!),
        direction: pick(Int8Array, (i) => (c.direction[i] === long ? 1 : -1)),
        entry: pick(Float64Array, (i) => c.entry[i]!),
        entryAtMs: pick(Float64Array, (i) => Date.parse(names[c.entryAt[i]!]!)),
        stopLoss: pick(Float64Array, (i) => c.stopLoss[i]!),
        target1: pick(Float64Array, (i) => c.target1[i]!),
      },
      matches: BASELINE_MATCHES,
      seed: 14,
    },
    { lane: 'background', timeoutMs: BASELINE_TIMEOUT_MS },
  );
  const results = closed.map((_, k) => ({ priceHit: Number.isNaN(out.priceHit[k]!) ? null : (out.priceHit[k] as 0 | 1), baseHits: out.baseHits[k]!, baseN: out.baseN[k]! }));
  const by = (column: Int32Array) => {
    const groups = new Map<string, typeof results>();
    closed.forEach((i, k) => {
      const g = names[column[i]!]!;
      let list = groups.get(g);
      if (!list) groups.set(g, (list = []));
      list.push(results[k]!);
    });
    return Object.fromEntries([...groups.keys()].sort().map((g) => [g, liftOf(groups.get(g)!)]));
  };
  return { all: liftOf(results), byBand: by(c.scoreBand), byDirection: by(c.direction), byPattern: by(c.patternType) };
}

export async function scorecard(sources: LedgerSources, query: { source: LedgerSource; replayId?: string }, now = Date.now()) {
  const view = await ledgerView(sources, query);
  const book = await view.book();
  const today = new Date(now).toISOString().slice(0, 10);
  return book.perHead(`scorecard:${today}`, async () => {
    const c = book.columns;
    const trailing: Record<string, Performance> = {};
    for (const days of TRAILING_DAYS) {
      const since = new Date(Date.parse(`${today}T00:00:00.000Z`) - days * DAY_MS).toISOString();
      trailing[`${days}d`] = (await tallyColumns(c, (i) => c.words[c.detectedAt[i]!]! >= since, {})).all;
    }
    const { all, by } = await tallyColumns(c, () => true, { band: c.scoreBand, pattern: c.patternType, regime: c.regime, timeframe: c.timeframe, direction: c.direction });
    const byBand = by.band;
    const bands = BANDS.map((band) => {
      const p = byBand[band];
      return { band, trades: p?.closed ?? 0, meanR: p?.avgR ?? 0, hitRate: p?.hitRate ?? 0 };
    });
    const monotonicity = scoreBandMonotonicity(bands);
    const baseline = await baselineSection(sources, view, c);
    return {
      generatedAt: new Date(now).toISOString(),
      ledgerHead: headOf(book),
      allTime: all,
      trailing,
      calibration: {
        byBand: Object.fromEntries(BANDS.map((band) => [band, byBand[band] ?? performance([])])),
        byPattern: by.pattern,
        byRegime: by.regime,
        byTimeframe: by.timeframe,
        byDirection: by.direction,
        confidence: confidenceColumns(c),
        baseline: { method: BASELINE_METHOD, matches: BASELINE_MATCHES, ...baseline },
      },
      higherBandsDoBetter: {
        verdict: monotonicity.verdict,
        statement: monotonicity.sentence,
        meanRRho: Number.isFinite(monotonicity.meanRRho) ? monotonicity.meanRRho : null,
        hitRateRho: Number.isFinite(monotonicity.hitRateRho) ? monotonicity.hitRateRho : null,
        minTrades: monotonicity.minTrades,
        bandsUsed: monotonicity.bandsUsed,
        bandsExcluded: monotonicity.bandsExcluded,
        steps: monotonicity.steps,
      },
      method: PERFORMANCE_METHOD,
      source: view.source,
      replay: view.replay,
      survivorshipBias: view.replay?.universe.survivorshipBias ?? false,
      survivorshipNote: view.replay?.universe.survivorshipNote ?? LIVE_SURVIVORSHIP,
    };
  });
}

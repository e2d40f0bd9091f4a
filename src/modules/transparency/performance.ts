/**
 * @module modules/transparency/performance
 * The monthly rollup and the scorecard, computed from a ledger only — the live
 * one or a replay's (sources.ts; ledger/performance holds the definitions) —
 * over its trade book (ledger/book: the trades kept in memory, extended by
 * the head), in passes that give the event loop back as they go. Both are
 * kept per ledger head, in memory and in the database (`heldFigure`): nothing
 * is recomputed until a record is appended, not even after a restart.
 * Each says which ledger (and which head) it shows and, for the scorecard,
 * whether its universe carries survivorship bias. Both carry the record
 * section (jobs/record `recordOf`, in the pool's background lane: both
 * matched baselines with cluster-bootstrap intervals, the alert policy's
 * record, the `edge` statement).
 */
import { createHash } from 'node:crypto';
import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { createMirror } from 'exact-mirror';
import { yieldToEventLoop } from '../../db/client';
import { AppError } from '../../errors';
import { inFlight } from '../../in-flight';
import { Lru } from '../../lru';
import { confidenceInPool, RECORD_MATCHES, RECORD_METHOD, recordOf } from '../../jobs/record';
import { scoreBandMonotonicity } from '../../kernels/stats';
import type { TradeBook } from '../../ledger/book';
import { confidenceInputs, tallyColumns } from '../../ledger/figures';
import { performance, type Performance, type Trade } from '../../ledger/performance';
import { RECORD_BOOTSTRAP } from '../../ledger/record-figures';
import type { TradeColumns } from '../../ledger/trade-columns';
import { MonthlyResponse, ScorecardResponse, type LedgerSource } from './model';
import { ledgerView, type LedgerSources, type LedgerView } from './sources';

/** The live ledger's survivorship statement: its signals were recorded as they were surfaced. */
const LIVE_SURVIVORSHIP =
  'No survivorship bias: live signals were recorded when they were surfaced, over the universe of that day, and stay in the ledger whatever became of the company.';

/** Score bands low → high (DESIGN §4). */
const BANDS = ['ignore', 'watchlist', 'strong', 'elite'] as const;
const TRAILING_DAYS = [30, 90, 365] as const;
const DAY_MS = 86_400_000;

export const PERFORMANCE_METHOD = {
  source: 'the public ledger only: each signal as first surfaced, and its appended outcome record',
  closed: 'entered signals with a final outcome (win, loss or scratch); open signals and scratches never entered (failed or expired before crossing the trigger) are counted but in no rate or R figure',
  hitRate: 'wins ÷ closed, with a 95% interval that treats trades detected in the same Monday-based week as one cluster (Wilson at the effective sample size of the weekly design effect); null below 2 weeks',
  avgR: 'mean R-multiple of closed trades, with a 95% weekly cluster-robust t interval (G − 1 degrees of freedom over G weeks); null below 2 weeks. Trades of one week move together: intervals that treat them as independent are several times too narrow',
  expectancyR: 'Tharp expectancy in R per trade (= mean R)',
  profitFactor: 'Σ winning R ÷ |Σ losing R| (null without losses)',
  outcomes: 'win: target1 before the stop; loss: the stop first (a bar touching both counts the stop; a gap through fills at the open); scratch: failed or expired',
  confidence:
    "calibration.confidence: the signals' confidence as a probability of a win, judged on the closed trades: Brier score = mean (confidence − win)², against the reference of the trades' own hit rate for every one (skill = 1 − Brier ÷ reference); reliability = predicted vs observed by decile of confidence, with Wilson 95% intervals",
  entry: 'surfaced triggered/confirmed: the close of the bar it was surfaced on; surfaced forming: the close of the bar it triggered on',
};

const headOf = (book: TradeBook) => ({ seq: book.head.seq, hash: book.head.hash });

/**
 * How a figure's route sends it (a held `JsonResponse`): serialised once per
 * head for every caller, and kept (below). Returned as an object, Elysia
 * mirrored it through the route's response schema and plugins/representation
 * serialised and hashed it, once per caller: five callers of the live
 * scorecard at once held the server's thread 50–80 ms in one stretch
 * (bench/stall, issue 27). This applies the mirror Elysia applied
 * (exact-mirror over the 200 schema: fields in the schema's order, those it
 * does not name dropped — a replay's universe comes from the database in
 * jsonb's key order), so the bytes are the same. Compiled when this module
 * loads, before the port opens (the scorecard's mirror takes a few ms).
 */
function figureSerializer<S extends TSchema>(schema: S): (figure: Static<S> & object) => string {
  const mirror = createMirror(schema, { TypeCompiler });
  return (figure) => JSON.stringify(mirror(figure));
}

const scorecardSerializer = figureSerializer(ScorecardResponse);
const monthlySerializer = figureSerializer(MonthlyResponse);
const monthlySignalsSerializer = figureSerializer(MonthlyResponse.properties.signals);

/** Monthly signals serialised between two turns of the event loop (a replay's month lists ~20k, 1.3 MB). */
const SIGNALS_SLICE = 1000;

/**
 * A monthly rollup's JSON, its `signals` serialised `SIGNALS_SLICE` at a
 * time with the event loop free between them (the whole 1.3 MB of a replay's
 * month in one stretch held the server's thread ~40 ms): the same bytes as
 * the mirror over the whole figure (a test compares them).
 */
export async function serialiseMonthly(figure: Static<typeof MonthlyResponse>): Promise<string> {
  const { signals } = figure;
  const rest = monthlySerializer({ ...figure, signals: [] });
  const parts: string[] = [];
  for (let i = 0; i < signals.length; i += SIGNALS_SLICE) {
    await yieldToEventLoop();
    parts.push(monthlySignalsSerializer(signals.slice(i, i + SIGNALS_SLICE)).slice(1, -1));
  }
  return rest.replace('"signals":[]', () => `"signals":[${parts.join(',')}]`);
}

/**
 * The fingerprint of the figures' definitions a kept figure was computed with
 * (db/repositories/ledger-figures): the response schemas and the methods in
 * words. `REVISION` is raised when a computation changes without either
 * changing, so figures kept by an older release are computed again.
 */
const REVISION = 1;
export const FIGURE_DEFINITIONS = createHash('sha256')
  .update(JSON.stringify([REVISION, ScorecardResponse, MonthlyResponse, PERFORMANCE_METHOD, RECORD_METHOD, RECORD_BOOTSTRAP, RECORD_MATCHES]))
  .digest('hex')
  .slice(0, 16);

/** Kept figures being read or computed, per server's sources and figure: callers asking at once share one. */
const figuresInFlight = inFlight<LedgerSources, string>();

/** Characters of figure JSON remembered per server's sources (a replay month's is ~1.3 MB). */
const ANSWERED_CHARS = 32 * 2 ** 20;

/**
 * The JSON each figure was last answered with, and its head, per server's
 * sources: a warm read costs the head's read alone, not the kept row's read
 * and expansion again (and gives the same string, so its ETag is not hashed
 * again either).
 */
const answeredBy = new WeakMap<LedgerSources, Lru<string, { seq: number; hash: string; body: string }>>();
function answeredOf(sources: LedgerSources) {
  let answered = answeredBy.get(sources);
  if (!answered) answeredBy.set(sources, (answered = new Lru({ maxEntries: Number.POSITIVE_INFINITY, maxBytes: ANSWERED_CHARS, sizeOf: (a) => a.body.length })));
  return answered;
}

/**
 * A figure's JSON at the chain's current head (issue 27): the one kept in
 * the database when it was computed at this head (seq and hash), with these
 * definitions and for this variant — a restart answers from it without
 * loading the book or computing anything; else computed over the book once
 * per head however many ask (`perHead`), and kept. A head that moved makes
 * the kept one stale: it is never served, and the computation replaces it.
 */
function heldFigure(sources: LedgerSources, view: LedgerView, figure: string, variant: string, compute: (book: TradeBook) => Promise<string>): Promise<string> {
  const { figures } = view.ledger;
  const id = JSON.stringify([figures.chain, figures.book, figure, variant]);
  // One read of the kept row for every caller at once: PGlite decodes a row's bytes in this thread (5 callers of a
  // replay month each reading its 150 KB held the thread 65 ms at load 9).
  return figuresInFlight(sources, id, async () => {
    const answered = answeredOf(sources);
    const head = await view.ledger.head();
    const last = answered.get(id);
    if (last && last.seq === head.seq && last.hash === head.hash) return last.body;
    const key = { figure, variant, definitions: FIGURE_DEFINITIONS };
    const kept = await figures.held(key, head);
    if (kept !== undefined) {
      answered.set(id, { seq: head.seq, hash: head.hash, body: kept });
      return kept;
    }
    const book = await view.book();
    const at = { seq: book.head.seq, hash: book.head.hash };
    const body = await book.perHead(`${figure}:${variant}`, async () => {
      const computed = await compute(book);
      // Kept for the next start; the figures are right either way, so a failed write costs only a recomputation then.
      await figures.keep(key, book.head, computed).catch(() => undefined);
      return computed;
    });
    answered.set(id, { ...at, body });
    return body;
  });
}

/** Signals looked at between two turns of the event loop while the record's trades are picked. */
const RECORD_SLICE = 20_000;

/**
 * The trades `keep` accepts that the record section reads (jobs/record: the
 * closed, entered daily longs and shorts with their levels), picked from the
 * columns so only those become trade objects.
 */
async function recordTrades(c: TradeColumns, keep: (i: number) => boolean): Promise<Trade[]> {
  const [daily, long, short] = [c.codeOf('daily'), c.codeOf('long'), c.codeOf('short')];
  const out: Trade[] = [];
  for (let i = 0; i < c.n; i++) {
    // A turn of the loop every RECORD_SLICE signals: a boot replay's 68k trade objects took 44–62 ms at load 12.
    if (i > 0 && i % RECORD_SLICE === 0) await yieldToEventLoop();
    if (c.hasLevels[i] === 1 && c.timeframe[i] === daily && (c.direction[i] === long || c.direction[i] === short) && keep(i)) out.push(c.trade(i));
  }
  return out;
}

/** `YYYY-MM` → its first and last instant (UTC); 400 for a month that does not exist. */
export function monthRange(month: string | undefined): { from: Date; to: Date } {
  const match = month ? /^(\d{4})-(\d{2})$/.exec(month) : null;
  const m = match ? Number(match[2]) : 0;
  if (!match || m < 1 || m > 12) throw new AppError('invalid_parameter', "Query parameter 'month' is required: a month YYYY-MM (01–12)");
  const y = Number(match[1]);
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1) - 1) };
}

/** The monthly rollup's JSON at the ledger's head (kept per head: `heldFigure`). */
export async function monthlyJson(sources: LedgerSources, query: { month?: string; source: LedgerSource; replayId?: string }): Promise<string> {
  const { month } = query;
  const { from, to } = monthRange(month);
  const view = await ledgerView(sources, query);
  return heldFigure(sources, view, `monthly:${month}`, '', async (book) => {
    const c = book.columns;
    const [lo, hi] = [from.getTime(), to.getTime()];
    const inMonth = (i: number) => c.detectedMs[i]! >= lo && c.detectedMs[i]! <= hi;
    const { all, by, kept } = await tallyColumns(c, inMonth, {
      pattern: c.patternType,
      band: c.scoreBand,
      timeframe: c.timeframe,
      direction: c.direction,
    });
    await yieldToEventLoop();
    const record = await recordOf(sources, view, await recordTrades(c, inMonth));
    return serialiseMonthly({
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
      record,
      signals: kept.map((i) => {
        const t = c.trade(i);
        return { id: t.id, symbol: t.symbol, patternType: t.patternType, scoreBand: t.scoreBand, timeframe: t.timeframe, direction: t.direction, detectedAt: t.detectedAt, outcome: t.outcome, entered: t.entered, rMultiple: t.rMultiple };
      }),
      method: PERFORMANCE_METHOD,
      source: view.source,
      replay: view.replay,
    });
  });
}

/** The monthly rollup (see the module comment), as the route sends it. */
export async function monthly(sources: LedgerSources, query: { month?: string; source: LedgerSource; replayId?: string }): Promise<Static<typeof MonthlyResponse>> {
  return JSON.parse(await monthlyJson(sources, query)) as Static<typeof MonthlyResponse>;
}

/** The scorecard's JSON at the ledger's head, for `now`'s day (its trailing windows): kept per head (`heldFigure`). */
export async function scorecardJson(sources: LedgerSources, query: { source: LedgerSource; replayId?: string }, now = Date.now()): Promise<string> {
  const view = await ledgerView(sources, query);
  const today = new Date(now).toISOString().slice(0, 10);
  return heldFigure(sources, view, 'scorecard', today, async (book) => {
    const c = book.columns;
    const trailing: Record<string, Performance> = {};
    // A tally of a book under SLICE trades (every live ledger's so far) is one stretch with its intervals, and an
    // await of it does not give the loop back: a turn of the loop between them, so the four are not one stretch.
    for (const days of TRAILING_DAYS) {
      const since = new Date(Date.parse(`${today}T00:00:00.000Z`) - days * DAY_MS).toISOString();
      trailing[`${days}d`] = (await tallyColumns(c, (i) => c.words[c.detectedAt[i]!]! >= since, {})).all;
      await yieldToEventLoop();
    }
    const { all, by } = await tallyColumns(c, () => true, { band: c.scoreBand, pattern: c.patternType, regime: c.regime, timeframe: c.timeframe, direction: c.direction });
    await yieldToEventLoop();
    const byBand = by.band;
    const bands = BANDS.map((band) => {
      const p = byBand[band];
      return { band, trades: p?.closed ?? 0, meanR: p?.avgR ?? 0, hitRate: p?.hitRate ?? 0, hitRateInterval: p?.hitRateInterval ?? { lower: null, upper: null } };
    });
    const monotonicity = scoreBandMonotonicity(bands);
    await yieldToEventLoop();
    const confidence = await confidenceInPool(sources, await confidenceInputs(c));
    await yieldToEventLoop();
    const { alertPolicy, edge, ...record } = await recordOf(sources, view, await recordTrades(c, () => true));
    return scorecardSerializer({
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
        confidence,
        record,
      },
      edge: { ledger: view.source, ...edge },
      alertPolicy: { ledger: view.source, ...alertPolicy },
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
    });
  });
}

/** The scorecard (see the module comment), as the route sends it. */
export async function scorecard(sources: LedgerSources, query: { source: LedgerSource; replayId?: string }, now = Date.now()): Promise<Static<typeof ScorecardResponse>> {
  return JSON.parse(await scorecardJson(sources, query, now)) as Static<typeof ScorecardResponse>;
}

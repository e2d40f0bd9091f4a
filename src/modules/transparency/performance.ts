/**
 * @module modules/transparency/performance
 * The monthly rollup and the scorecard, computed from a ledger only — the live
 * one or a replay's (sources.ts; ledger/performance holds the definitions).
 * Both are cached per ledger head: nothing is recomputed until a record is
 * appended. Each says which ledger it shows and, for the scorecard, whether
 * its universe carries survivorship bias. Both carry the record section
 * (jobs/record `recordOf`, computed in the worker pool: both matched
 * baselines with cluster-bootstrap intervals, the alert policy's record, the
 * `edge` statement).
 */
import type { LedgerRepository } from '../../db/repositories/ledger';
import { AppError } from '../../errors';
import { recordOf } from '../../jobs/record';
import { scoreBandMonotonicity } from '../../kernels/stats';
import { confidenceCheck, performance, performanceBy, tradesWhere } from '../../ledger/performance';
import type { LedgerSource } from './model';
import { ledgerView, type LedgerSources } from './sources';

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

const head = async (ledger: LedgerRepository) => {
  const h = await ledger.head();
  return { seq: h.seq, hash: h.hash };
};

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
  const { ledger, figures } = view;
  return figures.perHead(`${view.key}:monthly:${month}`, async () => {
    const trades = await tradesWhere(ledger, { since: from, until: to });
    return {
      month: month!,
      from: from.toISOString(),
      to: to.toISOString(),
      generatedAt: new Date().toISOString(),
      ledgerHead: await head(ledger),
      summary: performance(trades),
      byPattern: performanceBy(trades, (t) => t.patternType),
      byBand: performanceBy(trades, (t) => t.scoreBand),
      byTimeframe: performanceBy(trades, (t) => t.timeframe),
      byDirection: performanceBy(trades, (t) => t.direction),
      record: await recordOf(sources, view, trades),
      signals: trades.map((t) => ({ id: t.id, symbol: t.symbol, patternType: t.patternType, scoreBand: t.scoreBand, timeframe: t.timeframe, direction: t.direction, detectedAt: t.detectedAt, outcome: t.outcome, entered: t.entered, rMultiple: t.rMultiple })),
      method: PERFORMANCE_METHOD,
      source: view.source,
      replay: view.replay,
    };
  });
}

export async function scorecard(sources: LedgerSources, query: { source: LedgerSource; replayId?: string }, now = Date.now()) {
  const view = await ledgerView(sources, query);
  const { ledger, figures } = view;
  const today = new Date(now).toISOString().slice(0, 10);
  return figures.perHead(`${view.key}:scorecard:${today}`, async () => {
    const trades = await tradesWhere(ledger, {});
    const trailing = Object.fromEntries(
      TRAILING_DAYS.map((days) => {
        const since = new Date(Date.parse(`${today}T00:00:00.000Z`) - days * DAY_MS).toISOString();
        return [`${days}d`, performance(trades.filter((t) => t.detectedAt >= since))];
      }),
    );
    const byBand = performanceBy(trades, (t) => t.scoreBand);
    const bands = BANDS.map((band) => {
      const p = byBand[band];
      return { band, trades: p?.closed ?? 0, meanR: p?.avgR ?? 0, hitRate: p?.hitRate ?? 0, hitRateInterval: p?.hitRateInterval ?? { lower: null, upper: null } };
    });
    const monotonicity = scoreBandMonotonicity(bands);
    const { alertPolicy, edge, ...record } = await recordOf(sources, view, trades);
    return {
      generatedAt: new Date(now).toISOString(),
      ledgerHead: await head(ledger),
      allTime: performance(trades),
      trailing,
      calibration: {
        byBand: Object.fromEntries(BANDS.map((band) => [band, byBand[band] ?? performance([])])),
        byPattern: performanceBy(trades, (t) => t.patternType),
        byRegime: performanceBy(trades, (t) => t.regime),
        byTimeframe: performanceBy(trades, (t) => t.timeframe),
        byDirection: performanceBy(trades, (t) => t.direction),
        confidence: confidenceCheck(trades),
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
    };
  });
}

/**
 * @module modules/signals/forecast
 * /api/forecast: a quantile price cone from a daily volatility model
 * (kernels/volatility), how well such cones held on the symbol's own past,
 * and the ledger's record of the symbol's active pattern.
 *
 * Data window: the last `WINDOW_RETURNS` daily returns up to `asOf` (about
 * five years: long enough for a stable GARCH fit, short enough to stay in the
 * current volatility regime). GARCH needs `GARCH_MIN` returns, else EWMA is
 * used and `fallback` says why; fewer than `MIN_RETURNS` is a 404.
 *
 * Active pattern: the daily scan of this one symbol at `asOf` (the same
 * detectors and scoring as the universe scan; without the cross-sectional RS
 * rank and market regime, so its score can differ from /api/breakouts by
 * those components), the highest `finalScore` first. Its track record is the
 * ledger's figures for signals of that pattern type and direction on the daily
 * timeframe, counting only signals detected and outcomes exited by `asOf`.
 */
import { AppError } from '../../errors';
import { logReturns, priceQuantiles, RISKMETRICS_LAMBDA } from '../../kernels/volatility';
import { CALIBRATION_FROM, GARCH_MIN } from '../../kernels/volatility-forecast';
import { normalCdf } from '../../kernels/options/normal';
import { round } from '../../kernels/round';
import { performance, tradesWhere } from '../../ledger/performance';
import { inFlight } from '../../in-flight';
import { nextTradingDay } from '../../providers/calendar';
import type { Services } from '../../services';
import type { ForecastQuery, ForecastResponse } from './model';

type Deps = Pick<Services, 'marketData' | 'barStore' | 'pool' | 'ledger' | 'ledgerFigures' | 'log' | 'database'>;

/** Ledger records read a page when a replay's trades are read afresh (`asOf`): PGlite decodes a page in the server's thread. */
const pageSize = (deps: Deps) => (deps.database.kind === 'pglite' ? 250 : 5_000);

const WINDOW_RETURNS = 1260;
const MIN_RETURNS = 60;
const PROBABILITIES = [0.05, 0.25, 0.5, 0.75, 0.95] as const;
const DAY_MS = 86_400_000;

const METHOD = {
  returns: `daily log returns of the last ${WINDOW_RETURNS} closes up to asOf, mean taken as zero`,
  ewma: `RiskMetrics: h(t+1) = λ·h(t) + (1 − λ)·r(t)², λ = ${RISKMETRICS_LAMBDA}; the forecast stays flat over the horizon`,
  garch: `GARCH(1,1): h(t+1) = ω + α·r(t)² + β·h(t), fitted by Gaussian quasi-maximum likelihood with variance targeting (ω = s²(1 − α − β)); needs ${GARCH_MIN} returns, else EWMA`,
  horizon: 'V_k = Σ_(j=1..k) E[h(T+j)], E[h(T+j)] = V_L + (α + β)^(j−1)·(h(T+1) − V_L)',
  cone: 'driftless lognormal (E[price] = today’s close): quantile p = close · exp(−V_k/2 + Φ⁻¹(p)·√V_k), p = 5, 25, 50, 75, 95%',
  calibration: `every past close from the ${CALIBRATION_FROM}th return of the window with a full horizon after it: the share of realised moves inside the 5–95% and 25–75% bands; real returns are fat-tailed, so expect the 90% band to miss more than 10% in stressed periods`,
  activePattern: 'highest-scoring live setup of the daily scan of this symbol at asOf (no RS rank or market regime in its score); probabilities are of the close at the horizon, from the cone',
  trackRecord: 'ledger/performance figures of signals of that pattern type and direction (daily), detected and resolved by asOf',
  noLookAhead: 'only bars up to asOf are read; ledger outcomes exited after asOf count as open',
};

const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);

function quantilesAt(price: number, variance: number) {
  const [p5, p25, p50, p75, p95] = priceQuantiles(price, variance, PROBABILITIES).map((q) => round(q, 4));
  return { p5: p5!, p25: p25!, p50: p50!, p75: p75!, p95: p95! };
}

/** Callers of the same forecast at once share one computation (issue 27): five cold callers of an `asOf` read the pattern's trades once, not five times back to back in the server's thread. */
const sharedForecasts = inFlight<Deps['pool'], ForecastResponse>();

export function forecastOf(deps: Deps, query: ForecastQuery): Promise<ForecastResponse> {
  const key = JSON.stringify([query.symbol, query.horizon, query.model, query.asOf ?? null]);
  return sharedForecasts(deps.pool, key, () => computeForecast(deps, query));
}

async function computeForecast(deps: Deps, query: ForecastQuery): Promise<ForecastResponse> {
  const { symbol, horizon, model: requestedModel } = query;
  const cutoff = query.asOf ? Date.parse(`${query.asOf}T00:00:00Z`) : Number.POSITIVE_INFINITY;
  await deps.marketData.instrument(symbol); // unknown symbol → 404
  const { bars } = await deps.marketData.completeDaily(symbol);
  let end = bars.ts.length;
  while (end > 0 && bars.ts[end - 1]! > cutoff) end--;
  const start = Math.max(0, end - WINDOW_RETURNS - 1);
  const close = bars.close.subarray(start, end);
  const returns = logReturns(close);
  if (returns.length < MIN_RETURNS) {
    throw new AppError('not_found', `${symbol} has ${close.length} daily closes${query.asOf ? ` on or before ${query.asOf}` : ''}; a forecast needs at least ${MIN_RETURNS + 1}`);
  }
  const barTs = bars.ts[end - 1]!;
  const price = close[close.length - 1]!;

  // The model, its forecast and the calibration in the pool's live lane (kernels/volatility-forecast): off the event loop.
  let fitted;
  try {
    fitted = await deps.pool.run('forecastModel', { close: Float64Array.from(close), horizon, model: requestedModel });
  } catch (error) {
    deps.log.error('forecast model failed', { symbol, error: String(error) });
    throw new AppError('internal', 'The volatility model failed; the cause is in the server log');
  }
  const { garch, fallback, model, next, variance, coverage } = fitted;
  const total = variance[horizon - 1]!;

  const cone: ForecastResponse['cone'] = [];
  let date = isoDay(barTs);
  for (let k = 0; k < horizon; k++) {
    date = nextTradingDay(date);
    cone.push({ day: k + 1, date, ...quantilesAt(price, variance[k]!) });
  }
  const share = (i: number) => {
    const s = coverage.inside[i]!.share;
    return s === null ? null : round(s, 4);
  };

  const { activePattern, trackRecord } = await patternOf(deps, symbol, barTs, price, total, query.asOf !== undefined);
  return {
    ok: true,
    symbol,
    asOf: isoDay(barTs),
    price,
    horizon,
    model: garch ? 'garch' : 'ewma',
    requestedModel,
    fallback,
    volatility: {
      daily: round(Math.sqrt(next), 6),
      annualized: round(Math.sqrt(252 * next), 6),
      horizon: round(Math.sqrt(total), 6),
      horizonAnnualized: round(Math.sqrt((252 * total) / horizon), 6),
      longRunDaily: garch ? round(Math.sqrt(garch.longRunVariance), 6) : null,
      params: {
        omega: model.omega,
        alpha: round(model.alpha, 6),
        beta: round(model.beta, 6),
        persistence: round(model.alpha + model.beta, 6),
        halfLifeDays: garch ? round(garch.halfLifeDays, 2) : null,
        lambda: garch ? null : RISKMETRICS_LAMBDA,
      },
      observations: returns.length,
      logLikelihood: garch ? round(garch.logLikelihood, 4) : null,
    },
    quantiles: quantilesAt(price, total),
    cone,
    calibration: { windows: coverage.windows, band90: share(0), band50: share(1), outOfSample: garch === null },
    activePattern,
    trackRecord,
    method: METHOD,
  };
}

/** The symbol's best live daily setup at `barTs` and the ledger's record of its pattern. */
async function patternOf(deps: Deps, symbol: string, barTs: number, price: number, variance: number, replay: boolean) {
  let findings;
  try {
    ({ findings } = await deps.pool.run('scan', { handle: deps.barStore.handle(), symbols: [symbol], timeframe: 'daily', asOfTs: barTs, rsRanks: {}, regime: null }));
  } catch (error) {
    deps.log.error('forecast scan failed', { symbol, error: String(error) });
    throw new AppError('scan_failed', 'The pattern scan failed; the cause is in the server log');
  }
  const best = findings.sort((a, b) => b.finalScore - a.finalScore)[0];
  if (!best) return { activePattern: null, trackRecord: null };
  const sd = Math.sqrt(variance);
  /** P(ln(S_h / S_0) > ln(level / S_0)) under the cone's lognormal. */
  const above = (level: number) => 1 - normalCdf((Math.log(level / price) + variance / 2) / sd);
  const long = best.direction === 'long';
  const activePattern = {
    patternType: best.patternType,
    patternFamily: best.patternFamily,
    direction: best.direction,
    state: best.state,
    finalScore: best.finalScore,
    scoreBand: best.band,
    detectedAt: new Date(best.detectedTs).toISOString(),
    pivot: best.pivot,
    target1: best.target1,
    stopLoss: best.stopLoss,
    probabilityBeyondTarget: round(long ? above(best.target1) : 1 - above(best.target1), 4),
    probabilityBeyondStop: round(long ? 1 - above(best.stopLoss) : above(best.stopLoss), 4),
  };
  // Knowledge ends with the asOf session; without asOf, everything recorded so far counts.
  const knownAt = replay ? new Date(barTs + DAY_MS - 1) : undefined;
  // Present-day trades are shared per ledger head; replays are read afresh (a key per date would grow without bound).
  const all = knownAt
    ? await tradesWhere(deps.ledger, { patternType: best.patternType }, knownAt, pageSize(deps))
    : await deps.ledgerFigures.book().then((book) => book.perHead(`trades:${best.patternType}`, async () => book.ofPattern(best.patternType)));
  const trades = all.filter((t) => t.direction === best.direction && t.timeframe === 'daily');
  const figures = { pattern: performance(trades), symbol: performance(trades.filter((t) => t.symbol === symbol)) };
  return {
    activePattern,
    trackRecord: {
      patternType: best.patternType,
      direction: best.direction,
      timeframe: 'daily' as const,
      knownAt: (knownAt ?? new Date()).toISOString(),
      ...figures,
    },
  };
}

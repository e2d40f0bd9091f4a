/**
 * @module console/app/pages/record
 * Track record: the scorecard (`/api/scorecard`) and the ledger's months
 * (`/api/transparency/monthly`) as plots, for one chain at a time — the live
 * ledger or the replay of history, chosen by tab and labelled on every
 * figure, never mixed — with the survivorship caveat where the API states it,
 * and the chain's verification (`/api/transparency/verify`, on demand: it
 * recomputes every hash).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, query } from '../api';
import { count, dateTime, interval, percent, r } from '../format';
import { IntervalBars, MonthlyOutcomes, PlotSlot, Reliability, type MonthOutcome } from '../parts/plots';
import { Pending } from '../parts/problem';
import { useApi } from '../parts/use-api';
import { BASE } from '../router';
import { SCORE_BANDS, type Scorecard } from '../types';
import { Verification } from './record-verify';

/** Months the monthly plot shows (one request each, three at a time). */
const MONTHS = 12;

function monthsBefore(end: string, n: number): string[] {
  const [year, month] = end.split('-').map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(year, month - 1 - (n - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

function useMonthly(source: string, end: string | undefined) {
  const [months, setMonths] = useState<MonthOutcome[]>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    if (!end) return;
    const controller = new AbortController();
    const wanted = monthsBefore(end, MONTHS);
    const out: MonthOutcome[] = [];
    // The replay chain's months are costly reads (RATE_LIMIT_COSTLY_QUOTA, 10 a minute by default): past the
    // quota a month waits as long as the server's Retry-After says and is asked again, so the plot fills in.
    const wait = (seconds: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, seconds * 1000);
        controller.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new DOMException('aborted', 'AbortError'))), { once: true });
      });
    const monthOf = async (month: string): Promise<{ summary: { wins: number; losses: number; scratches: number } }> => {
      try {
        return await api(`/api/transparency/monthly${query({ month, source })}`, { signal: controller.signal });
      } catch (problem) {
        if (!(problem instanceof ApiError) || problem.kind !== 'rate_limited') throw problem;
        await wait(problem.retryAfter ?? 10);
        return monthOf(month);
      }
    };
    const next = async (): Promise<void> => {
      const month = wanted.shift();
      if (!month) return;
      const answer = await monthOf(month);
      out.push({ month, wins: answer.summary.wins, losses: answer.summary.losses, scratches: answer.summary.scratches });
      return next();
    };
    setMonths(undefined);
    setError(undefined);
    Promise.all([next(), next(), next()]).then(
      () => setMonths(out.sort((a, b) => a.month.localeCompare(b.month))),
      (problem: unknown) => (problem as Error).name !== 'AbortError' && setError(problem),
    );
    return () => controller.abort();
  }, [source, end]);
  return { months, error };
}

function ByBand({ card }: { card: Scorecard }) {
  const bands = [...SCORE_BANDS].reverse();
  const figures = bands.map((band) => ({ band, f: card.calibration.byBand[band], b: card.calibration.record.byBand[band] }));
  return (
    <>
      <div class="cards">
        <div class="card">
          <h3>Hit rate by band</h3>
          <IntervalBars
            title="Hit rate by score band"
            description="Wins over closed trades per band, with 95% intervals that take the trades of one week as one cluster."
            format={(v) => percent(v, 0)}
            data={figures.map(({ band, f }) => ({ label: band, value: f?.hitRate ?? null, lower: f?.hitRateInterval.lower ?? null, upper: f?.hitRateInterval.upper ?? null }))}
          />
        </div>
        <div class="card">
          <h3>Mean R by band</h3>
          <IntervalBars
            title="Mean R-multiple by score band"
            description="Mean R of closed trades per band, with 95% intervals that take the trades of one week as one cluster."
            format={(v) => v.toFixed(2)}
            data={figures.map(({ band, f }) => ({ label: band, value: f?.avgR ?? null, lower: f?.avgRInterval.lower ?? null, upper: f?.avgRInterval.upper ?? null }))}
          />
        </div>
        <div class="card">
          <h3>Lift over same-day random entries</h3>
          <IntervalBars
            title="Lift of the hit rate over same-day random entries by band"
            description="Signals' price-only hit rate minus that of random entries in other members on the same day, with 95% weekly cluster-bootstrap intervals; above zero is edge."
            format={(v) => percent(v, 1)}
            data={figures.map(({ band, b }) => ({ label: band, value: b?.sameDay.lift.value ?? null, lower: b?.sameDay.lift.lower ?? null, upper: b?.sameDay.lift.upper ?? null }))}
          />
        </div>
      </div>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Figures by band">
        <table>
          <caption>By band ({card.source})</caption>
          <thead>
            <tr>
              <th scope="col">Band</th>
              <th scope="col" class="num">Signals</th>
              <th scope="col" class="num">Closed</th>
              <th scope="col" class="num">Hit rate (95%)</th>
              <th scope="col" class="num">Mean R (95%)</th>
              <th scope="col" class="num">Same-day baseline hit rate</th>
              <th scope="col" class="num">Same-day lift (95%)</th>
            </tr>
          </thead>
          <tbody>
            {figures.map(({ band, f, b }) => (
              <tr key={band}>
                <th scope="row">{band}</th>
                <td class="num">{count(f?.signals)}</td>
                <td class="num">{count(f?.closed)}</td>
                <td class="num">
                  {percent(f?.hitRate)}
                  {interval(f?.hitRateInterval.lower, f?.hitRateInterval.upper, percent)}
                </td>
                <td class="num">
                  {r(f?.avgR)}
                  {interval(f?.avgRInterval.lower, f?.avgRInterval.upper, r)}
                </td>
                <td class="num">{percent(b?.sameDay.hitRate)}</td>
                <td class="num">
                  {percent(b?.sameDay.lift.value)}
                  {interval(b?.sameDay.lift.lower, b?.sameDay.lift.upper, percent)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function RecordPage({ search }: { search: URLSearchParams }) {
  const source = search.get('source') === 'replay' ? 'replay' : 'live';
  const { data: card, error, reload } = useApi<Scorecard>(`/api/scorecard${query({ source })}`);
  const end = card ? (source === 'replay' ? card.replay?.params.to : card.generatedAt)?.slice(0, 7) : undefined;
  const monthly = useMonthly(source, source === 'replay' && card && !card.replay ? undefined : end);
  const label = source === 'live' ? 'Live ledger' : 'Replay of history';
  return (
    <section aria-labelledby="record-title">
      <h1 id="record-title">Track record</h1>
      <ul class="tabs" aria-label="Which record">
        <li>
          <a href={`${BASE}/record`} aria-current={source === 'live' ? 'page' : undefined}>
            Live ledger
          </a>
        </li>
        <li>
          <a href={`${BASE}/record?source=replay`} aria-current={source === 'replay' ? 'page' : undefined}>
            Replay of history
          </a>
        </li>
      </ul>
      {!card && source === 'replay' && error instanceof ApiError && error.kind === 'not_found' ? (
        <p class="notice" data-source="replay" data-replay="none">
          <strong>No replay of history on this server yet.</strong> The first start on the synthetic market runs one by itself; <code>breakline replay</code> runs one on your data.
        </p>
      ) : !card ? (
        <Pending what="the scorecard" error={error} retry={reload} />
      ) : (
        <div class={`source-${source}`} data-source={source}>
          <p class="card">
            <strong>{label}.</strong>{' '}
            {source === 'live'
              ? 'Signals recorded when they were surfaced, with the outcome appended as it happened.'
              : card.replay
                ? `Replay ${card.replay.id} (${card.replay.status}) of ${card.replay.params.from} to ${card.replay.params.to}: the detectors run over past bars, on a chain of its own.`
                : 'No replay has run on this server yet.'}{' '}
            Scorecard of {dateTime(card.generatedAt)}, ledger head {card.ledgerHead ? `#${card.ledgerHead.seq}` : '—'}.
          </p>
          {card.survivorshipBias && card.survivorshipNote && (
            <p class="notice" data-caveat="survivorship">
              <strong>Caveat.</strong> {card.survivorshipNote}
            </p>
          )}
          <div class="cards">
            <div class="card">
              <h2>All time</h2>
              <p>
                {count(card.allTime.signals)} signals, {count(card.allTime.closed)} closed ({count(card.allTime.wins)} wins, {count(card.allTime.losses)} losses, {count(card.allTime.scratches)} scratches)
              </p>
              <p>
                Hit rate <strong>{percent(card.allTime.hitRate)}</strong>
                {interval(card.allTime.hitRateInterval.lower, card.allTime.hitRateInterval.upper, percent)} · mean R{' '}
                <strong>{r(card.allTime.avgR)}</strong> · profit factor {card.allTime.profitFactor?.toFixed(2) ?? '—'}
              </p>
              {card.edge && <p data-edge="statement">{card.edge.statement}</p>}
              {card.higherBandsDoBetter && <p class="muted">{card.higherBandsDoBetter.statement}</p>}
            </div>
            <div class="card">
              <h2>Calibration of confidence</h2>
              {card.calibration.confidence.reliability.length > 0 ? (
                <Reliability points={card.calibration.confidence.reliability} />
              ) : (
                <p class="muted">No closed trades to judge confidence by yet.</p>
              )}
              <p class="muted">
                Brier {card.calibration.confidence.brier?.toFixed(4) ?? '—'} · skill over the base rate {card.calibration.confidence.skill?.toFixed(3) ?? '—'} on {count(card.calibration.confidence.trades)} trades
              </p>
            </div>
          </div>
          <h2>By score band</h2>
          <ByBand card={card} />
          <h2>Monthly outcomes ({label.toLowerCase()})</h2>
          {monthly.months ? (
            <MonthlyOutcomes months={monthly.months} />
          ) : (
            <PlotSlot>
              <Pending what="the months" error={monthly.error} />
            </PlotSlot>
          )}
          {!end && <p class="muted">No months to show.</p>}
          <p class="muted">
            {card.calibration.record.method.sameDay} {card.calibration.record.method.intervals}
          </p>
        </div>
      )}
      {/* Below the scorecard once it is there (or has failed): drawn before, the scorecard would push it down the page. */}
      {(card || error !== undefined) && (
        <>
          <h2>Chain verification</h2>
          <Verification />
        </>
      )}
    </section>
  );
}



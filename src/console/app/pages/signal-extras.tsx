/**
 * @module console/app/pages/signal-extras
 * The parts of a signal's page that come from other endpoints: the options
 * analysis of its levels (`/api/options/analyze`) and the plain-language
 * explanation (`/api/explain`), shown only when a model is configured, with
 * the server's reason otherwise.
 */
import { query } from '../api';
import { percent, price } from '../format';
import { Pending, Problem } from '../parts/problem';
import { useApi } from '../parts/use-api';
import type { HistorySignal } from './signal-data';

interface OptionsAnswer {
  recommendation: { strategy: string; rewardRisk: number | null; reasoning: string[]; contract?: { type: string; strike: number; expiryDays: number; price: number; breakeven: number } | null };
  probabilities?: { touchTarget: number; touchStop: number; targetBeforeStop: number };
  expectedTimeToTarget?: { days: number };
}

export function OptionsAnalysis({ signal }: { signal: HistorySignal }) {
  const path = `/api/options/analyze${query({ symbol: signal.symbol, direction: signal.direction, trigger: signal.triggerPrice, target: signal.target1, stop: signal.stopLoss ?? undefined })}`;
  const { data, error, reload } = useApi<OptionsAnswer>(path);
  return (
    <section aria-labelledby="options-title">
      <h2 id="options-title">Options analysis</h2>
      {!data ? (
        <Pending what="the options analysis" error={error} retry={reload} />
      ) : (
        <>
          <p>
            Suggested: <strong>{data.recommendation.strategy.replaceAll('_', ' ')}</strong>
            {data.recommendation.contract && (
              <>
                {' '}
                — the {data.recommendation.contract.strike} {data.recommendation.contract.type} ({data.recommendation.contract.expiryDays} days) at {price(data.recommendation.contract.price)}, breakeven{' '}
                {price(data.recommendation.contract.breakeven)}
              </>
            )}
            {data.recommendation.rewardRisk !== null && <> · reward/risk {data.recommendation.rewardRisk.toFixed(2)}</>}
          </p>
          {data.probabilities && (
            <p class="muted">
              Target before stop {percent(data.probabilities.targetBeforeStop)} · touch target {percent(data.probabilities.touchTarget)} · touch stop {percent(data.probabilities.touchStop)}
              {data.expectedTimeToTarget && <> · median time to target {data.expectedTimeToTarget.days.toFixed(0)} days</>}
            </p>
          )}
          <ul>
            {data.recommendation.reasoning.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function Explanation({ signal, noModel }: { signal: HistorySignal; noModel: string | undefined | null }) {
  const ask = noModel === undefined;
  const { data, error, reload } = useApi<{ bullets: string[]; modelUsed?: string }>(ask ? `/api/explain${query({ symbol: signal.symbol, signalId: signal.id })}` : null);
  return (
    <section aria-labelledby="explain-title">
      <h2 id="explain-title">AI explanation</h2>
      {noModel === null && <p class="muted">Checking whether a language model is configured…</p>}
      {typeof noModel === 'string' && (
        <p class="notice" data-no-model>
          <strong>No model configured.</strong> {noModel}
        </p>
      )}
      {ask && !data && (error ? <Problem error={error} retry={reload} /> : <Pending what="the explanation" error={undefined} />)}
      {data && (
        <>
          <ul>
            {data.bullets.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {data.modelUsed && <p class="muted">Written by {data.modelUsed}; every number checked against the facts it was given.</p>}
        </>
      )}
    </section>
  );
}

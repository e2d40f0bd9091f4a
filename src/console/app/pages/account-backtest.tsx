/**
 * @module console/app/pages/account-backtest
 * The walk-forward backtest (`POST /api/backtest/walk-forward`, needs a
 * session): a form for its parameters, then its metrics against buy-and-hold
 * and the benchmark, the folds (train, purge, test, embargo windows and each
 * test window's result) and the equity curve.
 */
import { useState } from 'preact/hooks';
import { api, query } from '../api';
import { count, percent } from '../format';
import { Line } from '../parts/plots';
import { ActionForm, Choices, Field } from '../parts/form';
import { fieldsOf, useAction } from '../parts/use-action';

interface Window {
  from: string;
  to: string;
  bars: number;
}

interface Metrics {
  totalReturn: number;
  sharpe: number | null;
  maxDrawdown: number;
  winRate: number | null;
  tradeCount: number;
}

interface WalkForward {
  symbol: string;
  benchmark: string;
  period: { from: string; to: string; bars: number };
  metrics: Metrics;
  tradeCount: number;
  folds: { index: number; train: Window; purge: Window | null; test: Window; embargo: Window | null; tradeCount: number; metrics: Metrics }[];
  equity: { date: string; equity: number }[];
  benchmarks: { symbol: { totalReturn: number }; benchmark: { symbol: string; totalReturn: number } };
  disclaimer: string;
}

export function Backtest() {
  const action = useAction();
  const [result, setResult] = useState<WalkForward>();
  const run = (event: Event) => {
    const f = fieldsOf(event);
    setResult(undefined);
    action.run(() => api<WalkForward>(`/api/backtest/walk-forward${query({ symbol: f.symbol, months: f.months, train: f.train, test: f.test, purge: f.purge, embargo: f.embargo })}`, { method: 'POST' }), setResult);
  };
  return (
    <section aria-labelledby="backtest-title">
      <h2 id="backtest-title">Walk-forward backtest</h2>
      <ActionForm label="Backtest parameters" submit={action.busy ? 'Running…' : 'Run backtest'} action={action} onSubmit={run}>
        <Field label="Symbol">
          <input name="symbol" required defaultValue="AAPL" size={8} />
        </Field>
        <Field label="Test months">
          <select name="months">
            <Choices values={['1', '3', '6']} selected="6" />
          </select>
        </Field>
        <Field label="Train bars">
          <input name="train" type="number" min="1" defaultValue="60" size={5} />
        </Field>
        <Field label="Test bars">
          <input name="test" type="number" min="1" defaultValue="20" size={5} />
        </Field>
        <Field label="Purge">
          <input name="purge" type="number" min="0" defaultValue="2" size={4} />
        </Field>
        <Field label="Embargo">
          <input name="embargo" type="number" min="0" defaultValue="2" size={4} />
        </Field>
      </ActionForm>
      {result && (
        <div data-backtest={result.symbol}>
          <p>
            <strong>{result.symbol}</strong>, {result.period.from} to {result.period.to} ({result.period.bars} bars): return {percent(result.metrics.totalReturn)} on {count(result.tradeCount)} trades (buy and hold{' '}
            {percent(result.benchmarks.symbol.totalReturn)}, {result.benchmarks.benchmark.symbol} {percent(result.benchmarks.benchmark.totalReturn)}) · Sharpe {result.metrics.sharpe?.toFixed(2) ?? '—'} · max
            drawdown {percent(result.metrics.maxDrawdown)}
          </p>
          {result.equity.length > 1 && (
            <Line
              title="Equity curve"
              description={`Account equity from ${result.equity[0]!.date} to ${result.equity.at(-1)!.date}.`}
              values={result.equity.map((p) => p.equity)}
              format={(v) => `${Math.round(v / 1000)}k`}
            />
          )}
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Folds">
            <table>
              <caption>Folds</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Train</th>
                  <th scope="col">Purge</th>
                  <th scope="col">Test</th>
                  <th scope="col">Embargo</th>
                  <th scope="col" class="num">Trades</th>
                  <th scope="col" class="num">Return</th>
                </tr>
              </thead>
              <tbody>
                {result.folds.map((fold) => (
                  <tr key={fold.index}>
                    <th scope="row">{fold.index + 1}</th>
                    <td>
                      {fold.train.from} – {fold.train.to}
                    </td>
                    <td>{fold.purge ? `${fold.purge.bars} bars` : '—'}</td>
                    <td>
                      {fold.test.from} – {fold.test.to}
                    </td>
                    <td>{fold.embargo ? `${fold.embargo.bars} bars` : '—'}</td>
                    <td class="num">{fold.tradeCount}</td>
                    <td class="num">{percent(fold.metrics.totalReturn)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p class="muted">{result.disclaimer}</p>
        </div>
      )}
    </section>
  );
}

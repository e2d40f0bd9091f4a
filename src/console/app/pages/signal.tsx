/**
 * @module console/app/pages/signal
 * A signal's page: its chart (candles, volume, the pattern's levels and
 * markers, the forecast cone; parts/chart, loaded with this page), the live
 * last price from the stream, the levels in a table (what a screen reader
 * reads instead of the chart), its reasons, its lifecycle, the options
 * analysis and the AI explanation (or why there is none).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Pending, Problem } from '../parts/problem';
import { useApi } from '../parts/use-api';
import { BASE } from '../router';
import { StreamLine, useStream } from '../stream';
import { date, dateTime, pct, price, words } from '../format';
import { query } from '../api';
import type { Bar, Signal } from '../types';
import { bareSignalId } from '../../../domain/signal-id';
import type { ConeDay, SignalChart } from '../parts/chart';
import { modelMissing, readBars, readSignal, type SignalRead } from './signal-data';
import { Explanation, OptionsAnalysis } from './signal-extras';

function Levels({ signal, last }: { signal: SignalRead['signal']; last?: number }) {
  return (
    <table class="levels">
      <caption>Levels</caption>
      <tbody>
        <tr>
          <th scope="row">Trigger (pivot)</th>
          <td class="num" data-level="trigger">{price(signal.triggerPrice)}</td>
        </tr>
        <tr>
          <th scope="row">Target 1</th>
          <td class="num" data-level="target1">{price(signal.target1)}</td>
        </tr>
        <tr>
          <th scope="row">Stop</th>
          <td class="num" data-level="stop">{price(signal.stopLoss)}</td>
        </tr>
        <tr>
          <th scope="row">Last price</th>
          <td class="num" data-level="last">{price(last ?? signal.price)}</td>
        </tr>
        {signal.geometry && (
          <tr>
            <th scope="row">Base</th>
            <td>
              {signal.timeframe === 'daily' ? `${date(signal.geometry.start)} – ${date(signal.geometry.end)}` : `${dateTime(signal.geometry.start)} – ${dateTime(signal.geometry.end)}`} ({signal.geometry.lengthBars} bars, {pct(signal.geometry.depthPct)} deep)
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

function Chart({ signal, bars, cone, last }: { signal: Signal; bars: Bar[]; cone?: ConeDay[]; last?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const drawn = useRef<SignalChart | undefined>(undefined);
  const [problem, setProblem] = useState<unknown>();
  useEffect(() => {
    let cancelled = false;
    import('../parts/chart').then(
      ({ drawSignalChart }) => {
        if (cancelled || !box.current) return;
        drawn.current = drawSignalChart(box.current, bars, signal, cone);
        box.current.dataset.ready = 'true';
      },
      (error: unknown) => setProblem(error),
    );
    return () => {
      cancelled = true;
      drawn.current?.remove();
      drawn.current = undefined;
    };
  }, [signal.id, bars, cone]);
  useEffect(() => {
    if (last !== undefined) drawn.current?.setLastPrice(last);
  }, [last]);
  if (problem) return <Problem error={problem} />;
  return (
    <figure class="chart-figure">
      <div id="chart" class="chart" ref={box} role="img" aria-label={`${signal.symbol} ${signal.timeframe} candles with the trigger at ${price(signal.triggerPrice)}, target 1 at ${price(signal.target1)} and stop at ${price(signal.stopLoss)}`} />
      <figcaption class="muted">
        Candles and volume, {signal.timeframe}; base start/end and the breakout bar marked. Charts by{' '}
        <a href="https://www.tradingview.com/" rel="noopener">
          TradingView Lightweight Charts™
        </a>
        .
      </figcaption>
    </figure>
  );
}

export function SignalPage({ id }: { id: string }) {
  // An intraday id names its timeframe (`…Z/PT4H`, domain/signal-id); an id stored before that rides with `?timeframe=`.
  const timeframe = bareSignalId(id).timeframe ?? new URLSearchParams(location.search).get('timeframe') ?? 'daily';
  const [read, setRead] = useState<SignalRead>();
  const [bars, setBars] = useState<Bar[]>();
  const [noModel, setNoModel] = useState<string | undefined | null>(null);
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);
  const [last, setLast] = useState<number>();
  const [state, setState] = useState<{ to: string; at: string; price: number }[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    setError(undefined);
    readSignal(id, timeframe, controller.signal)
      .then((signalRead) => {
        setRead(signalRead);
        return readBars(signalRead.signal.symbol, timeframe, controller.signal).then(setBars);
      })
      .catch((problem: unknown) => (problem as Error).name !== 'AbortError' && setError(problem));
    modelMissing(controller.signal).then(setNoModel, () => setNoModel('The health report could not be read, so the explanation was not asked for.'));
    return () => controller.abort();
  }, [id, timeframe, attempt]);

  const symbol = read?.signal.symbol;
  const status = useStream({ channels: ['breakouts.state_change'], symbols: symbol ? [symbol] : [], enabled: symbol !== undefined }, (event, data) => {
    if (event === 'quote' && data.symbol === symbol) setLast(data.price as number);
    if (event === 'breakouts.state_change' && data.signalId === id) setState((old) => [...old, { to: data.to as string, at: data.at as string, price: data.price as number }]);
  });
  const cone = useApi<{ cone: ConeDay[] }>(symbol && timeframe === 'daily' ? `/api/forecast${query({ symbol })}` : null);

  if (error) return <Problem error={error} retry={() => setAttempt((n) => n + 1)} />;
  if (!read) return <Pending what="the signal" error={undefined} />;
  const { signal, current, history } = read;
  const liveState = state.at(-1)?.to ?? signal.breakoutState;
  return (
    <article aria-labelledby="signal-title">
      <p>
        <a href={`${BASE}/signals${timeframe === 'daily' ? '' : `?timeframe=${timeframe}`}`}>← All signals</a>
      </p>
      <div class="heading">
        <h1 id="signal-title">
          {signal.symbol} · {words(signal.patternType)} <span class={`dir dir-${signal.direction}`}>{signal.direction}</span>
        </h1>
        <StreamLine status={status} />
      </div>
      <p class="facts">
        <span class={`band band-${signal.scoreBand}`}>{signal.scoreBand}</span> score {signal.finalScore.toFixed(1)} · confidence {(signal.confidence * 100).toFixed(0)}% · state{' '}
        <strong data-state={liveState}>{words(liveState)}</strong> · {signal.timeframe} · detected {signal.timeframe === 'daily' ? date(signal.detectedAt) : dateTime(signal.detectedAt)} · last <strong class="num" data-last-price>{price(last ?? signal.price)}</strong>
        {!current && <span class="muted"> · no longer in the latest scan (read from its history)</span>}
      </p>
      <div class="signal-grid">
        <div>
          {bars ? signal.geometry ? <Chart signal={signal as Signal} bars={bars} cone={cone.data?.cone} last={last} /> : <p class="muted">The history of this signal holds no geometry to draw.</p> : <Pending what="the chart" error={undefined} />}
          {cone.error !== undefined && <p class="muted">No forecast cone: {(cone.error as Error).message}</p>}
        </div>
        <div>
          <Levels signal={signal} last={last} />
          <h2>Reasons</h2>
          <ul class="reasons">
            {signal.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </div>
      </div>
      <h2>Lifecycle</h2>
      {history.length + state.length === 0 ? (
        <p class="muted">No state change recorded yet.</p>
      ) : (
        <ol class="lifecycle">
          {history.map((step) => (
            <li key={`${step.at}-${step.to}`}>
              {step.from ? `${words(step.from)} → ` : ''}
              <strong>{words(step.to)}</strong> at {price(step.price)} · {dateTime(step.at)}
            </li>
          ))}
          {state.map((step) => (
            <li key={`live-${step.at}-${step.to}`} class="fresh">
              <strong>{words(step.to)}</strong> at {price(step.price)} · {dateTime(step.at)} (live)
            </li>
          ))}
        </ol>
      )}
      <OptionsAnalysis signal={signal} />
      <Explanation signal={signal} noModel={noModel} />
    </article>
  );
}

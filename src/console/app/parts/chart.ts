/**
 * @module console/app/parts/chart
 * A signal drawn with TradingView's lightweight-charts (from npm, bundled):
 * candles and volume for its symbol and timeframe, the levels of the signal
 * as price lines (trigger = the pivot, target1, stop; DESIGN §4), markers at
 * the base's first and last bar and at the breakout bar (the first close
 * beyond the trigger after the base), the forecast cone as lines, and the
 * last price from the stream as a line of its own.
 *
 * Loaded with the signal page only (a chunk of its own), so the signals list
 * does not wait for the library. The chart's series are left on the
 * container element (`chartApi`), so a test or a userscript reads the levels
 * back from the chart itself.
 *
 * lightweight-charts docs: series (`addSeries(CandlestickSeries)`), price lines
 * (`createPriceLine`), markers (`createSeriesMarkers`), v5.
 */
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  LineSeries,
  LineStyle,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Bar, Signal } from '../types';

export interface ConeDay {
  date: string;
  p5: number;
  p25: number;
  p50: number;
  p75: number;
  p95: number;
}

export interface SignalChart {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
  /** The signal's levels by name. */
  levels: Record<'trigger' | 'target1' | 'stop', IPriceLine | undefined>;
  /** The breakout bar's time, when the bars show one. */
  breakoutTime?: Time;
  setLastPrice(price: number): void;
  remove(): void;
}

const COLORS = { up: '#16803c', down: '#c0262d', trigger: '#1d4ed8', target: '#16803c', stop: '#c0262d', last: '#6b21a8', cone: '#8a6d00', base: '#475569' };

/** A bar's time on the chart: the session date for daily bars, the bar's UTC second otherwise. */
export const barTime = (bar: Bar): Time => (bar.ts ? (Math.floor(Date.parse(bar.ts) / 1000) as UTCTimestamp) : (bar.date as Time));

/** The time of the first bar at or after `iso` (the chart marks bars, not instants). */
function barAtOrAfter(bars: readonly Bar[], iso: string): Bar | undefined {
  const at = Date.parse(iso);
  return bars.find((bar) => Date.parse(bar.ts ?? `${bar.date}T00:00:00Z`) >= at);
}

/** The breakout bar: the first close beyond the trigger in the signal's direction after the base's last bar. */
export function breakoutBar(bars: readonly Bar[], signal: Signal): Bar | undefined {
  const end = Date.parse(signal.geometry.end);
  return bars.find((bar) => Date.parse(bar.ts ?? `${bar.date}T00:00:00Z`) > end && (signal.direction === 'long' ? bar.close > signal.triggerPrice : bar.close < signal.triggerPrice));
}

export function drawSignalChart(container: HTMLElement, bars: readonly Bar[], signal: Signal, cone?: readonly ConeDay[]): SignalChart {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const chart = createChart(container, {
    autoSize: true,
    layout: { background: { color: dark ? '#0b1220' : '#ffffff' }, textColor: dark ? '#e2e8f0' : '#1e293b', attributionLogo: false },
    grid: { vertLines: { color: dark ? '#1e293b' : '#eef2f7' }, horzLines: { color: dark ? '#1e293b' : '#eef2f7' } },
    timeScale: { timeVisible: Boolean(bars[0]?.ts), borderVisible: false },
    rightPriceScale: { borderVisible: false },
  });
  const candles = chart.addSeries(CandlestickSeries, { upColor: COLORS.up, downColor: COLORS.down, wickUpColor: COLORS.up, wickDownColor: COLORS.down, borderVisible: false });
  candles.setData(bars.map((bar) => ({ time: barTime(bar), open: bar.open, high: bar.high, low: bar.low, close: bar.close })));
  const volume = chart.addSeries(HistogramSeries, { priceScaleId: 'volume', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  volume.setData(bars.map((bar) => ({ time: barTime(bar), value: bar.volume, color: bar.close >= bar.open ? '#16803c55' : '#c0262d55' })));

  const line = (price: number | null, title: string, color: string, lineStyle: LineStyle) =>
    price === null ? undefined : candles.createPriceLine({ price, title, color, lineStyle, lineWidth: 2, axisLabelVisible: true });
  const levels = {
    trigger: line(signal.triggerPrice, 'trigger (pivot)', COLORS.trigger, LineStyle.Solid),
    target1: line(signal.target1, 'target 1', COLORS.target, LineStyle.Dashed),
    stop: line(signal.stopLoss, 'stop', COLORS.stop, LineStyle.Dashed),
  };

  const markers: SeriesMarker<Time>[] = [];
  const start = barAtOrAfter(bars, signal.geometry.start);
  const end = barAtOrAfter(bars, signal.geometry.end);
  if (start) markers.push({ time: barTime(start), position: 'aboveBar', shape: 'arrowDown', color: COLORS.base, text: 'base start' });
  if (end) markers.push({ time: barTime(end), position: 'aboveBar', shape: 'arrowDown', color: COLORS.base, text: 'base end' });
  const breakout = breakoutBar(bars, signal);
  if (breakout) markers.push({ time: barTime(breakout), position: signal.direction === 'long' ? 'belowBar' : 'aboveBar', shape: signal.direction === 'long' ? 'arrowUp' : 'arrowDown', color: COLORS.trigger, text: 'breakout' });
  markers.sort((a, b) => (String(a.time) < String(b.time) ? -1 : 1));
  createSeriesMarkers(candles, markers);

  if (cone && cone.length > 0 && !bars[0]?.ts) {
    const last = bars[bars.length - 1]!;
    for (const [key, style] of [['p5', LineStyle.Dotted], ['p50', LineStyle.Dashed], ['p95', LineStyle.Dotted]] as const) {
      const series = chart.addSeries(LineSeries, { color: COLORS.cone, lineWidth: 1, lineStyle: style, lastValueVisible: false, priceLineVisible: false, title: key === 'p50' ? 'forecast median' : key });
      series.setData([{ time: barTime(last), value: last.close }, ...cone.map((day) => ({ time: day.date as Time, value: day[key] }))]);
    }
  }

  let lastLine: IPriceLine | undefined;
  const chartApi: SignalChart = {
    chart,
    candles,
    volume,
    levels,
    breakoutTime: breakout ? barTime(breakout) : undefined,
    setLastPrice(price) {
      if (lastLine) lastLine.applyOptions({ price });
      else lastLine = candles.createPriceLine({ price, title: 'last', color: COLORS.last, lineStyle: LineStyle.Dotted, lineWidth: 1, axisLabelVisible: true });
    },
    remove() {
      chart.remove();
      delete (container as HTMLElement & { chartApi?: SignalChart }).chartApi;
    },
  };
  chart.timeScale().fitContent();
  (container as HTMLElement & { chartApi?: SignalChart }).chartApi = chartApi;
  return chartApi;
}

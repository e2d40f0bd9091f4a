/**
 * Indicator kernel throughput: bars per second on one core (one thread) for
 * each kernel in `src/kernels/indicators` against its plain reference twin
 * (`bench/kernels-reference.ts`), on 1,000,000 synthetic daily bars
 * (100,000 with `--smoke`), plus `computeIndicators` on a 1,000-bar series —
 * the call a scan makes per symbol. Each row is the median of several timed
 * runs after a warm-up; "max rel diff" checks the two agree on the bench data.
 *
 * Run: `bun run bench/kernels.ts [--smoke]`.
 */
import {
  adx1d,
  atr1d,
  averageDollarVolume1d,
  bollingerWidth1d,
  computeIndicators,
  ema1d,
  highLowDistance1d,
  macd1d,
  percentileRank1d,
  relativeStrength1d,
  relativeStrengthNewHigh1d,
  rollingMax1d,
  rsi1d,
  sma1d,
  type Ohlcv,
} from '../src/kernels/indicators';
import {
  adxReference,
  atrReference,
  averageDollarVolumeReference,
  bollingerWidthReference,
  emaReference,
  highLowDistanceReference,
  macdReference,
  percentileRankReference,
  relativeStrengthNewHighReference,
  rollingMaxReference,
  rsiReference,
  smaReference,
} from './kernels-reference';
import { printTable, smoke } from './lib';
import { seededRandom } from '../src/kernels/random';

/** Daily bars from a random walk with gaps and log-normal volume; no missing values. */
function syntheticBars(length: number, seed: number): Ohlcv {
  const rand = seededRandom(seed);
  const bars: Ohlcv = {
    ts: new Float64Array(length),
    open: new Float64Array(length),
    high: new Float64Array(length),
    low: new Float64Array(length),
    close: new Float64Array(length),
    volume: new Float64Array(length),
  };
  let prev = 100;
  for (let i = 0; i < length; i++) {
    const open = prev * Math.exp((rand() - 0.5) * 0.01);
    const close = open * Math.exp((rand() - 0.5) * 0.03);
    bars.ts[i] = 86_400_000 * i;
    bars.open[i] = open;
    bars.close[i] = prev = close;
    bars.high[i] = Math.max(open, close) * (1 + 0.01 * rand());
    bars.low[i] = Math.min(open, close) * (1 - 0.01 * rand());
    bars.volume[i] = Math.round(1e6 * Math.exp(2 * rand()));
  }
  return bars;
}

/** Median wall time of `runs` calls, in seconds, after `warmup` untimed calls. */
function medianSeconds(fn: () => void, runs: number, warmup: number): number {
  for (let k = 0; k < warmup; k++) fn();
  const times: number[] = [];
  for (let k = 0; k < runs; k++) {
    const start = Bun.nanoseconds();
    fn();
    times.push((Bun.nanoseconds() - start) / 1e9);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Largest relative difference where both are numbers, or Infinity where only one is NaN. */
function maxRelativeDiff(a: Float64Array, b: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (Number.isNaN(x) || Number.isNaN(y)) {
      if (Number.isNaN(x) !== Number.isNaN(y)) return Infinity;
      continue;
    }
    const d = Math.abs(x - y) / Math.max(1, Math.abs(y));
    if (d > worst) worst = d;
  }
  return worst;
}

interface Case {
  indicator: string;
  params: string;
  kernel: () => void;
  reference: () => void;
  /** The primary outputs of kernel and reference, compared after both ran. */
  compare: [Float64Array, Float64Array];
  /** The reference rescans windows: time it fewer times. */
  slowReference?: boolean;
}

export async function benchKernels(): Promise<void> {
  const length = smoke ? 100_000 : 1_000_000;
  const bars = syntheticBars(length, 20240601);
  const benchmark = syntheticBars(length, 19930129).close;
  const { high, low, close, volume } = bars;
  const buffer = () => new Float64Array(length);
  const [k1, k2, k3, r1, r2, r3] = [buffer(), buffer(), buffer(), buffer(), buffer(), buffer()];
  const scratch = new Int32Array(length);
  // The rank runs over bbWidth20 past its lookback (the reference twin assumes no missing values).
  const widthColumn = buffer();
  bollingerWidth1d(close, widthColumn, { period: 20 });
  const widths = widthColumn.subarray(19);

  const cases: Case[] = [
    { indicator: 'sma', params: 'period 200', kernel: () => sma1d(close, k1, { period: 200 }), reference: () => smaReference(close, r1, 200), compare: [k1, r1], slowReference: true },
    { indicator: 'ema', params: 'period 21', kernel: () => ema1d(close, k1, { period: 21 }), reference: () => emaReference(close, r1, 21), compare: [k1, r1] },
    { indicator: 'rsi (Wilder)', params: 'period 14', kernel: () => rsi1d(close, k1, { period: 14 }), reference: () => rsiReference(close, r1, 14), compare: [k1, r1] },
    { indicator: 'atr (Wilder)', params: 'period 14', kernel: () => atr1d(high, low, close, k1, { period: 14 }), reference: () => atrReference(high, low, close, r1, 14), compare: [k1, r1] },
    {
      indicator: 'adx, +DI, −DI (Wilder)',
      params: 'period 14',
      kernel: () => adx1d(high, low, close, k1, k2, k3, { period: 14 }),
      reference: () => adxReference(high, low, close, r1, r2, r3, 14),
      compare: [k1, r1],
    },
    {
      indicator: 'bollinger width',
      params: 'period 20, 2σ',
      kernel: () => bollingerWidth1d(close, k1, { period: 20, multiplier: 2 }),
      reference: () => bollingerWidthReference(close, r1, 20, 2),
      compare: [k1, r1],
      slowReference: true,
    },
    {
      indicator: 'percentile rank',
      params: 'period 126 (of bbWidth20)',
      kernel: () => percentileRank1d(widths, k1, { period: 126 }),
      reference: () => percentileRankReference(widths, r1, 126),
      compare: [k1.subarray(0, widths.length), r1.subarray(0, widths.length)],
      slowReference: true,
    },
    {
      indicator: 'rolling max',
      params: 'period 252',
      kernel: () => rollingMax1d(high, k1, { period: 252 }, scratch),
      reference: () => rollingMaxReference(high, r1, 252, false),
      compare: [k1, r1],
      slowReference: true,
    },
    {
      indicator: 'donchian high',
      params: 'period 55, current bar excluded',
      kernel: () => rollingMax1d(high, k1, { period: 55, excludeCurrent: true }, scratch),
      reference: () => rollingMaxReference(high, r1, 55, true),
      compare: [k1, r1],
      slowReference: true,
    },
    {
      indicator: 'average dollar volume',
      params: 'period 50',
      kernel: () => averageDollarVolume1d(close, volume, k1, { period: 50 }),
      reference: () => averageDollarVolumeReference(close, volume, r1, 50),
      compare: [k1, r1],
      slowReference: true,
    },
    {
      indicator: 'macd, signal, histogram',
      params: '12/26/9',
      kernel: () => macd1d(close, k1, k2, k3, { fast: 12, slow: 26, signal: 9 }),
      reference: () => macdReference(close, r1, r2, r3, 12, 26, 9),
      compare: [k2, r2],
    },
    {
      indicator: 'RS line + new high',
      params: 'period 252',
      kernel: () => {
        relativeStrength1d(close, benchmark, k1);
        relativeStrengthNewHigh1d(k1, k2, { period: 252 }, scratch);
      },
      reference: () => relativeStrengthNewHighReference(close, benchmark, r1, r2, 252),
      compare: [k2, r2],
      slowReference: true,
    },
    {
      indicator: 'distance from 52w high/low',
      params: 'period 252',
      kernel: () => highLowDistance1d(high, low, close, k1, k2, { period: 252 }, scratch),
      reference: () => highLowDistanceReference(high, low, close, r1, r2, 252),
      compare: [k1, r1],
      slowReference: true,
    },
  ];

  const runs = smoke ? 3 : 9;
  const rows: Record<string, string | number>[] = [];
  for (const c of cases) {
    const kernelSeconds = medianSeconds(c.kernel, runs, 3);
    const referenceSeconds = medianSeconds(c.reference, c.slowReference ? Math.min(runs, 3) : runs, 1);
    rows.push({
      indicator: c.indicator,
      params: c.params,
      'kernel Mbars/s': length / kernelSeconds / 1e6,
      'reference Mbars/s': length / referenceSeconds / 1e6,
      'speed-up': `${(referenceSeconds / kernelSeconds).toFixed(1)}x`,
      'max rel diff': maxRelativeDiff(...c.compare).toExponential(1),
    });
  }
  printTable(`Indicator kernels, ${length.toLocaleString('en-US')} bars, one core (median of ${runs} runs)`, rows);

  // What a scan pays per symbol: the whole IndicatorSet over 1,000 daily bars (~4 years).
  const scanBars = syntheticBars(1000, 7);
  const calls = smoke ? 500 : 5000;
  const perCall = medianSeconds(() => {
    for (let k = 0; k < 10; k++) computeIndicators(scanBars);
  }, calls / 10, 20) / 10;
  printTable('computeIndicators (24 series), one core', [
    {
      bars: 1000,
      'µs per call': perCall * 1e6,
      'calls/s': Math.round(1 / perCall),
      'bars/s (all 24 series)': `${(1000 / perCall / 1e6).toFixed(1)}M`,
    },
  ]);
}

if (import.meta.main) await benchKernels();

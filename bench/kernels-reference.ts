/**
 * Reference twins for the kernel benchmark: each indicator written the plain
 * way — every window rescanned, Wilder's worksheet as whole columns, `Math`
 * helpers in the loop — over `Float64Array`s, so the bench measures what the
 * clever kernel buys. They assume inputs without missing values (the bench's
 * synthetic bars have none); the exhaustive twins, missing values included,
 * live in `test/kernels/indicators/`.
 */

const nanBefore = (out: Float64Array, end: number) => out.fill(NaN, 0, Math.min(end, out.length));

/** Mean of every window, summed from scratch: O(N × period). */
export function smaReference(values: Float64Array, out: Float64Array, period: number): void {
  nanBefore(out, period - 1);
  for (let t = period - 1; t < values.length; t++) {
    let sum = 0;
    for (let j = t - period + 1; j <= t; j++) sum += values[j]!;
    out[t] = sum / period;
  }
}

/** α·x + (1 − α)·EMA, seeded with the first window's mean. */
export function emaReference(values: Float64Array, out: Float64Array, period: number): void {
  const alpha = 2 / (period + 1);
  nanBefore(out, period - 1);
  if (values.length < period) return;
  let sum = 0;
  for (let j = 0; j < period; j++) sum += values[j]!;
  out[period - 1] = sum / period;
  for (let t = period; t < values.length; t++) out[t] = alpha * values[t]! + (1 - alpha) * out[t - 1]!;
}

/** Wilder's RSI from gain and loss columns, `100 − 100 / (1 + RS)`. */
export function rsiReference(close: Float64Array, out: Float64Array, period: number): void {
  const n = close.length;
  const gain = new Float64Array(n);
  const loss = new Float64Array(n);
  for (let t = 1; t < n; t++) {
    gain[t] = Math.max(close[t]! - close[t - 1]!, 0);
    loss[t] = Math.max(close[t - 1]! - close[t]!, 0);
  }
  nanBefore(out, period);
  if (n <= period) return;
  let avgGain = 0;
  let avgLoss = 0;
  for (let t = 1; t <= period; t++) {
    avgGain += gain[t]! / period;
    avgLoss += loss[t]! / period;
  }
  out[period] = avgGain + avgLoss === 0 ? 50 : 100 - 100 / (1 + avgGain / avgLoss);
  for (let t = period + 1; t < n; t++) {
    avgGain = (avgGain * (period - 1) + gain[t]!) / period;
    avgLoss = (avgLoss * (period - 1) + loss[t]!) / period;
    out[t] = avgGain + avgLoss === 0 ? 50 : 100 - 100 / (1 + avgGain / avgLoss);
  }
}

/** The true-range column with `Math.max`/`Math.abs`, its mean, then Wilder's average. */
export function atrReference(high: Float64Array, low: Float64Array, close: Float64Array, out: Float64Array, period: number): void {
  const n = close.length;
  const tr = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    tr[t] = t === 0 ? high[t]! - low[t]! : Math.max(high[t]! - low[t]!, Math.abs(high[t]! - close[t - 1]!), Math.abs(low[t]! - close[t - 1]!));
  }
  nanBefore(out, period - 1);
  if (n < period) return;
  let atr = 0;
  for (let t = 0; t < period; t++) atr += tr[t]!;
  out[period - 1] = atr /= period;
  for (let t = period; t < n; t++) out[t] = atr = (atr * (period - 1) + tr[t]!) / period;
}

/** Wilder's directional-movement worksheet as columns (TR, ±DM, their running sums, DI, DX, ADX). */
export function adxReference(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  outAdx: Float64Array,
  outPlusDi: Float64Array,
  outMinusDi: Float64Array,
  period: number,
): void {
  const n = close.length;
  const tr = new Float64Array(n);
  const pdm = new Float64Array(n);
  const mdm = new Float64Array(n);
  const dx = new Float64Array(n);
  for (let t = 1; t < n; t++) {
    const up = high[t]! - high[t - 1]!;
    const down = low[t - 1]! - low[t]!;
    pdm[t] = up > down && up > 0 ? up : 0;
    mdm[t] = down > up && down > 0 ? down : 0;
    tr[t] = Math.max(high[t]! - low[t]!, Math.abs(high[t]! - close[t - 1]!), Math.abs(low[t]! - close[t - 1]!));
  }
  nanBefore(outAdx, 2 * period - 1);
  nanBefore(outPlusDi, period);
  nanBefore(outMinusDi, period);
  let trN = 0;
  let pdmN = 0;
  let mdmN = 0;
  for (let t = 1; t < n; t++) {
    if (t <= period) {
      trN += tr[t]!;
      pdmN += pdm[t]!;
      mdmN += mdm[t]!;
      if (t < period) continue;
    } else {
      trN = trN - trN / period + tr[t]!;
      pdmN = pdmN - pdmN / period + pdm[t]!;
      mdmN = mdmN - mdmN / period + mdm[t]!;
    }
    const pdi = trN === 0 ? 0 : (100 * pdmN) / trN;
    const mdi = trN === 0 ? 0 : (100 * mdmN) / trN;
    outPlusDi[t] = pdi;
    outMinusDi[t] = mdi;
    dx[t] = pdi + mdi === 0 ? 0 : (100 * Math.abs(pdi - mdi)) / (pdi + mdi);
    const first = 2 * period - 1;
    if (t === first) {
      let sum = 0;
      for (let j = period; j <= first; j++) sum += dx[j]!;
      outAdx[t] = sum / period;
    } else if (t > first) {
      outAdx[t] = (outAdx[t - 1]! * (period - 1) + dx[t]!) / period;
    }
  }
}

/** Each window's mean and population σ from scratch; `(upper − lower) / middle`. */
export function bollingerWidthReference(values: Float64Array, out: Float64Array, period: number, multiplier: number): void {
  nanBefore(out, period - 1);
  for (let t = period - 1; t < values.length; t++) {
    let sum = 0;
    for (let j = t - period + 1; j <= t; j++) sum += values[j]!;
    const middle = sum / period;
    let squares = 0;
    for (let j = t - period + 1; j <= t; j++) squares += (values[j]! - middle) ** 2;
    const sigma = Math.sqrt(squares / period);
    out[t] = (middle + multiplier * sigma - (middle - multiplier * sigma)) / middle;
  }
}

/** Share of the previous `period − 1` values strictly below the current one, counted per window. */
export function percentileRankReference(values: Float64Array, out: Float64Array, period: number): void {
  nanBefore(out, period - 1);
  for (let t = period - 1; t < values.length; t++) {
    let below = 0;
    for (let j = t - period + 1; j < t; j++) if (values[j]! < values[t]!) below++;
    out[t] = (100 * below) / (period - 1);
  }
}

/** Scans every window for its maximum (`excludeCurrent`: the window ends at the previous bar). */
export function rollingMaxReference(values: Float64Array, out: Float64Array, period: number, excludeCurrent: boolean): void {
  const shift = excludeCurrent ? 1 : 0;
  nanBefore(out, period - 1 + shift);
  for (let t = period - 1 + shift; t < values.length; t++) {
    let best = -Infinity;
    for (let j = t - shift - period + 1; j <= t - shift; j++) best = Math.max(best, values[j]!);
    out[t] = best;
  }
}

/** Mean of close × volume per window, from scratch. */
export function averageDollarVolumeReference(close: Float64Array, volume: Float64Array, out: Float64Array, period: number): void {
  nanBefore(out, period - 1);
  for (let t = period - 1; t < close.length; t++) {
    let sum = 0;
    for (let j = t - period + 1; j <= t; j++) sum += close[j]! * volume[j]!;
    out[t] = sum / period;
  }
}

/** Appel's three lines from whole EMA columns. */
export function macdReference(
  close: Float64Array,
  outMacd: Float64Array,
  outSignal: Float64Array,
  outHistogram: Float64Array,
  fast: number,
  slow: number,
  signal: number,
): void {
  const n = close.length;
  const emaFast = new Float64Array(n);
  const emaSlow = new Float64Array(n);
  emaReference(close, emaFast, fast);
  emaReference(close, emaSlow, slow);
  for (let t = 0; t < n; t++) outMacd[t] = emaFast[t]! - emaSlow[t]!;
  const start = slow - 1;
  nanBefore(outSignal, start);
  if (n > start) emaReference(outMacd.subarray(start), outSignal.subarray(start), signal);
  for (let t = 0; t < n; t++) outHistogram[t] = outMacd[t]! - outSignal[t]!;
}

/** The RS line, then "no value in the window above today's" by rescanning the window. */
export function relativeStrengthNewHighReference(asset: Float64Array, benchmark: Float64Array, outRs: Float64Array, outNewHigh: Float64Array, period: number): void {
  for (let t = 0; t < asset.length; t++) outRs[t] = (100 * asset[t]!) / benchmark[t]!;
  nanBefore(outNewHigh, period - 1);
  for (let t = period - 1; t < asset.length; t++) {
    let high = true;
    for (let j = t - period + 1; j < t; j++) if (outRs[j]! > outRs[t]!) high = false;
    outNewHigh[t] = high ? 1 : 0;
  }
}

/** The window's highest high and lowest low by rescanning, then the two percentages. */
export function highLowDistanceReference(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  outFromHigh: Float64Array,
  outFromLow: Float64Array,
  period: number,
): void {
  nanBefore(outFromHigh, period - 1);
  nanBefore(outFromLow, period - 1);
  for (let t = period - 1; t < close.length; t++) {
    let top = -Infinity;
    let bottom = Infinity;
    for (let j = t - period + 1; j <= t; j++) {
      top = Math.max(top, high[j]!);
      bottom = Math.min(bottom, low[j]!);
    }
    outFromHigh[t] = (100 * (close[t]! - top)) / top;
    outFromLow[t] = (100 * (close[t]! - bottom)) / bottom;
  }
}

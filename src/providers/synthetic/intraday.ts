/**
 * @module providers/synthetic/intraday
 * Intraday bars that add up to the daily bar. Each session is drawn as a
 * five-minute price grid from the daily open to the daily close that touches
 * the daily high and low; each five-minute step also has its own high and low
 * (the range its quotes cover, see `ticks.ts`). 1h bars (09:30, 10:30, …,
 * 15:30, the last one 30 minutes) are read off the grid, and 4h bars
 * (09:30–13:30, 13:30–16:00) gather the 1h bars, so first open, last close,
 * max high, min low and summed volume agree on every timeframe.
 *
 * The times of the day's high and low are drawn from the arcsine law, the
 * distribution of the time of a Brownian motion's maximum (Lévy 1939;
 * Feller, *An Introduction to Probability Theory*, vol. 1, III.4), which
 * puts them near the open and the close as real sessions do. Between those
 * anchors the price is a Brownian bridge reflected back inside [low, high].
 *
 * Volume follows the intraday U-shape (Jain & Joh, "The dependence between
 * hourly prices and trading volume", JFQA 23, 1988): heavy in the first hour,
 * light at midday, heavy again into the close; integer per five minutes and
 * summing exactly to the daily volume.
 */
import type { PathSessions } from './held-path';
import { cents } from './paths';
import { hashString, mix32, Rng } from './rng';
import { BarColumns } from './columns';
import { STEP_MS, type SessionGrid } from './session-grid';
import { reflect, tickExtremes, tickPrice } from './ticks';

const HOUR_MS = 3_600_000;
const SESSION_STREAM = hashString('session');
const STEPS_PER_HOUR = 12;
/** 1h bars per 4h bar. */
const HOURS_PER_BLOCK = 4;
/** The longest session, a regular one: 09:30–16:00 New York. */
export const LONGEST_SESSION_MS = 6.5 * HOUR_MS;
/** The most 1h and 4h bars one session has (a regular one: 7 and 2). */
export const MOST_BARS_PER_SESSION = {
  '1h': Math.ceil(LONGEST_SESSION_MS / HOUR_MS),
  '4h': Math.ceil(Math.ceil(LONGEST_SESSION_MS / HOUR_MS) / HOURS_PER_BLOCK),
} as const;

/**
 * Draws the grid of session `t` of a daily path. With `into`, its arrays are
 * drawn on again (replaced by longer ones when too short) and it is returned:
 * a pass over many sessions then allocates nothing per session (the values
 * are the same).
 */
export function sessionGrid(seed: number, t: number, openTs: number, closeTs: number, daily: PathSessions, into?: SessionGrid): SessionGrid {
  const steps = Math.round((closeTs - openTs) / STEP_MS);
  if (into && into.price.length <= steps) {
    into.price = new Float64Array(steps + 1);
    into.stepHigh = new Float64Array(steps);
    into.stepLow = new Float64Array(steps);
    into.cumVolume = new Float64Array(steps + 1);
  }
  const o = daily.open(t);
  const h = daily.high(t);
  const l = daily.low(t);
  const c = daily.close(t);
  const rng = new Rng(mix32(seed, SESSION_STREAM, t));
  const price = into ? into.price : new Float64Array(steps + 1);

  // Times of the high and the low, arcsine-distributed over the inner steps.
  const arcsine = () => 1 + Math.round(((steps - 2) * (1 - Math.cos(Math.PI * rng.uniform()))) / 2);
  const atHigh = arcsine();
  let atLow = arcsine();
  if (atLow === atHigh) atLow = atHigh > 1 ? atHigh - 1 : atHigh + 1;
  const anchors: Array<[number, number]> = [
    [0, o],
    [atHigh, h],
    [atLow, l],
    [steps, c],
  ];
  anchors.sort((a, b) => a[0] - b[0]);
  const stepSigma = (0.6 * (h - l)) / Math.sqrt(steps);
  for (let k = 0; k < anchors.length - 1; k++) {
    const [a, pa] = anchors[k]!;
    const [b, pb] = anchors[k + 1]!;
    bridge(price, a, pa, b, pb, stepSigma, l, h, rng);
  }

  // Each step trades a little beyond its end prices, never beyond the day's range.
  const stepHigh = into ? into.stepHigh : new Float64Array(steps);
  const stepLow = into ? into.stepLow : new Float64Array(steps);
  for (let s = 0; s < steps; s++) {
    const a = price[s]!;
    const b = price[s + 1]!;
    stepHigh[s] = Math.min(h, cents(Math.max(a, b) + 0.01 + 0.6 * stepSigma * rng.uniform()));
    stepLow[s] = Math.max(l, cents(Math.min(a, b) - 0.01 - 0.6 * stepSigma * rng.uniform()));
  }

  // U-shaped volume with ±30 % noise on each five minutes.
  const shape = volumeShape(steps);
  const weights = scratch(steps);
  let total = 0;
  for (let s = 0; s < steps; s++) {
    const w = shape[s]! * (0.7 + 0.6 * rng.uniform());
    weights[s] = w;
    total += w;
  }
  const cumVolume = into ? into.cumVolume : new Float64Array(steps + 1);
  cumVolume[0] = 0;
  const v = daily.volume(t);
  let acc = 0;
  for (let s = 0; s < steps; s++) {
    acc += weights[s]!;
    cumVolume[s + 1] = Math.round((v * acc) / total);
  }
  cumVolume[steps] = v;
  if (!into) return { seed, session: t, openTs, closeTs, steps, price, stepHigh, stepLow, cumVolume };
  Object.assign(into, { seed, session: t, openTs, closeTs, steps, scan: undefined });
  return into;
}

const shapes = new Map<number, Float64Array>();

/** Mean volume per five-minute step: a decaying opening surge and a rising run into the close. */
function volumeShape(steps: number): Float64Array {
  let shape = shapes.get(steps);
  if (!shape) {
    shape = new Float64Array(steps);
    for (let s = 0; s < steps; s++) shape[s] = 0.6 + Math.exp(-s / 8) + 1.6 * Math.exp(-(steps - 1 - s) / 4);
    shapes.set(steps, shape);
  }
  return shape;
}

let buffer = new Float64Array(128);
let walkBuffer = new Float64Array(128);

/** A reusable work buffer of at least `n` numbers (the simulator is single-threaded per isolate). */
function scratch(n: number): Float64Array {
  if (buffer.length < n) buffer = new Float64Array(n * 2);
  return buffer;
}

/** Brownian bridge from (a, pa) to (b, pb) on `price`, clamped into [lo, hi], in cents. */
function bridge(price: Float64Array, a: number, pa: number, b: number, pb: number, sigma: number, lo: number, hi: number, rng: Rng): void {
  price[a] = pa;
  price[b] = pb;
  const m = b - a;
  if (m < 2) return;
  const walk = walkBuffer.length > m ? walkBuffer : (walkBuffer = new Float64Array(2 * m + 2));
  walk[0] = 0;
  for (let j = 1; j <= m; j++) walk[j] = walk[j - 1]! + sigma * rng.normal();
  for (let j = 1; j < m; j++) {
    const x = pa + ((pb - pa) * j) / m + walk[j]! - (walk[m]! * j) / m;
    price[a + j] = cents(reflect(x, lo, hi));
  }
}

/** A scratch grid for `drawIntraday` (its arrays grow to the longest session on first use). */
export function scratchGrid(): SessionGrid {
  const empty = () => new Float64Array(0);
  return { seed: 0, session: -1, openTs: 0, closeTs: 0, steps: 0, price: empty(), stepHigh: empty(), stepLow: empty(), cumVolume: empty() };
}

/**
 * The 1h and 4h bars of the complete sessions `first..last` of a daily path
 * (sessions of `openTs`/`closeTs`), each session drawn on `grid` in turn.
 */
export function drawIntraday(seed: number, openTs: Float64Array, closeTs: Float64Array, daily: PathSessions, first: number, last: number, grid: SessionGrid): { hour: BarColumns; block: BarColumns } {
  const sessions = Math.max(0, last - first + 1);
  const hour = new BarColumns(sessions * 7);
  const block = new BarColumns(sessions * 2);
  for (let t = first; t <= last; t++) appendIntradayBars(sessionGrid(seed, t, openTs[t]!, closeTs[t]!, daily, grid), Infinity, hour, block);
  return { hour, block };
}

/**
 * Appends the session's 1h bars to `hour` and its 4h bars to `block`, as of
 * `now`: bars that have not opened are left out and the bar in progress ends
 * at the quote at `now`.
 */
export function appendIntradayBars(grid: SessionGrid, now: number, hour: BarColumns, block: BarColumns): void {
  const { openTs, closeTs, steps, price, stepHigh, stepLow, cumVolume } = grid;
  if (now < openTs) return;
  const live = now < closeTs;
  const nowStep = live ? Math.floor((now - openTs) / STEP_MS) : steps;
  const bars = Math.ceil(steps / STEPS_PER_HOUR);
  for (let j = 0; j < bars; j++) {
    const from = j * STEPS_PER_HOUR;
    if (from > nowStep) break;
    const to = Math.min(from + STEPS_PER_HOUR, steps);
    const done = Math.min(to, nowStep);
    let hi = price[from]!;
    let lo = hi;
    for (let s = from; s < done; s++) {
      if (stepHigh[s]! > hi) hi = stepHigh[s]!;
      if (stepLow[s]! < lo) lo = stepLow[s]!;
    }
    let close = price[done]!;
    let volume = cumVolume[done]! - cumVolume[from]!;
    if (done < to) {
      // The bar in progress: quotes of the current step so far, and its volume so far.
      const ticks = tickExtremes(grid, now);
      hi = Math.max(hi, ticks.high);
      lo = Math.min(lo, ticks.low);
      close = tickPrice(grid, now);
      volume = volumeAt(grid, now) - cumVolume[from]!;
    }
    hour.push(openTs + j * HOUR_MS, price[from]!, hi, lo, close, volume);
    block.merge(openTs + Math.floor(j / HOURS_PER_BLOCK) * HOURS_PER_BLOCK * HOUR_MS, price[from]!, hi, lo, close, volume);
    if (done < to) break;
  }
}

/** Shares traded from the open to `now` (whole shares; the step in progress fills in proportion). */
export function volumeAt(grid: SessionGrid, now: number): number {
  const { openTs, steps, cumVolume } = grid;
  if (now <= openTs) return 0;
  const into = (now - openTs) / STEP_MS;
  if (into >= steps) return cumVolume[steps]!;
  const s = Math.floor(into);
  return cumVolume[s]! + Math.floor((into - s) * (cumVolume[s + 1]! - cumVolume[s]!));
}

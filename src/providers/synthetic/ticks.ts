/**
 * @module providers/synthetic/ticks
 * The live quote: a price for every second of a session that is a pure
 * function of (seed, symbol, second), moves continuously, and agrees with the
 * bars. Each five-minute step of the session grid (`session-grid.ts`, drawn by
 * `intraday.ts`) starts and
 * ends on the grid's prices and touches the step's own high and low exactly,
 * at seconds hashed from (seed, session, step) — so every bar's high and low
 * are prices that were quoted, and no quote is ever outside them.
 *
 * Between those four anchors the quote is a Brownian bridge reflected into
 * the step's range. The bridge comes from Lévy's midpoint construction (Lévy
 * 1939; the Schauder-function form in Steele, *Stochastic Calculus and
 * Financial Applications*, ch. 3) over hashed, approximately normal
 * coefficients, so any second can be evaluated on its own, in any order, with
 * the same answer.
 */
import { fmix32, mix32 } from './rng';
import { STEP_MS, type SessionGrid } from './session-grid';

const SECOND_MS = 1000;
const STEP_SECONDS = STEP_MS / SECOND_MS;
/** Dyadic levels of the bridge: 2⁹ = 512 cells cover the 300 seconds of a step. */
const LEVELS = 9;
/** Bridge amplitude relative to the step's range. */
const AMPLITUDE = 0.5;

/** Reflects `x` back into [lo, hi] off either edge (continuous, unlike clamping, so no flat runs at the extremes). */
export function reflect(x: number, lo: number, hi: number): number {
  if (x >= lo && x <= hi) return x;
  const width = hi - lo;
  if (width <= 0) return lo;
  const y = ((((x - lo) / width) % 2) + 2) % 2;
  return lo + width * (y > 1 ? 2 - y : y);
}

/**
 * An approximately standard normal from 32 hashed bits: the Irwin–Hall sum of
 * its four bytes, centred and scaled to unit variance (bounded at ±3.5, which
 * sub-second wiggles never miss). One hash, no transcendental functions.
 */
function hashedGaussian(bits: number): number {
  const sum = (bits & 0xff) + ((bits >>> 8) & 0xff) + ((bits >>> 16) & 0xff) + (bits >>> 24);
  return (sum / 255 - 2) * Math.sqrt(3);
}

/** Lévy–Ciesielski Brownian bridge on [0, 1] at `u`, from coefficients hashed off `base`. */
function levyBridge(u: number, base: number): number {
  let value = 0;
  let scale = 0.5;
  let cells = 1;
  for (let n = 0; n < LEVELS; n++) {
    const x = u * cells;
    const j = Math.min(cells - 1, Math.floor(x));
    const f = x - j;
    // Cell j of level n is node cells + j of the dyadic tree: a unique coordinate.
    value += scale * (1 - Math.abs(2 * f - 1)) * hashedGaussian(fmix32(base ^ Math.imul(cells + j, 0x9e3779b1)));
    scale *= Math.SQRT1_2;
    cells *= 2;
  }
  return value;
}

/** Seconds into step `step` at which it prints its high and its low (distinct, inside the step). */
function extremeSeconds(grid: SessionGrid, step: number): [high: number, low: number] {
  const atHigh = 1 + (mix32(grid.seed, grid.session, step, 0x48) % (STEP_SECONDS - 1));
  let atLow = 1 + (mix32(grid.seed, grid.session, step, 0x4c) % (STEP_SECONDS - 1));
  if (atLow === atHigh) atLow = atHigh === STEP_SECONDS - 1 ? atHigh - 1 : atHigh + 1;
  return [atHigh, atLow];
}

/**
 * The quote at `at` (epoch ms, within the session); ticks once a second.
 * At the open it is the open, at the close the close.
 */
export function tickPrice(grid: SessionGrid, at: number): number {
  const { openTs, steps, price } = grid;
  const second = Math.floor((at - openTs) / SECOND_MS);
  if (second <= 0) return price[0]!;
  const step = Math.floor(second / STEP_SECONDS);
  if (step >= steps) return price[steps]!;
  const k = second - step * STEP_SECONDS;
  if (k === 0) return price[step]!;
  const hi = grid.stepHigh[step]!;
  const lo = grid.stepLow[step]!;
  const [atHigh, atLow] = extremeSeconds(grid, step);
  // Anchors in time order: step start, the high and the low (either order), step end.
  const highFirst = atHigh < atLow;
  const k1 = highFirst ? atHigh : atLow;
  const k2 = highFirst ? atLow : atHigh;
  const p1 = highFirst ? hi : lo;
  const p2 = highFirst ? lo : hi;
  let from: number, to: number, pFrom: number, pTo: number, piece: number;
  if (k <= k1) [from, to, pFrom, pTo, piece] = [0, k1, price[step]!, p1, 0];
  else if (k <= k2) [from, to, pFrom, pTo, piece] = [k1, k2, p1, p2, 1];
  else [from, to, pFrom, pTo, piece] = [k2, STEP_SECONDS, p2, price[step + 1]!, 2];
  if (k === to) return pTo;
  const v = (k - from) / (to - from);
  const bridge = levyBridge(v, mix32(grid.seed, grid.session, step * 4 + piece));
  const noise = AMPLITUDE * (hi - lo) * Math.sqrt((to - from) / STEP_SECONDS) * bridge;
  return Math.round(reflect(pFrom + (pTo - pFrom) * v + noise, lo, hi) * 100) / 100;
}

/**
 * Highest and lowest quote from the start of the step in progress at `now`
 * up to `now`. The scan is remembered on the grid, so a clock that moves
 * forward second by second costs one evaluation per call.
 */
export function tickExtremes(grid: SessionGrid, now: number): { high: number; low: number } {
  const { openTs } = grid;
  const step = Math.floor((now - openTs) / STEP_MS);
  const last = Math.floor((now - openTs) / SECOND_MS);
  let scan = grid.scan;
  if (!scan || scan.step !== step || scan.second > last) {
    const first = step * STEP_SECONDS;
    const p = tickPrice(grid, openTs + first * SECOND_MS);
    scan = { step, second: first, high: p, low: p };
  }
  for (let k = scan.second + 1; k <= last; k++) {
    const p = tickPrice(grid, openTs + k * SECOND_MS);
    if (p > scan.high) scan.high = p;
    if (p < scan.low) scan.low = p;
  }
  scan.second = Math.max(scan.second, last);
  grid.scan = scan;
  return { high: scan.high, low: scan.low };
}

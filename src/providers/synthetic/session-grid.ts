/**
 * @module providers/synthetic/session-grid
 * The five-minute grid one simulated session is drawn on: `intraday.ts` draws
 * it and reads the 1h and 4h bars off it, `ticks.ts` reads the live quote off
 * it. The shape and its spacing live here on their own so that the imports
 * run one way: intraday → ticks → session-grid.
 */

/** Spacing of the session grid: five minutes. */
export const STEP_MS = 5 * 60_000;

/** One session's five-minute grid. */
export interface SessionGrid {
  /** Seed of the symbol and the session index: the coordinates of its quote ticks. */
  seed: number;
  session: number;
  openTs: number;
  closeTs: number;
  steps: number;
  /** Price at `openTs + s × STEP_MS`, s = 0..steps; `price[0]` = open, `price[steps]` = close. */
  price: Float64Array;
  /** Highest and lowest quote inside each step s (between `price[s]` and `price[s + 1]`), s = 0..steps−1. */
  stepHigh: Float64Array;
  stepLow: Float64Array;
  /** Shares traded before step s, s = 0..steps; `cumVolume[steps]` = the daily volume. */
  cumVolume: Float64Array;
  /** The quotes scanned so far in one step (see `tickExtremes` in `ticks.ts`). */
  scan?: { step: number; second: number; high: number; low: number };
}

/**
 * @module kernels/levels
 * Where a price stands against a setup's two exit levels. A long is a trade
 * only while its price lies above the stop and below target1 (a short: below
 * the stop and above target1): at or beyond either level the setup has
 * already ended, won or lost, whatever a later bar does. The same test says
 * whether a detector's levels are in order (the trigger between stop and
 * target1), whether a setup found by a scan is still a trade at the scan's
 * close (kernels/scan), and whether a ledger record's entry left a trade to
 * resolve (jobs/outcomes, kernels/outcome).
 *
 * @example
 * insideLevels('long', 52, 48.5, 56);  // => true
 * insideLevels('long', 56, 48.5, 56);  // => false: at the target
 * insideLevels('short', 23.37, 23.66, 20.93); // => true
 * insideLevels('long', 50, Number.NaN, 56); // => false: no stop, no trade
 */
import type { Direction } from '../domain/signal';

/**
 * Whether `price` lies strictly between `stopLoss` and `target1` on the side
 * `direction` trades: stop < price < target1 for a long, target1 < price <
 * stop for a short. False when any of them is NaN.
 */
export function insideLevels(direction: Direction, price: number, stopLoss: number, target1: number): boolean {
  return direction === 'long' ? stopLoss < price && price < target1 : target1 < price && price < stopLoss;
}

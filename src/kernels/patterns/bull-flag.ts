/**
 * @module kernels/patterns/bull-flag
 * `bull_flag` (continuation, long): a pole of at least 15% in at most 15 bars
 * (3 weeks of daily bars), then a 4–15 bar flag that drifts sideways or down in
 * a tight channel and gives back at most half the pole; it triggers on a close
 * above the flag's upper channel line. target1 = pivot + pole length
 * ("half-mast"); stop = the flag's low.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapter "Flags" (identification guidelines and measure rule).
 * The geometry, parameters and instance choice are in `flag-geometry.ts`.
 *
 * @example
 * const match = bullFlag.detect({ bars, ind: computeIndicators(bars), asOf: bars.close.length - 1 });
 * match?.reasons[0]; // => "pole +18.3% in 6 bars (45.20 → 53.47)"
 */
import { flagDetector } from './flag-geometry';
import type { PatternDetector } from './types';

export const bullFlag: PatternDetector = flagDetector('bull_flag', 'long');

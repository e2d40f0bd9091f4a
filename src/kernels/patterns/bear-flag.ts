/**
 * @module kernels/patterns/bear-flag
 * `bear_flag` (continuation, short): a drop of at least 15% in at most 15 bars
 * (3 weeks of daily bars), then a 4–15 bar flag that drifts sideways or up in a
 * tight channel and retraces at most half the drop; it triggers on a close
 * below the flag's lower channel line. target1 = pivot − pole length
 * ("half-mast"); stop = the flag's high.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapter "Flags" (flags with downward breakouts). The geometry,
 * parameters and instance choice are in `flag-geometry.ts`, shared with
 * `bull_flag` on negated prices.
 *
 * @example
 * const match = bearFlag.detect({ bars, ind: computeIndicators(bars), asOf: bars.close.length - 1 });
 * match?.reasons[0]; // => "pole −17.1% in 8 bars (61.00 → 50.57)"
 */
import { flagDetector } from './flag-geometry';
import type { PatternDetector } from './types';

export const bearFlag: PatternDetector = flagDetector('bear_flag', 'short');

/**
 * @module kernels/patterns/range-breakout
 * `range_breakout` (range, long): a horizontal range of at least 20 bars
 * (4 weeks of daily bars), at most 5 ATRs and 15% tall, that price crossed at
 * least twice between its top and bottom quarters, broken by a close above
 * its top on at least 1.5× the 50-bar average volume. target1 = top + height;
 * stop = the range's midpoint.
 *
 * Definition: Thomas N. Bulkowski, "Encyclopedia of Chart Patterns", 2nd ed.
 * (Wiley, 2005), chapter "Rectangle Bottoms"/"Rectangle Tops" (upward
 * breakouts; measure rule = height added to the breakout). The geometry,
 * parameters and instance choice are in `range-geometry.ts`.
 *
 * @example
 * const match = rangeBreakout.detect({ bars, ind: computeIndicators(bars), asOf });
 * match?.reasons[0]; // => "range 34 bars between 48.10 and 52.40, 8.2% (3.9 ATR) wide"
 */
import { rangeDetector } from './range-geometry';
import type { PatternDetector } from './types';

export const rangeBreakout: PatternDetector = rangeDetector('range_breakout', 'long');
